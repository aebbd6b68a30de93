// Coalesced re-reads (issue 26, QA): a tournament page hears {"type":"tournament"} for every change — in an
// arena several a second — and must not re-read GET /api/tournaments/{id} for each. Pure (no DOM): node --test
// runs it with a fake clock (tests/js/coalesce.test.mjs).

/** How often an open tournament page re-reads at most (ms). */
export const PAGE_WAIT_MS = 2000;
/** How often a tournament list (lobby, /tournaments) re-reads at most (ms). */
export const LIST_WAIT_MS = 6000;

const REAL_CLOCK = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
};

/** `read` wrapped so that calling the result ("something changed") runs `read` at once when it has not run
 * for `waitMs`, and otherwise once more `waitMs` after its last run (trailing edge: the last change is
 * always read) — however many calls come meanwhile. A call during a `read` still in flight (a promise)
 * schedules one more run after it; runs never overlap, so an older answer never overwrites a newer one.
 * `clock` ({now, setTimeout}) is for tests. */
export function coalesce(read, waitMs, clock = REAL_CLOCK) {
  let last = -Infinity; // when the last run started
  let timer = null;
  let running = false;
  let pending = false;

  async function run() {
    timer = null;
    pending = false;
    running = true;
    last = clock.now();
    try {
      await read();
    } catch (_err) {
      // the reader shows its own errors; the next change tries again
    } finally {
      running = false;
      if (pending) kick();
    }
  }

  function kick() {
    pending = true;
    if (running || timer !== null) return;
    const delay = last + waitMs - clock.now();
    if (delay <= 0) run();
    else timer = clock.setTimeout(run, delay);
  }

  return kick;
}
