// Lobby, live part (issue 6): the open challenge table («Таблица заявок»), matchmaking («Найти соперника»)
// and the matches anyone may watch. Generic over the games: the options come from the selected tab's form
// (lobby.js currentChoice), the words from the server (options_text).
// The lobby socket /ws/lobby pushes {"type":"challenges", seq, items}, {"type":"queue", seq, queue} and
// {"type":"match", seq, id, why} (a match of mine has started: go to it). It reconnects with backoff (outage.js
// Backoff: exponential, jittered, capped); while it is down the table is polled over HTTP — except after a close
// with 1013 (the server's database is down, issue 31 §2): then the page shows «Нет связи с сервером, пробуем
// снова…» and only the backed-off reconnects ask again. Closing the page closes the socket, which leaves the queue.
import { clientSeed, del, el, get, post, toast } from "./api.js";
import { Backoff, TRY_AGAIN_LATER, serverAvailable, serverUnavailable } from "./outage.js";
import { currentChoice } from "./lobby.js";
import { gameTitle } from "./gamesinfo.js";
import { t } from "./i18n.js";
import { moveTimeText as clockText } from "./movetime.js";
import { memberLink, ratingText } from "./rating.js";

const rows = document.getElementById("challenge-rows");
const liveList = document.getElementById("live-matches");
const publishBtn = document.getElementById("publish-challenge");
const findBtn = document.getElementById("find-opponent");
const queueBox = document.getElementById("queue-box");
const queueStatus = document.getElementById("queue-status");
const leaveBtn = document.getElementById("leave-queue");
const conn = document.getElementById("lobby-conn");

let goingTo = null;

/** Go to a match of mine once: the socket's «match» and «queue: matched» notices both ask for it, and a
 *  second location.assign aborts the first navigation. */
function goTo(matchId) {
  if (goingTo === matchId) return;
  goingTo = matchId;
  location.assign(`/matches/${encodeURIComponent(matchId)}`);
}

// ---- the challenge table -------------------------------------------------------------------

function challengeRow(c) {
  let action;
  if (c.mine) {
    action = el("button", { type: "button", class: "btn btn-ghost btn-small", dataset: { cancelChallenge: c.id } }, t("Отменить"));
    action.addEventListener("click", async () => {
      action.disabled = true;
      try {
        await del(`/api/challenges/${encodeURIComponent(c.id)}`);
        toast(t("Заявка снята."), "info");
      } catch (err) {
        toast(err.message);
      }
      document.dispatchEvent(new CustomEvent("lobby:matches-changed"));
    });
  } else {
    action = el("button", { type: "button", class: "btn btn-primary btn-small", dataset: { accept: c.id } }, t("Принять"));
    action.addEventListener("click", async () => {
      action.disabled = true;
      try {
        const m = await post(`/api/challenges/${encodeURIComponent(c.id)}/accept`, { client_seed: clientSeed() });
        goTo(m.id);
      } catch (err) {
        action.disabled = false;
        toast(err.code === "challenge_taken" ? t("Эту заявку уже принял другой игрок.") : err.message);
      }
    });
  }
  const hash = el("code", { class: "hash hash-short", title: c.commitment }, `${c.commitment.slice(0, 12)}…`);
  const kind = c.rated
    ? el("span", { class: "rated-note rated-note--rated" }, t("рейтинговая"))
    : c.author_rating
      ? el("span", { class: "rated-note" }, t("товарищеская"))
      : null;
  return el(
    "tr",
    { dataset: { challenge: c.id, game: c.game, rated: c.rated ? "1" : "0" } },
    cell(t("Игра"), {}, gameTitle(c.game)),
    cell(t("Автор"), {}, memberLink(c.author, c.author_rating), c.mine ? el("span", { class: "muted small" }, t(" (вы)")) : null),
    cell(t("Условия"), { class: "small" }, kind, kind && c.options_text ? " " : null, c.options_text || (kind ? "" : "—")),
    cell(t("Время на ход"), { class: "clock-cell" }, clockText(c.move_seconds)),
    cell(t("Хеш раздачи"), {}, hash),
    el("td", { class: "action-cell" }, action),
  );
}

/** A cell of the table with its column's name (`data-label`: a phone stacks the row as labelled lines) and
 *  its content in one span, so that the stacked layout's grid sees a label and one value. */
function cell(label, attrs, ...content) {
  return el("td", { ...attrs, dataset: { label } }, el("span", {}, ...content));
}

function showTable(items) {
  if (!Array.isArray(items) || !items.length) {
    rows.replaceChildren(el("tr", { class: "empty" }, el("td", { colspan: "6" }, t("Открытых заявок нет — опубликуйте свою."))));
    return;
  }
  rows.replaceChildren(...items.map(challengeRow));
}

publishBtn.addEventListener("click", async () => {
  const { game, options, moveSeconds, rated } = currentChoice();
  publishBtn.disabled = true;
  try {
    await post("/api/challenges", { game, options, move_seconds: moveSeconds, rated, client_seed: clientSeed() });
    toast(t("Заявка опубликована — ждём, кто её примет."), "info");
    document.dispatchEvent(new CustomEvent("lobby:matches-changed"));
    if (!socketUp) refreshTable();
  } catch (err) {
    toast(err.message);
  } finally {
    publishBtn.disabled = false;
  }
});

async function refreshTable() {
  try {
    showTable(await get("/api/challenges"));
  } catch (_err) {
    /* the socket or the next poll retries */
  }
}

// ---- matchmaking -------------------------------------------------------------------------------

let queueTimer = null;

function showQueue(q) {
  const waiting = q && q.status === "waiting";
  queueBox.hidden = !waiting;
  findBtn.disabled = waiting;
  if (waiting) {
    const title = gameTitle(q.game);
    let text = t("Ищем соперника: {game}, {clock} на ход…", { game: title, clock: clockText(q.move_seconds) });
    // Rated seekers: the window of ratings accepted now; it widens while one waits (re-read every 5 s).
    if (q.rated && q.rating && typeof q.window === "number") {
      text += " " + t("Рейтинговая: ваш рейтинг {rating}, соперник ±{window}.", { rating: ratingText(q.rating), window: q.window });
    }
    queueStatus.textContent = text;
    queueBox.dataset.window = typeof q.window === "number" ? String(q.window) : "";
  }
  clearTimeout(queueTimer);
  if (waiting && q.rated) queueTimer = setTimeout(() => get("/api/queue").then(showQueue, () => {}), 5000);
  if (q && q.status === "matched" && q.match_id) goTo(q.match_id);
}

findBtn.addEventListener("click", async () => {
  const { game, options, moveSeconds, rated } = currentChoice();
  findBtn.disabled = true;
  try {
    showQueue(await post("/api/queue", { game, options, move_seconds: moveSeconds, rated, client_seed: clientSeed() }));
  } catch (err) {
    findBtn.disabled = false;
    toast(err.message);
  }
});

leaveBtn.addEventListener("click", async () => {
  try {
    showQueue(await del("/api/queue"));
  } catch (err) {
    toast(err.message);
  }
});

// ---- matches to watch --------------------------------------------------------------------------

async function refreshLive() {
  try {
    const items = await get("/api/matches/live");
    liveList.replaceChildren(
      ...(items.length
        ? items.map((m) =>
            el(
              "li",
              { dataset: { live: m.id } },
              el(
                "div",
                { class: "match-list__main" },
                el(
                  "span",
                  { class: "match-list__title" },
                  `${gameTitle(m.game)} · `,
                  memberLink(m.players[0], (m.ratings || [])[0]),
                  " — ",
                  memberLink(m.players[1], (m.ratings || [])[1]),
                ),
                el(
                  "span",
                  { class: "match-list__meta" },
                  [m.rated ? t("рейтинговая") : "", m.options_text, m.move_seconds ? t("{clock} на ход", { clock: clockText(m.move_seconds) }) : ""].filter(Boolean).join(" · "),
                ),
              ),
              el("a", { class: "btn btn-ghost btn-small", href: `/matches/${encodeURIComponent(m.id)}` }, t("Смотреть")),
            ),
          )
        : [el("li", { class: "empty" }, t("Сейчас никто не играет."))]),
    );
  } catch (_err) {
    /* keep the old list */
  }
}

// ---- the lobby socket ----------------------------------------------------------------------------

let socketUp = false;
const backoff = new Backoff({ base: 500, cap: 8000 });
let pollTimer = null;

function setConn(up) {
  socketUp = up;
  conn.className = `conn small conn-${up ? "open" : "connecting"}`;
  conn.textContent = up ? t("обновляется сама") : t("переподключение…");
  document.getElementById("challenges-panel").dataset.live = up ? "1" : "0";
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try {
    ws = new WebSocket(`${proto}//${location.host}/ws/lobby`);
  } catch (_err) {
    setTimeout(connect, backoff.next());
    return;
  }
  ws.addEventListener("open", () => {
    backoff.reset();
    serverAvailable();
    setConn(true);
    clearInterval(pollTimer);
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (_err) {
      return;
    }
    if (msg.type === "challenges") {
      showTable(msg.items);
      refreshLive();
    } else if (msg.type === "queue") showQueue(msg.queue);
    else if (msg.type === "match" && msg.id) goTo(msg.id);
    else if (msg.type === "tournament") window.dispatchEvent(new CustomEvent("duelclub:tournament", { detail: msg.id }));
  });
  ws.addEventListener("close", (ev) => {
    setConn(false);
    clearInterval(pollTimer);
    if (ev.code === TRY_AGAIN_LATER) serverUnavailable();
    else {
      pollTimer = setInterval(() => {
        refreshTable();
        get("/api/queue").then(showQueue, () => {});
      }, 3000);
    }
    setTimeout(connect, backoff.next());
  });
}

refreshLive();
setInterval(refreshLive, 15000);
connect();
