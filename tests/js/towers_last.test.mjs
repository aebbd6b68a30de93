import { test } from "node:test";
import assert from "node:assert/strict";
import { lastTurn } from "../../src/duelclub/static/js/towers_last.js";

const view = (over) => ({ active: 0, last: [[], []], history: [], ...over });

test("the seat's current turn so far is shown as it is", () => {
  const v = view({ active: 1, last: [[], [{ card: 7, tag: "play" }]], history: [[0, 3, "play"], [1, 7, "play"]] });
  assert.deepEqual(lastTurn(v, 1), { cards: [{ card: 7, tag: "play" }], previous: false });
});

test("a seat waiting for the other keeps its finished turn", () => {
  const v = view({ active: 1, last: [[{ card: 3, tag: "play" }], []], history: [[0, 3, "play"]] });
  assert.deepEqual(lastTurn(v, 0), { cards: [{ card: 3, tag: "play" }], previous: false });
});

test("while the seat is to move with nothing played yet, its previous turn comes from the history", () => {
  const history = [
    [1, 40, "play"],
    [0, 3, "play"],
    [0, 9, "forced_discard"],
    [1, 12, "discard"],
    [0, 5, "play"],
    [0, 6, "play"],
  ];
  const v = view({ active: 1, last: [[{ card: 5, tag: "play" }, { card: 6, tag: "play" }], []], history });
  assert.deepEqual(lastTurn(v, 1), { cards: [{ card: 12, tag: "discard" }], previous: true });
  const w = view({ active: 0, last: [[], [{ card: 12, tag: "discard" }]], history: history.slice(0, 4) });
  assert.deepEqual(lastTurn(w, 0), {
    cards: [{ card: 3, tag: "play" }, { card: 9, tag: "forced_discard" }],
    previous: true,
  });
});

test("before the seat's first turn there is nothing to show", () => {
  assert.deepEqual(lastTurn(view({ active: 0 }), 0), { cards: [], previous: false });
  assert.deepEqual(lastTurn(view({ active: 1, history: [[0, 3, "play"]] }), 1), { cards: [], previous: false });
  assert.deepEqual(lastTurn({ active: 0 }, 0), { cards: [], previous: false });
});
