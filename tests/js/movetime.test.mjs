// node --test tests/js/ (run by tests/test_js_units.py): the time per move in words (movetime.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { moveTimeText } from "../../src/duelclub/static/js/movetime.js";

test("a move clock reads in the largest whole unit, days for correspondence", () => {
  assert.equal(moveTimeText(null), "без часов");
  assert.equal(moveTimeText(30), "30 с");
  assert.equal(moveTimeText(600), "10 мин");
  assert.equal(moveTimeText(7200), "2 ч");
  assert.equal(moveTimeText(86400), "24 ч");
  assert.equal(moveTimeText(3 * 86400), "3 дня");
  assert.equal(moveTimeText(7 * 86400), "7 дней");
  assert.equal(moveTimeText(45), "45 с");
});
