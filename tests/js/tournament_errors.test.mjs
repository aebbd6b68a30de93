// node --test tests/js/ (run by tests/test_js_units.py): every tournament refusal a member can cause reads in
// the page language (here the source language, Russian; test_i18n checks each msgid has its Ukrainian), never
// the API's English message.
import assert from "node:assert/strict";
import { test } from "node:test";

import { refusalText } from "../../src/duelclub/static/js/tournament_errors.js";

const CODES = [
  ["tournament_not_found", 404],
  ["not_organiser", 403],
  ["tournament_started", 409],
  ["tournament_full", 409],
  ["already_joined", 409],
  ["not_joined", 409],
  ["too_few_players", 409],
  ["too_many_rounds", 409],
  ["tournament_not_running", 409],
  ["tournament_not_paused", 409],
  ["tournament_over", 409],
  ["already_withdrawn", 409],
  ["unknown_game", 422],
  ["bad_format", 422],
  ["bad_options", 422],
  ["bad_clock", 422],
  ["bad_rounds", 422],
  ["bad_minutes", 422],
  ["bad_start", 422],
  ["bad_bot_level", 422],
  ["bad_name", 422],
  ["bad_max_players", 422],
  ["bad_round_minutes", 422],
];

const ENGLISH = "the tournament is full (64 players)";

test("each refusal of play/tournament_ops.py has its own words, none the English message", () => {
  const seen = new Set();
  for (const [code, status] of CODES) {
    const text = refusalText({ status, code, message: ENGLISH }, { players: 4, rounds: 5, maxPlayers: 4 });
    assert.ok(text && text !== ENGLISH, code);
    assert.match(text, /[а-яё]/i, `${code}: ${text}`);
    assert.doesNotMatch(text, /[a-z]{3}/, `${code}: no English in «${text}»`);
    seen.add(text);
  }
  assert.ok(seen.size >= CODES.length - 3, "the refusals are told apart");
});

test("too many rounds says how many the players allow", () => {
  const text = refusalText({ status: 409, code: "too_many_rounds", message: "x" }, { players: 4, rounds: 5 });
  assert.match(text, /при 4 участниках .* не больше 3 туров/);
  assert.match(refusalText({ code: "too_many_rounds" }, { players: 2, rounds: 3 }), /не больше 1 тура/);
  const scheduled = refusalText({ code: "too_many_rounds" }, { players: 4, rounds: 5, startsAt: "2026-12-06T18:00:00Z" });
  assert.match(scheduled, /сервер начнёт турнир сам/, "the organiser learns what the scheduled start would do");
});

test("a full tournament tells its size; a started one what is still possible", () => {
  assert.match(refusalText({ code: "tournament_full" }, { maxPlayers: 16 }), /16 участников/);
  assert.match(refusalText({ code: "tournament_full" }, { maxPlayers: 2 }), /2 участника/);
  assert.match(refusalText({ code: "tournament_started" }, { action: "leave" }), /выбыть/);
  assert.match(refusalText({ code: "tournament_started" }, { action: "join" }), /записаться нельзя/);
});

test("a malformed body is told by its field", () => {
  assert.equal(refusalText({ status: 422, code: "malformed", message: "rounds: Input should be less than or equal to 1000" }), refusalText({ code: "bad_rounds" }));
  assert.equal(refusalText({ status: 422, code: "malformed", message: "round_minutes: Input should be greater than or equal to 1" }), refusalText({ code: "bad_round_minutes" }));
  assert.doesNotMatch(refusalText({ status: 422, code: "malformed", message: "body: Field required" }), /Field/);
});

test("what api.js already words passes through; an unknown code is never shown as English", () => {
  assert.equal(refusalText({ status: 0, code: "network", message: "Нет связи с сервером." }), "Нет связи с сервером.");
  assert.equal(refusalText({ status: 429, code: "rate_limited", message: "Попробуйте через минуту." }), "Попробуйте через минуту.");
  assert.doesNotMatch(refusalText({ status: 500, code: "internal", message: "internal server error" }), /internal/);
  assert.doesNotMatch(refusalText({ status: 409, code: "conflict", message: "some english text" }), /english/);
});
