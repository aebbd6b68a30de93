// node --test tests/js/ (run by tests/test_js_units.py): an arena's games as one list (tournament_games.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ARENA_SHOWN, arenaGames, olderGamesText } from "../../src/duelclub/static/js/tournament_games.js";

/** `waves` pairing waves of `boards` boards each, as GET /api/tournaments/{id} gives an arena's rounds. */
function arena(waves, boards = 1) {
  return Array.from({ length: waves }, (_w, i) => ({
    number: i + 1,
    pairings: Array.from({ length: boards }, (_b, j) => ({ board: j + 1, match_id: `m${i + 1}-${j + 1}`, seats: ["a", "b"] })),
  }));
}

test("an arena's games are one list, the most recent first, the newest twenty in view", () => {
  const { recent, older } = arenaGames(arena(214));
  assert.equal(ARENA_SHOWN, 20);
  assert.equal(recent.length, 20);
  assert.equal(older.length, 194);
  assert.equal(recent[0].match_id, "m214-1");
  assert.equal(recent[19].match_id, "m195-1");
  assert.equal(older[0].match_id, "m194-1");
  assert.equal(older.at(-1).match_id, "m1-1");
});

test("within a wave the later board comes first, and the API's order of waves does not matter", () => {
  const rounds = arena(3, 2).reverse();
  const { recent, older } = arenaGames(rounds, 4);
  assert.deepEqual(recent.map((p) => p.match_id), ["m3-2", "m3-1", "m2-2", "m2-1"]);
  assert.deepEqual(older.map((p) => p.match_id), ["m1-2", "m1-1"]);
  assert.equal(rounds[0].number, 3, "the caller's rounds are left as they were");
});

test("a short arena folds nothing", () => {
  const { recent, older } = arenaGames(arena(5));
  assert.equal(recent.length, 5);
  assert.deepEqual(older, []);
  assert.deepEqual(arenaGames([]), { recent: [], older: [] });
});

test("the fold says how many older games it holds", () => {
  assert.equal(olderGamesText(1), "Ещё 1 партия");
  assert.equal(olderGamesText(3), "Ещё 3 партии");
  assert.equal(olderGamesText(194), "Ещё 194 партии");
  assert.equal(olderGamesText(25), "Ещё 25 партий");
});
