// The 503 page (web/outage.py: a page asked for while the server's database is down, issue 31 §2): ask again
// for the same page (HEAD, nothing rendered) with the backoff of outage.js — exponential, jittered, capped —
// and reload it as soon as the answer is anything but 503 (the database is back, or the page says why not).
// The browser's "online" event asks at once.

import { Backoff, isUnavailable } from "./outage.js";

const backoff = new Backoff({ base: 1000, cap: 15000 });
let timer = null;

async function probe() {
  clearTimeout(timer);
  try {
    const res = await fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
    if (!isUnavailable(res.status)) {
      location.reload();
      return;
    }
  } catch (_err) {
    /* no network: try again later */
  }
  timer = setTimeout(probe, backoff.next());
}

window.addEventListener("online", probe);
timer = setTimeout(probe, backoff.next());
