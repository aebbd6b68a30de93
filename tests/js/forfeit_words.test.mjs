// node --test tests/js/ (run by tests/test_js_units.py): the result banner of a tournament board that ended
// before both first moves — a forfeit in the tournament's table, so never «не в счёт» (standing.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { abortWords, forfeitWords } from "../../src/duelclub/static/js/standing.js";

const noShow = { winner: null, reason: "unplayed", ended_by: "no_show", seat: 1, names: ["ivan", "petr"] };

test("a no-show: the present player won without play, the absent one lost", () => {
  assert.deepEqual(forfeitWords(noShow, 0), {
    kind: "win",
    text: "Победа без игры",
    reason: "Соперник не сделал первый ход вовремя — в турнире это победа без игры.",
  });
  assert.deepEqual(forfeitWords(noShow, 1), {
    kind: "loss",
    text: "Поражение без игры",
    reason: "Вы не сделали первый ход вовремя — в турнире это поражение без игры.",
  });
  const watcher = forfeitWords(noShow, null);
  assert.equal(watcher.text, "Победа без игры: ivan");
  assert.equal(watcher.reason, "petr: первый ход не сделан вовремя — в турнире это поражение без игры.");
  assert.match(abortWords(noShow, 0).reason, /не в счёт/, "outside a tournament the same result is an abort");
});

test("the clock's first-move end and a resignation before the first moves are forfeits too", () => {
  const clock = { winner: null, reason: "no_first_move", seat: 0 };
  assert.equal(forfeitWords(clock, 1).kind, "win");
  const resigned = { ...noShow, ended_by: "resign", seat: 0 };
  assert.equal(forfeitWords(resigned, 0).reason, "Вы сдались до первых ходов — в турнире это поражение без игры.");
  assert.equal(forfeitWords(resigned, 1).reason, "Соперник сдался до первых ходов — в турнире это победа без игры.");
});

test("any other result is not a forfeit", () => {
  assert.equal(forfeitWords({ winner: 0, reason: "resign" }, 0), null);
  assert.equal(forfeitWords({ winner: null, reason: "tournament_cancelled" }, 0), null);
  assert.equal(forfeitWords({ winner: null, reason: "unplayed" }, 0), null, "no seat at fault");
  assert.equal(forfeitWords(null, 0), null);
});
