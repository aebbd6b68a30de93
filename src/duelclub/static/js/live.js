// Generic live connection to one match (DESIGN.md §Real time).
// Server → client: {"type":"state", seq, seat, status, view, legal, clock, events, result},
//                  {"type":"ack", id, seq} (or, for our own act, its state with "ack": id),
//                  {"type":"error", id, code, message},
//                  {"type":"presence", seq, seats, claim_at, can_claim, grace_seconds} (onPresence),
//                  {"type":"rematch", seq, id} (onRematch). Every push carries seq: a push whose seq is ahead
//                  of the last state seen means a state was missed, and the client asks for it (sync).
// onStatus: "open" (socket up), "http" (socket down but the HTTP API answers: acting goes over HTTP),
// "connecting" / "closed" (the server is out of reach: the page must not offer moves).
// onError gets the rejected action and the seq it was sent at (`action`, `sentSeq`) when it was ours.
// Client → server: {"type":"act", id, seq, action}, {"type":"sync", seq}, {"type":"ping"} (→ {"type":"pong"}).
// Heartbeat: a socket on a dead network (a laptop lid, a changed Wi-Fi) may stay "open" for many minutes
// while nothing arrives. After PING_AFTER_MS without a message the page pings; if nothing at all arrives
// PONG_WAIT_MS later, the socket is dropped and reconnected (the missed events come with the sync).
// Reconnects with exponential backoff (jittered, capped: outage.js Backoff) and asks for the events since the
// last state it saw. A close with 1013 (the server's database is down: issue 31 §2) shows the page's «Нет связи
// с сервером, пробуем снова…» banner until a socket opens again, and retries the same way. An open socket that
// meets the outage stays open (issue 29 §6): an error "store_unavailable" shows the same banner and the page
// asks for the state again after a backoff wait (not at once), until a state comes. The browser's
// "offline" event drops the socket at once (it may stay open on a dead network and show a stale match), and
// "online" reconnects at once instead of waiting out the backoff.
// If the socket cannot be opened at all, it falls back to the HTTP API (GET …/state, POST …/actions).

import { api, get, uuid } from "./api.js";
import { Backoff, TRY_AGAIN_LATER, serverAvailable, serverUnavailable } from "./outage.js";

const MAX_BACKOFF_MS = 8000;
const PING_AFTER_MS = 20000;
const PONG_WAIT_MS = 10000;
const HEARTBEAT_TICK_MS = 2500;

export class MatchLive {
  /**
   * @param {string} matchId
   * @param {{onState?: Function, onError?: Function, onStatus?: Function, onAck?: Function}} handlers
   *   onState(msg) for every state, onError({code, message, id}) for rejected actions and failures,
   *   onStatus("connecting" | "open" | "closed") for the connection indicator.
   */
  constructor(matchId, handlers = {}) {
    this.matchId = matchId;
    this.h = handlers;
    this.seq = null; // last seq seen
    this.ws = null;
    this.backoff = new Backoff({ base: 500, cap: MAX_BACKOFF_MS });
    this.closed = false;
    this.pending = new Map(); // action id → {action, seq}, until ack/error
    this.failures = 0;
    this.timer = null;
    this.httpOk = false; // the last HTTP request since the socket went down succeeded
    this.ended = false; // the session has ended (close 4401 / not_authenticated): nothing more is sent
    this.heardAt = 0; // when the open socket last delivered anything
    this.pingedAt = null; // when the unanswered ping was sent
    this.heartbeat = null;
    this.unavailable = false; // the server said store_unavailable; a state since has not come
    this.syncTimer = null;
  }

  start() {
    this.closed = false;
    if (!this.netHandlers) {
      this.netHandlers = { offline: () => this._networkDown(), online: () => this._networkUp() };
      window.addEventListener("offline", this.netHandlers.offline);
      window.addEventListener("online", this.netHandlers.online);
    }
    if (!this.heartbeat) this.heartbeat = setInterval(() => this._beat(), HEARTBEAT_TICK_MS);
    this._connect();
    return this;
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.syncTimer);
    clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.netHandlers) {
      window.removeEventListener("offline", this.netHandlers.offline);
      window.removeEventListener("online", this.netHandlers.online);
      this.netHandlers = null;
    }
    if (this.ws) this.ws.close();
  }

  /** The browser lost the network: the socket is dead even if it has not noticed; drop it and say so. */
  _networkDown() {
    if (this.closed) return;
    this.httpOk = false;
    this._drop();
    this._status("closed");
    this._scheduleReconnect();
  }

  /** The heartbeat: ping a quiet open socket; drop one that did not answer (the network died silently). */
  _beat() {
    const ws = this.ws;
    if (this.closed || !ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (this.pingedAt !== null && now - this.pingedAt >= PONG_WAIT_MS) {
      this.pingedAt = null;
      this.httpOk = false;
      this._drop();
      this._status("closed");
      this.failures += 1;
      this._scheduleReconnect();
      return;
    }
    if (this.pingedAt === null && now - this.heardAt >= PING_AFTER_MS) {
      this.pingedAt = now;
      this._send({ type: "ping" });
    }
  }

  /** Forget the current socket: its late close event must not schedule a second reconnect. */
  _drop() {
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.dropped = true;
    ws.close();
  }

  /** The network is back: reconnect now (the missed events come with the sync on open). */
  _networkUp() {
    if (this.closed || this.ended) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    this._drop(); // an attempt begun offline may hang or fail late: start afresh
    clearTimeout(this.timer);
    this.backoff.reset();
    this.failures = 0;
    this._connect();
  }

  _url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // ack=state: the state of our own act carries its ack ("ack": id), one frame instead of two (web/ws.py).
    return `${proto}//${location.host}/ws/matches/${encodeURIComponent(this.matchId)}?ack=state`;
  }

  _status(s) {
    // While the socket is down, an answering HTTP API still lets the player act (the fallback in act()).
    const shown = s !== "open" && this.httpOk ? "http" : s;
    if (shown === this.shown) return;
    this.shown = shown;
    if (this.h.onStatus) this.h.onStatus(shown);
  }

  _connect() {
    this._status("connecting");
    let ws;
    try {
      ws = new WebSocket(this._url());
    } catch (_err) {
      this._scheduleReconnect();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.addEventListener("open", () => {
      opened = true;
      this.heardAt = Date.now();
      this.pingedAt = null;
      this.backoff.reset();
      this.failures = 0;
      this.httpOk = false;
      serverAvailable();
      this._status("open");
      // The server sends the current state on connect; if we already had one, ask for what we missed.
      if (this.seq !== null) this._send({ type: "sync", seq: this.seq });
    });
    ws.addEventListener("message", (ev) => {
      if (ws.dropped) return;
      this.heardAt = Date.now();
      this.pingedAt = null;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_err) {
        return;
      }
      this._handle(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (ws.dropped) return;
      if (this.ws === ws) this.ws = null;
      // A live socket that dropped: we do not know whether the server is there. A socket that never opened
      // leaves the last HTTP verdict standing (a proxy without WebSockets: the page keeps working over HTTP).
      if (opened) this.httpOk = false;
      this._status("closed");
      if (this.closed) return;
      // 4401: the session was ended (logout everywhere, a password change) — polling would only show the
      // public spectator view; the page says so and offers to log in again.
      if (ev.code === 4401) {
        this._sessionEnded();
        return;
      }
      // 4403/4404: not allowed or no such match — retrying will not help; poll over HTTP instead.
      if (ev.code >= 4400 && ev.code < 4500) {
        this._pollOnce();
        return;
      }
      if (ev.code === TRY_AGAIN_LATER) serverUnavailable();
      this.failures += 1;
      this._scheduleReconnect();
    });
    ws.addEventListener("error", () => {
      /* close follows */
    });
  }

  /** The session has ended: stop the socket, polling and acting for good; onSessionEnded tells the page. */
  _sessionEnded() {
    if (this.ended) return;
    this.ended = true;
    this.stop();
    this.pending.clear();
    if (this.h.onSessionEnded) this.h.onSessionEnded();
  }

  _scheduleReconnect() {
    if (this.closed) return;
    const wait = this.backoff.next();
    clearTimeout(this.timer);
    // After a few failed sockets, fetch the state over HTTP so the page is not stale while we retry.
    if (this.failures >= 2) this._pollOnce();
    this.timer = setTimeout(() => this._connect(), wait);
  }

  async _pollOnce() {
    if (this.ended) return;
    try {
      const path = `/api/matches/${encodeURIComponent(this.matchId)}/state`;
      const st = await get(this.seq === null ? path : `${path}?since=${this.seq}`);
      this._httpResult(true);
      this._handle({ type: "state", ...st });
    } catch (err) {
      if (err.code === "not_authenticated") {
        this._sessionEnded();
        return;
      }
      this._httpResult(err.code !== "network" && !(err.status >= 500));
      if (this.h.onError) this.h.onError({ code: err.code, message: err.message });
    }
  }

  _httpResult(ok) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    this.httpOk = ok;
    this._status(this.ws ? "connecting" : "closed");
  }

  _send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  _handle(msg) {
    if (msg.type === "state") {
      if (this.unavailable) {
        this.unavailable = false;
        this.backoff.reset();
        serverAvailable();
      }
      if (typeof msg.seq === "number") {
        // Ignore stale states (e.g. a late HTTP response after a newer socket push).
        if (this.seq !== null && msg.seq < this.seq) return;
        // A gap (events missing between the last state and this one): ask for them; the view is current.
        const evs = Array.isArray(msg.events) ? msg.events : [];
        if (this.seq !== null && msg.seq > this.seq + 1 && !evs.some((e) => e.seq === this.seq + 1)) {
          this._send({ type: "sync", seq: this.seq });
        }
        this.seq = msg.seq;
      }
      if (this.h.onState) this.h.onState(msg);
      if (typeof msg.ack === "string") {
        this.pending.delete(msg.ack);
        if (this.h.onAck) this.h.onAck({ type: "ack", id: msg.ack, seq: msg.seq });
      }
    } else if (msg.type === "presence" || msg.type === "rematch") {
      if (typeof msg.seq === "number" && this.seq !== null && msg.seq > this.seq) this._send({ type: "sync", seq: this.seq });
      const h = msg.type === "presence" ? this.h.onPresence : this.h.onRematch;
      if (h) h(msg);
    } else if (msg.type === "chat" || msg.type === "chat_hidden") {
      if (this.h.onChat) this.h.onChat(msg); // issue 16 §5: the match chat (chat.js)
    } else if (msg.type === "ack") {
      this.pending.delete(msg.id);
      if (this.h.onAck) this.h.onAck(msg);
      // The new state normally follows the ack at once; if it does not, ask for it.
      if (typeof msg.seq === "number") {
        setTimeout(() => {
          if (this.seq !== null && this.seq < msg.seq) this._send({ type: "sync", seq: this.seq });
        }, 1500);
      }
    } else if (msg.type === "error") {
      // The server says the session has ended (a 4401 close follows): no toast, the page shows a banner.
      if (msg.code === "not_authenticated") {
        this._sessionEnded();
        return;
      }
      const mine = msg.id ? this.pending.get(msg.id) : undefined;
      if (msg.id) this.pending.delete(msg.id);
      if (this.h.onError) this.h.onError(mine ? { ...msg, action: mine.action, sentSeq: mine.seq } : msg);
      if (msg.code === "store_unavailable") {
        // The database is down for a moment; the socket stays: say so, and ask again after a wait.
        this.unavailable = true;
        serverUnavailable();
        clearTimeout(this.syncTimer);
        this.syncTimer = setTimeout(() => this.seq !== null && this._send({ type: "sync", seq: this.seq }), this.backoff.next());
        return;
      }
      // Our view may be stale (e.g. stale_seq): resync.
      if (this.seq !== null) this._send({ type: "sync", seq: this.seq });
    }
  }

  /** Send an action (one element of `legal`, verbatim, or {"kind":"resign"}). */
  async act(action) {
    if (this.ended) return null;
    const id = uuid();
    const body = { id, seq: this.seq, action };
    this.pending.set(id, { action, seq: this.seq });
    if (this._send({ type: "act", ...body })) return id;
    // No socket right now: use the HTTP endpoint, which answers with the new state.
    try {
      const st = await api("POST", `/api/matches/${encodeURIComponent(this.matchId)}/actions`, body);
      this.pending.delete(id);
      this._httpResult(true);
      if (st && typeof st === "object" && "view" in st) this._handle({ type: "state", ...st });
    } catch (err) {
      this.pending.delete(id);
      if (err.code === "not_authenticated") {
        this._sessionEnded();
        return id;
      }
      if (err.code === "network" || err.status >= 500) this._httpResult(false);
      if (this.h.onError) this.h.onError({ id, code: err.code, message: err.message, action, sentSeq: body.seq });
      this._pollOnce();
    }
    return id;
  }
}
