// node --test tests/js/ (run by tests/test_js_units.py): each game's turn line, result and action-log words,
// DOM-free parts of the renderers (static/js/<slug>.js) on the shared base (renderbase.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { wordsPart as artaniaWords } from "../../src/duelclub/static/js/artania_words.js";
import { seasonWords, wordsPart as mezhaWords } from "../../src/duelclub/static/js/mezha_words.js";
import { outcomeReason } from "../../src/duelclub/static/js/names.js";
import { createState, seatWords, turnLine } from "../../src/duelclub/static/js/renderbase.js";
import { outcome as towersOutcome, turnWords as towersTurn } from "../../src/duelclub/static/js/towers.js";
import {
  actionText as warchestAction,
  KIND_LOG as WARCHEST_LOG,
  KIND_RU as WARCHEST_BUTTONS,
  outcome as warchestOutcome,
  turnWords as warchestTurn,
} from "../../src/duelclub/static/js/warchest.js";

const SEATS = [{ username: "alice" }, { username: "bob" }];
const ctx = { info: { seats: SEATS }, username: "alice", catalog: { cards: [{ id: "archer", name: "Лучник" }] } };

function towers(you) {
  const st = createState();
  st.you = you;
  st.view = { targets: { tower: 50, resource: 150 } };
  return { st, ...seatWords(st, SEATS, "alice") };
}

test("Дві вежі: the turn line by phase and seat, behind the common cases", () => {
  const g = towers(0);
  const own = (msg, v) => towersTurn(g, v);
  assert.deepEqual(turnLine(g.st, { status: "active", view: { active: 0, phase: "play" } }, own), { text: "Ваш ход", cls: "turn-mine" });
  assert.equal(turnLine(g.st, { status: "active", view: { active: 0, phase: "extra" } }, own).text, "Ваш ход (ещё действие)");
  assert.equal(turnLine(g.st, { status: "active", view: { active: 0, phase: "forced_discard" } }, own).text, "Сбросьте карту");
  assert.equal(turnLine(g.st, { status: "active", view: { active: 1, phase: "forced_discard" } }, own).text, "Ход соперника");
  g.st.you = null;
  assert.deepEqual(turnLine(g.st, { status: "active", view: { active: 1, phase: "play" } }, own), { text: "Ходит bob" });
  g.st.offline = true;
  assert.equal(turnLine(g.st, { status: "active", view: { active: 1, phase: "play" } }, own).text, "Переподключение…");
});

test("Дві вежі: the result says who did what, from each side", () => {
  assert.deepEqual(towersOutcome(towers(0), { result: { winner: 0, reason: "tower" } }), {
    kind: "win",
    text: "Победа",
    reason: "Ваша башня достигла цели (50)",
  });
  assert.deepEqual(towersOutcome(towers(0), { result: { winner: 1, reason: "destruction" } }), {
    kind: "loss",
    text: "Поражение",
    reason: "Ваша башня разрушена",
  });
  assert.deepEqual(towersOutcome(towers(null), { result: { winner: 1, reason: "resign" } }), {
    kind: "draw",
    text: "Победа: bob",
    reason: "alice сдаётся",
  });
  assert.equal(towersOutcome(towers(0), { result: { winner: null, reason: "turn_limit" } }).reason, "Сыграно 500 ходов без результата");
  assert.equal(towersOutcome(towers(0), { view: { phase: "play" } }), null);
});

test("Дві вежі: a spectator's result takes the message's seat", () => {
  const g = towers(null);
  assert.equal(towersOutcome(g, { seat: 1, result: { winner: 1, reason: "resource" } }).text, "Победа");
  assert.equal(g.st.you, 1);
});

test("Сундук войны: the turn line names the side to a spectator and the draft to a player", () => {
  const v = { to_move_seat: 1, wolf_seat: 1, phase: "draft" };
  assert.deepEqual(warchestTurn({ seat: null }, v), { text: "Драфт: выбирает Волк" });
  assert.deepEqual(warchestTurn({ seat: 1 }, v), { text: "Драфт: ваш выбор", cls: "turn-mine" });
  assert.deepEqual(warchestTurn({ seat: 0 }, { ...v, phase: "play" }), { text: "Ход соперника", cls: "turn-theirs" });
  assert.deepEqual(warchestTurn({}, { ...v, phase: "play", to_move_seat: 0 }), { text: "Ходит Ворон" });
});

test("Сундук войны: the result names the side and the member to a spectator", () => {
  const g = { ctx, st: createState() };
  const view = { wolf_seat: 0 };
  assert.deepEqual(warchestOutcome(g, { seat: 0, view, result: { winner: 0, reason: "control" } }), {
    kind: "win",
    text: "Победа",
    reason: "Вы первыми выставили все свои маркеры контроля",
  });
  assert.deepEqual(warchestOutcome(g, { seat: null, view, result: { winner: 1, reason: "timeout" } }), {
    kind: "draw",
    text: "Победа: Ворон (bob)",
    reason: "Время на ход вышло: Волк (alice)",
  });
  assert.equal(warchestOutcome(g, { seat: 1, view, result: { winner: null, reason: "round_limit" } }).reason, "Сыграно 100 раундов без победителя");
});

function mezha(you) {
  const st = createState();
  st.you = you;
  const g = {};
  Object.assign(g, seasonWords(ctx, st, g));
  Object.assign(g, mezhaWords(ctx, st, g));
  return { st, g };
}

test("Межа: the turn line in the pause between seasons, then whose turn", () => {
  const { st, g } = mezha(1);
  assert.deepEqual(g.turnOwn({}, { phase: "pause", season: 2, turn: 1 }), { text: "Сезон 2 подсчитан", cls: "turn-pause" });
  assert.deepEqual(g.turnOwn({}, { phase: "play", turn: 1 }), { text: "Ваш ход", cls: "turn-mine" });
  st.you = null;
  assert.deepEqual(g.turnOwn({}, { phase: "play", turn: 0 }), { text: "Ходит alice" });
});

test("Межа: the result reads the seasons from the reader's side", () => {
  const { g } = mezha(1);
  const won = g.outcome({ view: { wins: [0, 2] }, result: { winner: 1, reason: "two_seasons" } });
  assert.deepEqual(won, { kind: "win", text: "Победа", reason: "Вы выиграли два сезона (2:0)" });
  const lost = mezha(0).g.outcome({ view: { wins: [0, 2] }, result: { winner: 1, reason: "two_seasons" } });
  assert.deepEqual(lost, { kind: "loss", text: "Поражение", reason: "Соперник выиграл два сезона (0:2)" });
  assert.equal(mezha(0).g.outcome({ result: { winner: 0, reason: "resign" } }).reason, "Соперник сдался");
});

test("Межа: an action in the admins' log", () => {
  const { g } = mezha(null);
  assert.equal(g.actionText({ kind: "play", card: "archer", field: 2 }, 0), "alice: Лучник → Холм");
  assert.equal(g.actionText({ kind: "next_season" }, 1), "bob: следующий сезон");
  assert.equal(g.actionText({ kind: "resign" }, 1), "bob: сдача");
  assert.equal(g.actionText({ kind: "dance" }, 1), null);
});

function artania(you) {
  const st = createState();
  st.you = you;
  const words = seatWords(st, SEATS, "alice");
  const g = {
    ...words,
    name: (id) => id,
    me: () => st.you ?? 0,
    whoGen: (seat) => (seat === st.you ? "ваш" : "соперника"),
  };
  Object.assign(g, artaniaWords(ctx, st, g));
  return { st, g };
}

test("Артания: the turn line follows the actor to move", () => {
  const { st, g } = artania(0);
  assert.deepEqual(g.turnOwn({}, { to_move: [0] }), { text: "Ваш ход", cls: "turn-mine" });
  assert.deepEqual(g.turnOwn({}, { to_move: [1] }), { text: "Ход соперника", cls: "turn-theirs" });
  st.you = null;
  assert.deepEqual(g.turnOwn({}, { to_move: [1] }), { text: "Действует bob" });
});

test("Артания: the result and the action log", () => {
  const { st, g } = artania(0);
  assert.deepEqual(g.outcome({ result: { winner: 0, reason: "five_tokens" } }), {
    kind: "win",
    text: "Победа",
    reason: "Вы первыми собрали пять кругляшей",
  });
  st.view = { tokens: [2, 4] }; // the score is the board's on screen, the reader's first
  assert.equal(
    g.outcome({ result: { winner: 1, reason: "deck_exhausted" } }).reason,
    "Колода закончилась, у соперника больше кругляшей (2 : 4)",
  );
  assert.equal(artania(null).g.outcome({ result: { winner: 1, reason: "resign" } }).reason, "alice сдаётся");
  assert.equal(g.actionText({ kind: "idol", slot: 2 }, 1), "Соперник: Идол гнева → слот 2");
  assert.equal(g.actionText({ kind: "resign" }, 0), "Вы: сдача");
});

test("Сундук войны: the action log names each kind by a noun, not the button's infinitive", () => {
  assert.deepEqual(Object.keys(WARCHEST_LOG).sort(), Object.keys(WARCHEST_BUTTONS).sort());
  const g = {
    coinName: (c) => ({ c1: "Рыцарь" })[c] || c,
    uname: (u) => u,
    decrees: new Map(),
    hexes: { h7: {} },
    labels: { h7: "B3" },
  };
  assert.equal(warchestAction(g, { kind: "deploy", coin: "c1", to: "h7" }), "выставление · Рыцарь · поле B3");
  assert.equal(warchestAction(g, { kind: "pick", coin: "c1" }), "выбор · Рыцарь");
  assert.equal(warchestAction(g, { kind: "pass" }), "пас");
  assert.equal(warchestAction(g, { kind: "resign" }), "сдача", "not the raw «resign»");
  for (const [kind, noun] of Object.entries(WARCHEST_LOG)) {
    assert.notEqual(noun, WARCHEST_BUTTONS[kind], kind);
    assert.equal(noun, noun.toLowerCase(), kind);
  }
});

test("the platform's ends under a game's banner: from the reader's side, never a raw code", () => {
  const lost = mezha(0).g.outcome({ result: { winner: 1, reason: "abandoned", reason_text: "соперник покинул партию" } });
  assert.equal(lost.reason, "", "Межа has no words of its own for an abandonment");
  const abandoned = { winner: 1, reason: "abandoned", reason_text: "соперник покинул партию" };
  assert.equal(outcomeReason(lost, abandoned, 0), "Вы не вернулись в партию вовремя.");
  assert.equal(outcomeReason(lost, abandoned, 1), "Соперник покинул партию.");
  assert.equal(outcomeReason(lost, abandoned, null), "Соперник покинул партию.", "a spectator reads the server's words");
  const timeout = { winner: 0, reason: "timeout", reason_text: "время вышло" };
  assert.equal(outcomeReason({ reason: "" }, timeout, 0), "Время соперника на ход вышло.");
  assert.equal(outcomeReason({ reason: "" }, timeout, 1), "Ваше время на ход вышло.");
  assert.equal(outcomeReason({ reason: "Соперник сдался" }, { winner: 0, reason: "resign" }, 0), "Соперник сдался.");
  assert.equal(outcomeReason({ reason: "" }, { winner: 0, reason: "some_code" }, 0), "Some_code.", "old payloads: the code");
  assert.equal(outcomeReason({ reason: "" }, { winner: null, reason: "" }, 0), "");
});
