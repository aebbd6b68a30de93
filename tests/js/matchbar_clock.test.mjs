// node --test tests/js/ (run by tests/test_js_units.py): the move clock's reading (matchbar.js), DOM-free.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText, secondsLeft } from "../../src/duelclub/static/js/matchbar.js";

test("the seconds left round up, and never go below zero after the deadline", () => {
  assert.equal(secondsLeft(10_000, 0), 10);
  assert.equal(secondsLeft(10_000, 9_001), 1);
  assert.equal(secondsLeft(10_000, 10_000), 0);
  assert.equal(secondsLeft(10_000, 12_000), 0);
});

test("under a minute reads 0:SS, under an hour M:SS, from an hour hours and minutes", () => {
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(9), "0:09");
  assert.equal(clockText(59), "0:59");
  assert.equal(clockText(60), "1:00");
  assert.equal(clockText(245), "4:05");
  assert.equal(clockText(3599), "59:59");
  assert.equal(clockText(3600), "1 ч 0 мин");
  assert.equal(clockText(86_399), "23 ч 59 мин");
});

test("a correspondence clock reads days and hours from a day on", () => {
  assert.equal(clockText(86_400), "1 д 0 ч");
  assert.equal(clockText(7 * 86_400 - 1), "6 д 23 ч");
});
