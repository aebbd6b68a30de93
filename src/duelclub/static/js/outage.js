// The server's «try again later» (issue 31 §2). While the database is down the server answers HTTP 503
// {code: "store_unavailable"} with Retry-After, closes sockets it cannot open with 1013 (web/outage.py) and
// tells an open match socket with an error frame store_unavailable (live.js, issue 29 §6). Then every page
// shows one banner, «Нет связи с сервером, пробуем снова…» (the .offline-note look of the match page's own
// offline note), until a request or a socket gets through again (api.js, live.js, challenges.js, turnbadge.js
// report both), and the live connections wait before each retry with a Backoff: exponential, capped, with
// jitter (40 pages must not come back in step).
// Importable without a DOM (node --test tests/js/): the banner functions do nothing there.

import { t } from "./i18n.js";

/** The WebSocket close code of a server that cannot serve now (RFC 6455 §7.4.1, IANA: Try Again Later). */
export const TRY_AGAIN_LATER = 1013;

/** Whether an HTTP status means «the server is there but cannot serve now: try again shortly». */
export const isUnavailable = (status) => status === 503;

export class Backoff {
  /**
   * Waits before retries: attempt n (from 0) draws from [ceiling/2, ceiling] where ceiling = min(cap,
   * base·factor^n) ("equal jitter": never shorter than half the step, spread over the other half).
   * @param {{base?: number, cap?: number, factor?: number, random?: () => number}} options
   *   base and cap in ms (default 500 and 8000); random in [0, 1) (Math.random; tests pass their own).
   */
  constructor({ base = 500, cap = 8000, factor = 2, random = Math.random } = {}) {
    this.base = base;
    this.cap = cap;
    this.factor = factor;
    this.random = random;
    this.attempt = 0;
  }

  /** The ceiling of the next wait (ms), without drawing it. */
  ceiling() {
    return Math.min(this.cap, this.base * this.factor ** this.attempt);
  }

  /** The next wait in ms; each call doubles the ceiling up to the cap. */
  next() {
    const ceiling = this.ceiling();
    this.attempt = Math.min(this.attempt + 1, 64); // the cap is reached long before: no overflow to Infinity
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  /** Back to the first step (a connection got through). */
  reset() {
    this.attempt = 0;
  }
}

const BANNER_ID = "server-unavailable";
const DOC = typeof document !== "undefined" ? document : null;

/** Show the banner (idempotent): the server answered 503 or closed a socket with 1013. */
export function serverUnavailable() {
  if (!DOC || !DOC.body) return;
  let banner = DOC.getElementById(BANNER_ID);
  if (!banner) {
    banner = DOC.createElement("p");
    banner.id = BANNER_ID;
    banner.className = "offline-note server-unavailable";
    banner.setAttribute("role", "status");
    banner.setAttribute("aria-live", "polite");
    banner.textContent = t("Нет связи с сервером, пробуем снова…");
    const main = DOC.getElementById("main");
    if (main) main.prepend(banner);
    else DOC.body.prepend(banner);
  }
  banner.hidden = false;
}

/** Hide the banner: a request or a socket got through. */
export function serverAvailable() {
  const banner = DOC && DOC.getElementById(BANNER_ID);
  if (banner) banner.hidden = true;
}
