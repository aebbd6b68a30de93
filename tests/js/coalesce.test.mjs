// node --test tests/js/ (run by tests/test_js_units.py): coalesced re-reads of a tournament page and lists.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LIST_WAIT_MS, PAGE_WAIT_MS, coalesce } from "../../src/duelclub/static/js/coalesce.js";

/** A fake clock: timers fire only when the test advances the time. */
function fakeClock() {
  let now = 0;
  let timers = [];
  return {
    now: () => now,
    setTimeout(fn, ms) {
      timers.push({ at: now + ms, fn });
      return timers.length;
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers = timers.slice(1);
        now = next.at;
        next.fn();
        await flush();
      }
      now = end;
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

test("a page re-reads at most every 2 s, a list less often", () => {
  assert.equal(PAGE_WAIT_MS, 2000);
  assert.ok(LIST_WAIT_MS > PAGE_WAIT_MS);
});

test("the first change is read at once", async () => {
  const clock = fakeClock();
  const reads = [];
  const kick = coalesce(() => reads.push(clock.now()), 2000, clock);
  kick();
  await flush();
  assert.deepEqual(reads, [0]);
});

test("an arena's stream of pushes (3.6 a second for 10 s) is read at most once per 2 s, the last one too", async () => {
  const clock = fakeClock();
  const reads = [];
  const kick = coalesce(() => reads.push(clock.now()), 2000, clock);
  for (let i = 0; i < 36; i++) {
    kick();
    await clock.advance(278);
  }
  const lastPush = clock.now() - 278;
  await clock.advance(5000);
  assert.ok(reads.length <= 6, `${reads.length} reads for 36 pushes in 10 s`);
  for (let i = 1; i < reads.length; i++) assert.ok(reads[i] - reads[i - 1] >= 2000, `reads at ${reads}`);
  assert.ok(reads.at(-1) >= lastPush, "the last change is read (trailing edge)");
});

test("a quiet push after the wait is read at once again", async () => {
  const clock = fakeClock();
  const reads = [];
  const kick = coalesce(() => reads.push(clock.now()), 2000, clock);
  kick();
  await clock.advance(10_000);
  kick();
  await flush();
  assert.deepEqual(reads, [0, 10_000]);
});

test("pushes during a slow read bring one more read after it, never two at once", async () => {
  const clock = fakeClock();
  let inFlight = 0;
  let most = 0;
  let release;
  const reads = [];
  const kick = coalesce(
    () => {
      reads.push(clock.now());
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise((resolve) => {
        release = () => {
          inFlight--;
          resolve();
        };
      });
    },
    2000,
    clock,
  );
  kick();
  await clock.advance(3000);
  kick();
  kick();
  await clock.advance(3000);
  assert.deepEqual(reads, [0], "no second read while the first is in flight");
  release();
  await flush();
  await clock.advance(10);
  assert.deepEqual(reads, [0, 6000], "one more read once the first ended");
  release();
  await flush();
  assert.equal(most, 1);
});

test("a failed read does not stop later ones", async () => {
  const clock = fakeClock();
  let calls = 0;
  const kick = coalesce(
    () => {
      calls++;
      throw new Error("offline");
    },
    2000,
    clock,
  );
  kick();
  await flush();
  kick();
  await clock.advance(2000);
  assert.equal(calls, 2);
});
