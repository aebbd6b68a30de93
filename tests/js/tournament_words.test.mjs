// node --test tests/js/ (run by tests/web/test_js_modules.py): the tournament page's pure words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { points, resultText, rulesText, tournamentTitle } from "../../src/duelclub/static/js/tournament_words.js";

test("points are written with halves", () => {
  assert.equal(points(0), "0");
  assert.equal(points(0.5), "½");
  assert.equal(points(2.5), "2½");
  assert.equal(points(3), "3");
});

test("a bye and an unfinished board have their words", () => {
  assert.equal(resultText({ result: null, seats: ["a", null] }), "отдых");
  assert.equal(resultText({ result: null, seats: ["a", "b"] }), "…");
  assert.equal(resultText({ result: "1-0", seats: ["a", "b"] }), "1-0");
  assert.equal(resultText({ result: "bye", seats: ["a", null] }), "отдых");
});

test("each format explains its own rules", () => {
  assert.match(rulesText({ format: "round_robin", double: false }), /Бергера/);
  assert.match(rulesText({ format: "round_robin", double: true }), /дважды/);
  assert.match(rulesText({ format: "swiss", rounds: 5 }), /^5 туров\./);
  assert.match(rulesText({ format: "swiss", rounds: 3 }), /^3 тура\./);
  const arena = rulesText({ format: "arena", minutes: 60 });
  assert.match(arena, /60 минут/);
  assert.match(arena, /вдвойне/);
});

test("a nameless tournament is named by its format and game", () => {
  assert.equal(tournamentTitle({ name: "", format: "swiss", game: "towers" }, "Дві вежі"), "Швейцарская система: Дві вежі");
  assert.equal(tournamentTitle({ name: "Вечер", format: "arena" }, "x"), "Вечер");
});
