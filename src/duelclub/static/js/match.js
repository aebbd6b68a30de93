// Match page bootstrap, shared by every game: loads the match, picks the game's renderer module, keeps the
// live socket, the event log, the result banner, resignation and the fairness panel.
// A game module exports createRenderer(ctx) → {render(msg), describe(event) → {text, cls} | null,
// turn(msg) → {text, cls}, title(msg) → string} and optionally intro(view), actionText(action, seat) → string
// (the admins' action log), outcome(msg) → {kind, text, reason} (the result banner) and setOffline(bool).
// describe is called as Array.map's callback (event, index, batch) so it may look at its neighbours.
// With seat null and a full view it renders everything (the admins' replay).
// Every game builds its renderer on renderbase.js (the lock, the turn line's common cases, the result's head, the
// seat words): docs/renderers.md.

import { el, get, toast } from "./api.js";
import { loadGame } from "./games.js";
import { MatchLive } from "./live.js";
import { MatchBar } from "./matchbar.js";
import { rulesPart, setupRulesPanel } from "./rulespanel.js";
import { setupHandFold } from "./handfold.js";
import { LastMove } from "./lastmove.js";
import { MatchChat } from "./chat.js";
import { outcomeReason, resultFor, seatName } from "./names.js";
import { t, tn } from "./i18n.js";
import { MatchReplay } from "./replay.js";
import { MatchStanding, abortWords, forfeitWords } from "./standing.js";


const ERROR_TEXT = {
  not_your_turn: t("Сейчас ход соперника."),
  card_not_in_hand: t("Этой карты нет у вас в руке."),
  half_full: t("Ваша половина этого поля уже заполнена."),
  bad_field: t("Такого поля нет."),
  already_passed: t("Вы уже спасовали в этом сезоне."),
  in_pause: t("Сезон подсчитан — нажмите «Следующий сезон»."),
  not_in_pause: t("Следующий сезон уже начался."),
  match_over: t("Партия уже окончена."),
  malformed_action: t("Сервер не понял ход."),
  stale_seq: t("Позиция успела измениться — доска обновлена, сходите ещё раз."),
  match_not_active: t("Партия сейчас не идёт."),
  not_your_seat: t("Вы не участник этой партии."),
  match_not_found: t("Партия не найдена."),
  csrf: t("Запрос отклонён (защита от подделки). Обновите страницу."),
  stale: t("Позиция успела измениться — обновили доску."),
  not_a_player: t("Вы не участник этой партии."),
  not_authenticated: t("Войдите заново: сессия закончилась."),
  not_found: t("Партия не найдена."),
  network: t("Нет связи с сервером."),
  clock_expired: t("Время на ход вышло — за вас сходили часы."),
  clock_only: t("Этот ход делают только часы."),
  illegal_action: t("Такой ход сейчас невозможен."), // Сундук войны's one code for every illegal move
  malformed: t("Сервер не понял сообщение. Обновите страницу."),
  rate_limited: t("Слишком много сообщений подряд — подождите секунду."),
  too_large: t("Сообщение слишком длинное."),
};

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
const username = root.dataset.username;
const $ = (id) => document.getElementById(id);
const logBox = $("log");
const logStrip = $("log-strip");
const STRIP_LINES = 3;

let info = null; // GET /api/matches/{id}
let renderer = null;
let live = null;
let logged = 0; // every event with seq <= logged is in the log
let seenSeq = 0; // the newest seq of any state received
let introDone = false;
let backfilling = null;
let lastState = null;
let finishedInfoLoaded = false;
let sawActive = false; // a state of the running match was shown (its log may be redacted)
let logRebuilt = false;
let rebuilding = null;
let connStatus = "connecting";
let bar = null; // the clock, presence, claim and rematch strip (matchbar.js)
let lastMove = null; // the opponent's last action marked on the board (lastmove.js)
let standing = null; // the players' ratings, the rating change, «Отменить партию» (standing.js)
let replay = null; // the replay of an ended match (replay.js)

function errorText(err) {
  return ERROR_TEXT[err.code] || err.message || t("Ошибка.");
}

const offline = () => connStatus !== "open" && connStatus !== "http";

/** A toast, but never a second copy of one still on screen; network errors are not toasted while the page
 *  already shows «Переподключение…», nor a server that cannot serve now (its banner says so: outage.js). */
function notify(text, kind = "error", code = "") {
  if (code === "network" && offline()) return;
  if (code === "store_unavailable") return;
  const box = document.getElementById("toasts");
  if (box) {
    for (const t of box.querySelectorAll(".toast")) {
      if (!t.classList.contains("toast-out") && t.textContent === text) return;
    }
  }
  toast(text, kind);
}

function mySeat() {
  if (lastState && typeof lastState.seat === "number") return lastState.seat;
  if (info && typeof info.seat === "number") return info.seat;
  if (info && Array.isArray(info.seats)) {
    const i = info.seats.findIndex((s) => seatName(s) === username);
    if (i >= 0) return i;
  }
  return null;
}

// ---- event log ----------------------------------------------------------------------------

function logItem(d) {
  return el("li", { class: d.cls || "" }, d.text);
}

/** The compact strip near the top (narrow screens): the last few lines of the log. */
function paintStrip() {
  if (!logStrip) return;
  const items = [...logBox.children].slice(-STRIP_LINES);
  logStrip.replaceChildren(...items.map((li) => el("li", { class: li.className }, li.textContent)));
  const wrap = $("log-strip-wrap");
  if (wrap) wrap.hidden = !items.length;
}

function appendLines(lines) {
  const nearBottom = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 40;
  for (const d of lines) {
    if (d) logBox.append(logItem(d));
  }
  if (nearBottom || logBox.childElementCount < 12) logBox.scrollTop = logBox.scrollHeight;
  paintStrip();
}

function describeAll(events) {
  if (!renderer || !Array.isArray(events)) return [];
  return events.map((ev, i, batch) => renderer.describe(ev, i, batch));
}

function appendEvents(events) {
  if (!renderer || !Array.isArray(events) || !events.length) return;
  appendLines(describeAll(events));
}

/** After the end everything is public (rules/mezha.md §What each player sees): fetch the whole log again,
 *  unredacted, and write it anew (the opponent's draws and face-down cards by name). */
function rebuildLog() {
  if (rebuilding || logRebuilt) return;
  rebuilding = (async () => {
    try {
      while (backfilling) await backfilling;
      const st = await get(`/api/matches/${encodeURIComponent(matchId)}/state?since=0`);
      const lines = [];
      if (renderer.intro && st.view) lines.push(renderer.intro(st.view));
      lines.push(...describeAll(st.events || []));
      logBox.replaceChildren(...lines.filter(Boolean).map(logItem));
      logBox.scrollTop = logBox.scrollHeight;
      introDone = true;
      if (typeof st.seq === "number" && st.seq > logged) logged = st.seq;
      logRebuilt = true;
      root.dataset.logFull = "1";
      paintStrip();
    } catch (err) {
      notify(errorText(err), "error", err.code);
    } finally {
      rebuilding = null;
    }
  })();
}

/** Bring the log up to the newest seq seen: the events after `logged` are fetched over HTTP. */
function backfill() {
  if (backfilling) return;
  backfilling = (async () => {
    try {
      const st = await get(`/api/matches/${encodeURIComponent(matchId)}/state?since=${logged}`);
      if (!introDone && renderer.intro && st.view) appendLines([renderer.intro(st.view)]);
      introDone = true;
      appendEvents((st.events || []).filter((e) => !(e.seq <= logged)));
      if (typeof st.seq === "number" && st.seq > logged) logged = st.seq;
    } catch (err) {
      notify(errorText(err), "error", err.code);
      seenSeq = logged; // do not loop on a failing request; the next state retries
    } finally {
      backfilling = null;
    }
    if (seenSeq > logged) backfill();
  })();
}

/** Events carry the seq of the action that caused them; log each once, in order, with no gaps. */
function logState(msg) {
  if (typeof msg.seq !== "number") return;
  if (msg.seq > seenSeq) seenSeq = msg.seq;
  if (rebuilding) return; // the whole log is being rewritten
  if (!backfilling && introDone) {
    const fresh = (msg.events || []).filter((e) => typeof e.seq === "number" && e.seq > logged);
    if (fresh.length && fresh[0].seq === logged + 1) {
      appendEvents(fresh);
      logged = Math.max(logged, fresh[fresh.length - 1].seq, msg.seq);
    }
  }
  if (seenSeq > logged || !introDone) backfill();
}

// ---- result, fairness, resignation -------------------------------------------------------

/** A match ended before it was played, in the viewer's words ({kind, text, reason}): on a tournament board the
 *  forfeit the table counts, elsewhere the abort (standing.js); null for any other end. */
function calledOffWords(result, me) {
  const forfeit = info && info.tournament ? forfeitWords(result, me) : null;
  if (forfeit) return forfeit;
  const abort = abortWords(result, me);
  return abort ? { kind: "draw", ...abort } : null;
}

function showResult(msg) {
  const box = $("result");
  const finished = msg.status === "finished" || msg.status === "aborted";
  const result = msg.result || (msg.view && msg.view.outcome) || (msg.status === "aborted" ? {} : null);
  if (!finished || !result) {
    box.hidden = true;
    return;
  }
  const me = mySeat();
  let r;
  const calledOff = calledOffWords(result, me);
  if (calledOff) {
    r = calledOff;
  } else if (msg.status === "aborted" && (result.winner === null || result.winner === undefined)) {
    r =
      result.reason === "cancelled"
        ? { kind: "draw", text: t("Приглашение отменено"), reason: t("Игрок отменил приглашение — партия не начиналась.") }
        : result.reason === "aborted"
          ? { kind: "draw", text: t("Партия прервана администратором"), reason: t("Партию остановил администратор.") }
          : { kind: "draw", text: t("Партия прервана"), reason: "" };
  } else if (renderer && renderer.outcome && renderer.outcome(msg)) {
    // Who won and why, from the viewer's side: «Соперник выиграл два сезона (1:2)».
    const o = renderer.outcome(msg);
    r = { kind: o.kind, text: o.text, reason: outcomeReason(o, result, me) };
  } else {
    r = resultFor(result, me);
    if (result.reason === "resign" && me !== null) {
      r.reason = result.winner === me ? t("соперник сдался") : t("вы сдались");
    }
    r.reason = r.reason ? t("Причина: {reason}.", { reason: r.reason }) : "";
  }
  box.className = `result result-${r.kind}`;
  $("result-title").textContent = r.text;
  $("result-reason").textContent = r.reason;
  box.hidden = false;
}

function showFairness() {
  if (!info) return;
  $("commitment").textContent = info.commitment || "—";
  if (info.server_seed) {
    $("fair-reveal").hidden = false;
    $("fair-wait").hidden = true;
    $("server-seed").textContent = info.server_seed;
    const seeds = info.client_seeds || [];
    const a = Array.isArray(seeds) ? seeds[0] : seeds.a ?? seeds["0"];
    const b = Array.isArray(seeds) ? seeds[1] : seeds.b ?? seeds["1"];
    const empty = (i) => (info.seats?.[i]?.bot ? t("(пусто) — бот не добавляет своё зерно") : t("(пусто)"));
    $("client-seed-0").textContent = a || empty(0);
    $("client-seed-1").textContent = b || empty(1);
    $("log-link").href = `/api/matches/${encodeURIComponent(matchId)}/log`;
  }
}

async function refreshInfo() {
  try {
    info = await get(`/api/matches/${encodeURIComponent(matchId)}`);
    if (standing) standing.info(info);
    showFairness();
  } catch (err) {
    notify(errorText(err), "error", err.code);
  }
}

function setupResign() {
  const btn = $("resign");
  const dialog = el(
    "dialog",
    { class: "confirm-dialog", "aria-labelledby": "resign-q" },
    el("p", { id: "resign-q", class: "confirm-dialog__q" }, t("Сдаться? Партия достанется сопернику.")),
    el(
      "div",
      { class: "row" },
      el("button", { type: "button", class: "btn btn-danger", id: "resign-confirm" }, t("Да, сдаться")),
      el("button", { type: "button", class: "btn btn-secondary", id: "resign-cancel" }, t("Продолжить игру")),
    ),
  );
  document.body.append(dialog);
  btn.addEventListener("click", () => dialog.showModal());
  $("resign-cancel").addEventListener("click", () => dialog.close());
  $("resign-confirm").addEventListener("click", () => {
    dialog.close();
    btn.disabled = true;
    live.act({ kind: "resign" });
  });
}

// ---- state ------------------------------------------------------------------------------------

function onState(msg) {
  if (replay && replay.active && (msg.status === "finished" || msg.status === "aborted")) {
    lastState = msg; // the board shows a replay step; nothing changes in an ended match
    return;
  }
  lastState = msg;
  // Test and debugging hooks: the seq and status of the state on screen.
  root.dataset.seq = String(msg.seq);
  root.dataset.status = msg.status || "";
  const active = msg.status === "active";
  const finished = msg.status === "finished" || msg.status === "aborted";
  if (active) sawActive = true;
  renderer.render(msg);
  if (lastMove) lastMove.onState(msg, mySeat(), renderer);
  if (bar) bar.state(msg);
  if (standing) standing.state(msg);
  if (sessionEnded && $("hand-panel")) $("hand-panel").hidden = true;
  // Never dealt (a cancelled invite, an invite aborted before it was accepted): no empty board, hand or log —
  // just the result and the fairness panel.
  const undealt = !msg.view;
  $("board").hidden = undealt;
  $("side-game").hidden = undealt;
  $("log-panel").hidden = undealt;
  paintTurn();
  showResult(msg);
  logState(msg);
  if (finished && sawActive) rebuildLog();
  if (finished) document.dispatchEvent(new CustomEvent("match-ended"));
  if (finished && !finishedInfoLoaded) {
    finishedInfoLoaded = true;
    refreshInfo();
  }
  if (finished && msg.view && !replay) {
    replay = new MatchReplay({ matchId, renderer, username });
    replay.start();
  }
}

/** The top label of an aborted match: «Приглашение отменено» / «Партия прервана», not «Партия окончена». */
function abortedTurn(msg) {
  if (msg.status !== "aborted") return null;
  const reason = msg.result && msg.result.reason;
  const calledOff = calledOffWords(msg.result, mySeat());
  if (calledOff) return { text: calledOff.text, cls: "turn-over" };
  return { text: reason === "cancelled" ? t("Приглашение отменено") : t("Партия прервана"), cls: "turn-over" };
}

function paintTurn() {
  if (!lastState) return;
  const active = lastState.status === "active";
  const finished = lastState.status === "finished" || lastState.status === "aborted";
  const shown = sessionEnded
    ? { text: t("Сеанс завершён"), cls: "turn-offline" }
    : abortedTurn(lastState) || renderer.turn(lastState);
  const turn = $("turn");
  turn.textContent = shown.text;
  turn.className = `turn ${shown.cls || ""}`;
  $("resign").disabled = !active || mySeat() === null || offline();
  $("resign").hidden = finished;
}

const CONN_TEXT = {
  open: t("на связи"),
  http: t("на связи (без live-канала)"),
  connecting: t("подключение…"),
  closed: t("нет связи"),
  ended: t("сеанс завершён"),
};

function onStatus(s) {
  if (sessionEnded && s !== "ended") return;
  const was = offline();
  connStatus = s;
  const c = $("conn");
  c.className = `conn conn-${s}`;
  c.textContent = CONN_TEXT[s] || s;
  root.dataset.conn = s;
  if (renderer && renderer.setOffline) renderer.setOffline(offline());
  if (bar) bar.setOffline(offline());
  if (standing) standing.setOffline(offline());
  if (was !== offline()) paintTurn();
}

/** Errors that need no toast: the position moved on and the page resyncs anyway. Both players pressing
 *  «Следующий сезон» at once is the common case — the season started, which is what both wanted. */
function quietError(err) {
  const kind = err.action && err.action.kind;
  if (kind === "next_season" && ["stale_seq", "not_in_pause", "match_over", "match_not_active"].includes(err.code)) {
    return true;
  }
  return err.code === "stale_seq" && typeof err.sentSeq === "number" && live && live.seq !== null && live.seq > err.sentSeq;
}

function onError(err) {
  if (renderer && renderer.unlock) renderer.unlock();
  if (quietError(err)) {
    if (err.action && err.action.kind !== "next_season") notify(t("Позиция обновилась — сходите ещё раз."), "info");
    return;
  }
  if (err.code === "illegal_action") {
    // The page sends only what `legal` lists: a refusal is a defect to trace (the server logs it too).
    console.warn("refused action", { action: err.action, sentSeq: err.sentSeq, seq: live ? live.seq : null });
  }
  notify(errorText(err), "error", err.code);
}

let sessionEnded = false;

/** The server ended this socket's session (close 4401: logout everywhere, a password change). The page keeps
 *  the last position, stops acting and polling, and asks to log in again — never the spectator view. */
function onSessionEnded() {
  if (sessionEnded) return;
  sessionEnded = true;
  root.dataset.session = "ended";
  const next = location.pathname + location.search;
  const banner = el(
    "section",
    { class: "session-ended", id: "session-ended", role: "alert" },
    el(
      "div",
      {},
      el("p", { class: "session-ended__title" }, t("Сеанс завершён — войдите снова")),
      el("p", { class: "session-ended__why" }, t("Вы вышли на всех устройствах или сменили пароль; ходить с этой страницы нельзя.")),
    ),
    el("a", { class: "btn btn-primary", id: "session-login", href: `/login?next=${encodeURIComponent(next)}` }, t("Войти")),
  );
  $("result").before(banner);
  onStatus("ended");
  paintTurn();
  const hand = $("hand-panel");
  if (hand) hand.hidden = true;
  const note = $("offline-note");
  if (note) note.hidden = true;
}

async function main() {
  try {
    info = await get(`/api/matches/${encodeURIComponent(matchId)}`);
  } catch (err) {
    $("board").replaceChildren(el("p", { class: "form-error" }, errorText(err)));
    $("turn").textContent = "—";
    return;
  }
  showFairness();
  standing = new MatchStanding(matchId);
  standing.info(info);
  let catalog = null;
  let rulesPanel = null;
  try {
    const games = await get("/api/games");
    const list = Array.isArray(games) ? games : games.games || [];
    const g = list.find((x) => x.slug === info.game);
    catalog = g ? g.catalog : null;
    rulesPanel = g ? g.rules_panel : null;
    if (g && g.title) $("match-title").textContent = g.title;
  } catch (_err) {
    /* the renderer copes without names */
  }
  const mod = await loadGame(info.game);
  if (!mod) {
    $("board").replaceChildren(el("p", { class: "form-error" }, t("Игра «{game}» пока не поддерживается.", { game: info.game })));
    return;
  }
  bar = new MatchBar(matchId, { botSeats: [0, 1].map((i) => Boolean(info.seats?.[i]?.bot)), inTournament: Boolean(info.tournament) });
  lastMove = new LastMove(matchId, root);
  const chat = new MatchChat(matchId, $("log-panel"), username);
  live = new MatchLive(matchId, {
    onState,
    onStatus,
    onError,
    onSessionEnded,
    onPresence: (msg) => bar.presence(msg),
    onRematch: (msg) => bar.rematch(msg),
    onChat: (msg) => chat.onSocket(msg),
  });
  renderer = mod.createRenderer({
    root: $("board"),
    side: $("side-game"),
    infoBar: $("match-info"),
    info,
    catalog,
    username,
    act: (action) => live.act(action),
  });
  setupResign();
  setupHandFold($("board"));
  setupRulesPanel($("rules-btn"), info.game, () => rulesPart(rulesPanel, lastState && lastState.view));
  live.start();
}

main();
