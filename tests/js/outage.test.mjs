// node --test tests/js/ (tests/test_js.py runs it): the backoff and the 503/1013 verdicts of
// static/js/outage.js, without a DOM (the banner functions do nothing there).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Backoff,
  TRY_AGAIN_LATER,
  isUnavailable,
  serverAvailable,
  serverUnavailable,
} from "../../src/duelclub/static/js/outage.js";

/** The ceilings a Backoff walks through: its waits with random() at its top (just under 1). */
const top = () => 0.999999;

test("the waits double from the base up to the cap, and stay there", () => {
  const b = new Backoff({ base: 500, cap: 8000, random: top });
  const waits = Array.from({ length: 8 }, () => b.next());
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 8000, 8000, 8000]);
});

test("each wait is jittered between half its ceiling and the ceiling", () => {
  const low = new Backoff({ base: 500, cap: 8000, random: () => 0 });
  assert.deepEqual(Array.from({ length: 6 }, () => low.next()), [250, 500, 1000, 2000, 4000, 4000]);
  const b = new Backoff({ base: 1000, cap: 30000 }); // Math.random
  for (let i = 0; i < 200; i += 1) {
    const ceiling = b.ceiling();
    const wait = b.next();
    assert.ok(wait >= ceiling / 2 && wait <= ceiling, `${wait} outside [${ceiling / 2}, ${ceiling}]`);
  }
});

test("two pages that lost the server together do not retry in step", () => {
  const a = new Backoff();
  const b = new Backoff();
  const waitsA = Array.from({ length: 6 }, () => a.next());
  const waitsB = Array.from({ length: 6 }, () => b.next());
  assert.notDeepEqual(waitsA, waitsB);
});

test("reset starts again from the base", () => {
  const b = new Backoff({ base: 500, cap: 8000, random: top });
  b.next();
  b.next();
  b.next();
  b.reset();
  assert.equal(b.next(), 500);
});

test("many failures never overflow the cap", () => {
  const b = new Backoff({ base: 500, cap: 8000, random: top });
  for (let i = 0; i < 5000; i += 1) b.next();
  assert.equal(b.next(), 8000);
});

test("503 and the close code 1013 mean: the server cannot serve now", () => {
  assert.equal(TRY_AGAIN_LATER, 1013);
  assert.equal(isUnavailable(503), true);
  for (const status of [200, 404, 429, 500, 502]) assert.equal(isUnavailable(status), false);
});

test("without a DOM the banner functions do nothing", () => {
  serverUnavailable();
  serverAvailable();
});
