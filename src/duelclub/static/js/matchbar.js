// Match page, live-play extras shared by every game (issue 6): the move clock counting down, the opponent's
// connection status, the win by abandonment («Засчитать победу»), the rematch and the spectator badge.
// match.js feeds it: state(msg) for every state, presence(msg) / rematch(msg) for the socket's notices.
import { el, get, post, toast } from "./api.js";
import { t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** Whole seconds left until `deadline` (ms) at `now` (ms), rounded up, never below 0. */
export function secondsLeft(deadline, now) {
  return Math.ceil(Math.max(0, deadline - now) / 1000);
}

/** The move clock's reading of `s` seconds: «0:09», «4:05», from an hour «2 ч 5 мин». */
export function clockText(s) {
  // correspondence clocks (issue 28 §4) run for days
  if (s >= 86400) return t("{d} д {h} ч", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("{h} ч {m} мин", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  if (s >= 60) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return `0:${String(s).padStart(2, "0")}`;
}

export class MatchBar {
  /** ``botSeats[i]``: seat i is a bot (its connection is never news: no «соперник на связи»); ``inTournament``:
   *  the match is a tournament board (no «Реванш»). */
  constructor(matchId, { botSeats = [false, false], inTournament = false } = {}) {
    this.matchId = matchId;
    this.botSeats = botSeats;
    this.inTournament = inTournament; // a tournament board: no rematch (the tournament pairs the next game)
    this.clock = null; // {deadline: ms (local), seconds}
    this.toMove = [];
    this.seat = null;
    this.status = null;
    this.presenceMsg = null;
    this.timer = setInterval(() => this._tick(), 250);
    this.rematchId = null;
    this.rematchReq = 0; // only the newest rematch read (or our own offer's answer) is painted
    this.leaving = false; // set once the page is on its way to the rematch
    this.offline = false; // our own connection is down: what we knew of the opponent may be stale
    $("claim-win").addEventListener("click", () => this._claim());
    $("rematch").addEventListener("click", () => this._rematch());
  }

  /** A state payload: the clock (server time corrected by server_now), whose move, seat, status. */
  state(msg) {
    this.seat = typeof msg.seat === "number" ? msg.seat : null;
    this.status = msg.status;
    this.toMove = Array.isArray(msg.to_move) ? msg.to_move : [];
    const c = msg.clock;
    if (c && c.deadline_at && msg.status === "active") {
      const remaining = typeof c.remaining_ms === "number" ? c.remaining_ms : Date.parse(c.deadline_at) - Date.now();
      this.clock = { deadline: Date.now() + remaining, seconds: c.move_seconds };
    } else {
      this.clock = c ? { deadline: null, seconds: c.move_seconds } : null;
    }
    const root = $("match");
    root.dataset.moveSeconds = c ? String(c.move_seconds) : "";
    $("spectator-badge").hidden = this.seat !== null || msg.status !== "active";
    this._tick();
    this._paintPresence();
    this._paintRematch();
  }

  _tick() {
    const box = $("move-clock");
    if (!this.clock || !this.clock.deadline || this.status !== "active") {
      box.hidden = !this.clock || this.status !== "active";
      if (!box.hidden) box.textContent = t("{n} с на ход", { n: this.clock.seconds });
      this._paintClaim();
      return;
    }
    const s = secondsLeft(this.clock.deadline, Date.now());
    const mine = this.seat !== null && this.toMove.includes(this.seat);
    const text = clockText(s);
    box.hidden = false;
    // t() outside the template literal: Babel does not extract calls inside `${…}`.
    box.textContent = (mine ? t("Ваше время") : t("Время хода")) + ": " + text;
    box.className = `move-clock${mine ? " move-clock--mine" : ""}${s <= 5 ? " move-clock--low" : ""}`;
    box.dataset.remaining = String(s);
    this._paintClaim();
  }

  /** Our own connection went down (true) or came back (false). While it is down the opponent's status and
   *  the claim are not shown: they may be stale, and a claim could not be sent anyway. The server pushes the
   *  presence again on reconnect. */
  setOffline(off) {
    if (off === this.offline) return;
    this.offline = off;
    this._paintPresence();
    this._paintClaim();
  }

  /** {"type":"presence", seats:[{seat, online, away_since}], claim_at, can_claim, grace_seconds}. */
  presence(msg) {
    this.presenceMsg = msg;
    this._paintPresence();
  }

  _paintPresence() {
    const box = $("opponent-conn");
    const p = this.presenceMsg;
    if (!p || !Array.isArray(p.seats)) return;
    const root = $("match");
    root.dataset.presence = p.seats.map((s) => (s.online ? "1" : "0")).join("");
    if (this.seat === null) {
      box.hidden = true;
      return;
    }
    const other = p.seats.find((s) => s.seat === 1 - this.seat);
    const ended = this.status === "finished" || this.status === "aborted";
    if (!other || this.botSeats[other.seat] || this.offline || ended) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.className = `opp-conn opp-conn--${other.online ? "on" : "off"}`;
    box.textContent = other.online ? t("соперник на связи") : t("соперник отключился");
    this._paintClaim();
  }

  _paintClaim() {
    const p = this.presenceMsg;
    const box = $("claim-box");
    const claimAt = p && p.claim_at ? Date.parse(p.claim_at) : null;
    if (!claimAt || this.offline || this.status !== "active" || this.seat === null) {
      box.hidden = true;
      return;
    }
    // claim_at is server time; the server re-checks anyway, so the local clock only paces the button.
    const left = Math.ceil((claimAt - Date.now()) / 1000);
    box.hidden = false;
    const ready = left <= 0;
    $("claim-win").disabled = !ready;
    $("claim-text").textContent = ready
      ? t("Соперник не вернулся. Можно засчитать победу.")
      : t("Соперник отключился. Если он не вернётся за {n} с, можно будет засчитать победу.", { n: left });
  }

  async _claim() {
    $("claim-win").disabled = true;
    try {
      await post(`/api/matches/${encodeURIComponent(this.matchId)}/claim`, {});
    } catch (err) {
      toast(err.code === "opponent_connected" ? t("Соперник вернулся.") : err.code === "claim_too_early" ? t("Ещё рано: соперник может вернуться.") : err.message);
    }
  }

  /** {"type":"rematch", id}: a rematch was offered or accepted after this match. */
  rematch(msg) {
    this.rematchId = msg.id;
    this._loadRematch();
  }

  async _loadRematch() {
    const n = ++this.rematchReq;
    try {
      const info = await get(`/api/matches/${encodeURIComponent(this.matchId)}`);
      // An older read answering late (e.g. the one made when the match ended, answered after our offer)
      // must not paint over a newer answer: the button would offer the rematch again.
      if (n !== this.rematchReq) return;
      this.rematchInfo = info.rematch;
      this._paintRematch();
    } catch (_err) {
      /* try again at the next notice */
    }
  }

  _paintRematch() {
    const btn = $("rematch");
    const note = $("rematch-note");
    const ended = this.status === "finished" || this.status === "aborted";
    if (!ended || this.seat === null || this.inTournament) {
      btn.hidden = true;
      note.hidden = true;
      return;
    }
    if (this.rematchInfo === undefined) {
      this.rematchInfo = null;
      this._loadRematch();
    }
    const r = this.rematchInfo;
    btn.hidden = false;
    note.hidden = !r;
    if (!r) {
      btn.textContent = t("Реванш");
      btn.disabled = false;
      return;
    }
    if (r.status === "active" || r.status === "finished") {
      note.replaceChildren(t("Реванш начался: "), el("a", { href: `/matches/${encodeURIComponent(r.id)}` }, t("перейти к партии")));
      btn.hidden = true;
      if (r.status === "active") this._goTo(r.id);
      return;
    }
    if (r.status === "aborted") {
      note.textContent = t("Реванш отклонён.");
      btn.hidden = true;
      return;
    }
    if (r.offered_by === this.seat) {
      note.textContent = t("Вы предложили реванш — ждём ответа соперника.");
      btn.disabled = true;
    } else {
      note.textContent = t("Соперник предлагает реванш (те же условия, места меняются).");
      btn.textContent = t("Принять реванш");
      btn.disabled = false;
    }
  }

  /** Open the rematch once: the accept's answer and the socket's notice both lead here, and a second
   *  navigation would abort the first. */
  _goTo(id) {
    if (this.leaving) return;
    this.leaving = true;
    location.assign(`/matches/${encodeURIComponent(id)}`);
  }

  async _rematch() {
    $("rematch").disabled = true;
    try {
      const r = await post(`/api/matches/${encodeURIComponent(this.matchId)}/rematch`, {});
      this.rematchReq += 1; // reads begun before the offer are older than this answer
      if (r.status === "active") {
        this._goTo(r.id);
        return;
      }
      this.rematchInfo = r;
      this._paintRematch();
    } catch (err) {
      $("rematch").disabled = false;
      toast(err.message);
    }
  }
}
