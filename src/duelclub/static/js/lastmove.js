// What just happened, on the board (issue 16 §3): the opponent's last action is marked by the game's renderer
// (renderer.markLast(events, fresh): the unit moved and its path, the coin placed, the unit attacked, the card
// played and its field) with a short animation when it is fresh. The animation can be switched off (a checkbox
// under the match header, remembered in this browser) and never runs under prefers-reduced-motion (CSS).
// For a spectator the last action of either player is marked.

import { el, get } from "./api.js";
import { t } from "./i18n.js";

const KEY = "duelclub.moveAnimation";
const SILENT = new Set(["draw", "turn", "turn_start", "match_end", "cleanup", "round", "season_start"]);

/** The events of one action grouped by seq, in order. */
function groups(events) {
  const out = new Map();
  for (const ev of events || []) {
    if (typeof ev.seq !== "number") continue;
    if (!out.has(ev.seq)) out.set(ev.seq, []);
    out.get(ev.seq).push(ev);
  }
  return [...out.entries()];
}

/** The seat that acted in a group: the first event that says so and is not a bookkeeping one. */
function actor(evs) {
  const first = evs.find((e) => typeof e.seat === "number" && !SILENT.has(e.kind));
  return first ? first.seat : null;
}

export class LastMove {
  constructor(matchId, root) {
    this.matchId = matchId;
    this.root = root;
    this.last = null; // {seq, events}
    this.primed = false;
    const on = localStorage.getItem(KEY) !== "0";
    document.body.classList.toggle("move-anim", on);
    const box = el("input", { type: "checkbox", id: "move-anim" });
    box.checked = on;
    box.addEventListener("change", () => {
      localStorage.setItem(KEY, box.checked ? "1" : "0");
      document.body.classList.toggle("move-anim", box.checked);
    });
    this.legend = el(
      "p",
      { class: "last-legend small", id: "last-legend" },
      el("span", { class: "last-legend__mark", "aria-hidden": "true" }),
      t("Рамка — последний ход соперника"),
      el("label", { class: "last-legend__toggle" }, box, t("анимация")),
    );
  }

  /** After the renderer painted `msg`: mark the opponent's last action (`seat`: the reader's, null spectator). */
  onState(msg, seat, renderer) {
    if (!renderer || typeof renderer.markLast !== "function" || !msg.view) return;
    if (!this.legend.isConnected) {
      // In the match header, under the log strip: never a cell of the board/side grid.
      const top = document.querySelector(".match-top");
      if (top) top.append(this.legend);
    }
    let fresh = false;
    for (const [seq, evs] of groups(msg.events)) {
      const who = actor(evs);
      if (who === null || (seat !== null && who === seat)) continue;
      if (!this.last || seq > this.last.seq) {
        this.last = { seq, events: evs };
        fresh = true;
      }
    }
    if (!this.primed && !this.last && typeof msg.seq === "number" && msg.seq > 0) this.prime(msg, seat, renderer);
    this.primed = true;
    if (this.last) renderer.markLast(this.last.events, fresh && msg.status === "active");
  }

  /** A page opened mid-match gets no events with its first state: read the last few actions once. */
  async prime(msg, seat, renderer) {
    try {
      const st = await get(`/api/matches/${encodeURIComponent(this.matchId)}/state?since=${Math.max(0, msg.seq - 4)}`);
      for (const [seq, evs] of groups(st.events)) {
        const who = actor(evs);
        if (who !== null && (seat === null || who !== seat) && (!this.last || seq > this.last.seq)) this.last = { seq, events: evs };
      }
      if (this.last) renderer.markLast(this.last.events, false);
    } catch (_err) {
      /* the mark waits for the next move */
    }
  }
}
