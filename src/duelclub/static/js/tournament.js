// /tournaments/{id}: the tournament page (issue 26 §Pages). Draws GET /api/tournaments/{id} — rules in plain
// words, standings, crosstable, rounds with their matches (live or replay, with each deal's commitment and,
// once ended, its seed), players — and its buttons (join, leave, withdraw; organiser: enter a bot of a chosen
// level, start, pause, resume, cancel; withdraw and cancel ask first). Re-read when the lobby socket says this
// tournament changed, at most once per PAGE_WAIT_MS (coalesce.js); «Ваша партия готова» when a match of the
// viewer starts. The start time, or an arena's end with a live countdown, in the reader's local time.
// Refusals in the page language (tournament_errors.js). Test hooks: #tournament[data-status][data-round],
// #tournament-ready, #tournament-when, #tournament-countdown; an arena's games #arena-games, #arena-older.
import { el, get, post, toast } from "./api.js";
import { PAGE_WAIT_MS, coalesce } from "./coalesce.js";
import { gameTitle } from "./gamesinfo.js";
import { LANG, t } from "./i18n.js";
import { moveTimeText } from "./movetime.js";
import { seatName } from "./names.js";
import { refusalText } from "./tournament_errors.js";
import { arenaGames, olderGamesText } from "./tournament_games.js";
import { followLobby } from "./tournament_list.js";
import {
  byeText,
  cancelledText,
  clockText,
  crosstableLegend,
  crosstableRows,
  formatName,
  localTime,
  points,
  resultText,
  roundsCutText,
  roundsWarningText,
  rulesText,
  standingsLegend,
  statusName,
  tournamentTitle,
  waitingText,
} from "./tournament_words.js";

const root = document.getElementById("tournament");
const id = root.dataset.id;
const isAdmin = root.dataset.admin === "1";
const $ = (name) => document.getElementById(name);
let current = null;
let ticker = null;
const dialogs = new Map(); // action → its confirmation <dialog>, made on first use

const who = (name) => (name && name.startsWith("bot:") ? seatName({ bot: name.slice(4) }) : name || "—");

function memberLink(name) {
  if (!name || name.startsWith("bot:")) return el("span", {}, who(name));
  return el("a", { class: "member-link", href: `/members/${encodeURIComponent(name)}` }, name);
}

function refusalContext(action) {
  const tr = current || { players: [] };
  return { action, players: tr.players.length, rounds: tr.planned_rounds, maxPlayers: tr.max_players, startsAt: tr.starts_at };
}

/** The actions whose request is under way: their button stays locked until the answer (a double tap on
 * «Участвовать» or «Начать турнир» sent the request twice, and the second one answered 409). */
const busy = new Set();

function lock(action, on) {
  const btn = $(`tournament-${action}`);
  if (!btn) return;
  btn.disabled = on;
  btn.setAttribute("aria-busy", on ? "true" : "false");
}

async function act(action, body = {}) {
  if (busy.has(action)) return;
  busy.add(action);
  lock(action, true);
  try {
    draw(await post(`/api/tournaments/${encodeURIComponent(id)}/${action}`, body));
  } catch (err) {
    toast(refusalText(err, refusalContext(action)));
  } finally {
    busy.delete(action);
    lock(action, false);
  }
}

function button(label, action, extra = {}) {
  const kind = extra.primary ? "btn-primary" : extra.danger ? "btn-danger" : "btn-ghost";
  const onclick = extra.confirm ? () => confirmThen(action) : () => act(action);
  // a redraw while the request runs (a lobby event) keeps the new button locked too
  const locked = busy.has(action) || undefined;
  return el("button", { type: "button", class: `btn ${kind}`, id: `tournament-${action}`, onclick, disabled: locked, "aria-busy": locked && "true" }, label);
}

/** What the confirmation of an action says: its question, the consequence, and the two buttons. */
const CONFIRM = {
  cancel: {
    q: t("Отменить турнир?"),
    why: t("Итогов не будет, а идущие партии турнира прервутся. Вернуть турнир нельзя."),
    yes: t("Да, отменить турнир"),
    keep: t("Не отменять"),
  },
  withdraw: {
    q: t("Выбыть из турнира?"),
    why: t("Идущая партия турнира будет проиграна, а оставшиеся — засчитаны соперникам. Вернуться в турнир нельзя."),
    yes: t("Да, выбыть"),
    keep: t("Остаться"),
  },
};

/** «Отменить турнир» and «Выбыть из турнира» ask first, in a dialog with big buttons (as «Сдаться» does;
 *  never window.confirm): #tournament-<action>-dialog, -confirm, -keep. */
function confirmThen(action) {
  let dialog = dialogs.get(action);
  if (!dialog) {
    const words = CONFIRM[action];
    const yes = () => {
      dialog.close();
      act(action);
    };
    dialog = el(
      "dialog",
      { class: "confirm-dialog", id: `tournament-${action}-dialog`, "aria-labelledby": `tournament-${action}-q` },
      el("p", { id: `tournament-${action}-q`, class: "confirm-dialog__q" }, words.q),
      el("p", {}, words.why),
      el(
        "div",
        { class: "row" },
        el("button", { type: "button", class: "btn btn-danger", id: `tournament-${action}-confirm`, onclick: yes }, words.yes),
        el("button", { type: "button", class: "btn btn-secondary", id: `tournament-${action}-keep`, onclick: () => dialog.close() }, words.keep),
      ),
    );
    document.body.append(dialog);
    dialogs.set(action, dialog);
  }
  dialog.showModal();
}

function actions(tr) {
  const you = tr.you;
  const manage = you.organiser || isAdmin;
  const out = [];
  if (tr.status === "open") {
    out.push(you.joined ? button(t("Выйти из турнира"), "leave") : button(t("Участвовать"), "join", { primary: true }));
    if (manage) out.push(button(t("Начать турнир"), "start", { primary: you.joined }));
  }
  if ((tr.status === "running" || tr.status === "paused") && you.joined && !you.withdrawn) {
    out.push(button(t("Выбыть из турнира"), "withdraw", { confirm: true }));
  }
  if (manage && tr.status === "running") out.push(button(t("Пауза"), "pause"));
  if (manage && tr.status === "paused") out.push(button(t("Продолжить"), "resume", { primary: true }));
  if (manage && ["open", "running", "paused"].includes(tr.status)) out.push(button(t("Отменить турнир"), "cancel", { confirm: true, danger: true }));
  const bots = $("tournament-bot");
  if (bots) bots.hidden = !(manage && tr.status === "open");
  return out;
}

function facts(tr) {
  const clock = tr.move_seconds ? t("{clock} на ход", { clock: moveTimeText(tr.move_seconds) }) : t("без часов");
  const deadline = tr.round_minutes ? t("{n} мин на тур", { n: tr.round_minutes }) : "";
  const rated = tr.rated ? t("рейтинговый") : t("без рейтинга");
  const organiser = tr.organiser ? t("организатор {name}", { name: tr.organiser }) : "";
  const count = t("{n} из {max} участников", { n: tr.players.length, max: tr.max_players });
  // the game options as the server words them for the reader (a third party's words: «Дом Горна у игрока 1»)
  return [gameTitle(tr.game), formatName(tr.format), tr.options_text, clock, deadline, rated, count, organiser].filter(Boolean).join(" · ");
}

/** When it starts (open), or an arena's end and time left (running, paused), or when it ended. */
function when(tr) {
  const box = $("tournament-when");
  const at = (iso) => localTime(iso, LANG);
  let text = "";
  let ends = null;
  if (tr.status === "open") {
    text = tr.starts_at ? t("Начало: {time}", { time: at(tr.starts_at) }) : t("Начало — по кнопке организатора");
  } else if (tr.format === "arena" && tr.ends_at && (tr.status === "running" || tr.status === "paused")) {
    ends = new Date(tr.ends_at).getTime();
    text = t("Конец арены: {time}", { time: at(tr.ends_at) });
  } else if (tr.status === "running" || tr.status === "paused") {
    text = tr.started_at ? t("Начался: {time}", { time: at(tr.started_at) }) : "";
  } else if (tr.finished_at) {
    text = tr.status === "cancelled" ? t("Отменён: {time}", { time: at(tr.finished_at) }) : t("Закончился: {time}", { time: at(tr.finished_at) });
  }
  const countdown = ends === null ? null : el("b", { id: "tournament-countdown", class: "tournament-countdown" });
  box.replaceChildren(text, countdown ? " · " : "", countdown || "");
  box.hidden = !text;
  if (ticker) clearInterval(ticker);
  ticker = null;
  if (countdown) {
    const tick = () => {
      const left = ends - Date.now();
      countdown.textContent = left > 0 ? t("осталось {time}", { time: clockText(left) }) : t("время вышло — начатые партии доигрываются");
      countdown.dataset.left = String(Math.max(0, Math.ceil(left / 1000)));
      if (left <= 0 && ticker) clearInterval(ticker);
    };
    tick();
    ticker = setInterval(tick, 1000);
  }
}

function notes(tr) {
  const box = $("tournament-note");
  const text = roundsCutText(tr) || roundsWarningText(tr) || cancelledText(tr);
  box.textContent = text;
  box.hidden = !text;
}

function standings(tr) {
  const arenaFormat = tr.format === "arena";
  $("standings").querySelector("thead").replaceChildren(
    el(
      "tr",
      {},
      el("th", { scope: "col", class: "rank" }, "#"),
      el("th", { scope: "col" }, t("Игрок")),
      el("th", { scope: "col", class: "num" }, t("Очки")),
      el("th", { scope: "col", class: "num hide-narrow" }, arenaFormat ? t("Партии") : t("Бергер")),
      el("th", { scope: "col", class: "num", title: t("Партии, сыгранные за доской: без неявок и пропусков тура") }, t("Сыграно")),
      el("th", { scope: "col", class: "num" }, t("Побед")),
    ),
  );
  const me = root.dataset.username;
  const arena = tr.arena || {};
  const sheet = (name) => (arena[name] ? arena[name].sheet.join(" ") : "");
  $("standings").querySelector("tbody").replaceChildren(
    ...tr.standings.map((s) =>
      el(
        "tr",
        { class: s.username === me ? "is-me" : "", dataset: { username: s.username } },
        el("td", { class: "rank" }, String(s.rank)),
        el("td", {}, memberLink(s.username), s.withdrawn ? el("span", { class: "muted small" }, " " + t("выбыл(а)")) : null, arena[s.username] && arena[s.username].streak ? " 🔥" : null),
        el("td", { class: "num" }, el("b", {}, points(s.points))),
        el("td", { class: "num hide-narrow muted" }, arenaFormat ? sheet(s.username) : points(s.tiebreak)),
        el("td", { class: "num played" }, String(s.played)),
        el("td", { class: "num" }, String(s.wins)),
      ),
    ),
  );
  const legend = standingsLegend(tr);
  $("standings-legend").textContent = legend;
  $("standings-legend").hidden = !legend;
}

function crosstable(tr) {
  const panel = $("crosstable-panel");
  panel.hidden = tr.format === "arena" || !tr.crosstable || !tr.crosstable.length;
  if (panel.hidden) return;
  const rows = crosstableRows(tr);
  const byes = rows.some((r) => r.byes);
  const head = [
    el("th", { scope: "col" }, t("Игрок")),
    ...rows.map((r) => el("th", { scope: "col", class: "num" }, String(r.place))),
    byes ? el("th", { scope: "col", class: "num" }, t("Отдых")) : null,
  ];
  const row = (r) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, `${r.place}. ${who(r.username)}`),
      ...r.cells.map((c) => el("td", { class: "num" }, c)),
      byes ? el("td", { class: "num" }, r.byes) : null,
    );
  $("crosstable").replaceChildren(el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows.map(row)));
  $("crosstable-legend").textContent = crosstableLegend();
}

function pairing(p) {
  const bye = p.seats[1] === null;
  const seats = bye
    ? el("span", { class: "tournament-bye" }, memberLink(p.seats[0]), " ", el("span", { class: "muted" }, byeText()))
    : el("span", {}, memberLink(p.seats[0]), " — ", memberLink(p.seats[1]));
  // a forfeit has no moves to replay: its page says why it was scored so
  const linkText = !p.result ? t("смотреть") : p.forfeit ? t("подробнее") : t("повтор");
  const link = p.match_id ? el("a", { href: `/matches/${encodeURIComponent(p.match_id)}`, class: "tournament-match" }, linkText) : null;
  const fair = p.commitment ? el("code", { class: "hash small", title: t("Хеш раздачи") }, p.commitment.slice(0, 12)) : null;
  const seed = p.server_seed ? el("code", { class: "hash small", title: t("Зерно сервера") }, p.server_seed.slice(0, 12)) : null;
  // the deal's commitment and, once ended, its seed stay on one line (a phone split them around the arrow)
  const hashes = fair ? el("span", { class: "tournament-hashes" }, fair, seed ? " → " : null, seed) : null;
  return el("li", { dataset: { match: p.match_id || "" } }, seats, " ", el("b", { class: "tournament-result" }, resultText(p)), " ", link, " ", hashes);
}

/** Whether the reader opened the arena's fold of older games (kept across redraws). */
let olderOpen = false;

/** An arena's games: one list, most recent first, the newest ARENA_SHOWN in view and the rest in a fold
 * («Ещё N партий») whose rows are drawn only while it is open (a long arena has hundreds). */
function arenaList(tr) {
  const { recent, older } = arenaGames(tr.rounds);
  const list = el("ul", { class: "match-list", id: "arena-games" }, ...recent.map(pairing));
  if (!older.length) return [list];
  const rows = el("ul", { class: "match-list", id: "arena-older-games" });
  const fill = () => rows.replaceChildren(...(olderOpen ? older.map(pairing) : []));
  const fold = el("details", { class: "tournament-older", id: "arena-older", open: olderOpen }, el("summary", {}, olderGamesText(older.length)), rows);
  fold.addEventListener("toggle", () => {
    olderOpen = fold.open;
    fill();
  });
  fill();
  return [list, fold];
}

function rounds(tr) {
  const box = $("tournament-rounds");
  if (!tr.rounds.length) {
    box.replaceChildren(el("p", { class: "muted" }, tr.status === "open" ? t("Пары появятся, когда турнир начнётся.") : t("Пар ещё нет.")));
    return;
  }
  if (tr.format === "arena") {
    box.replaceChildren(...arenaList(tr));
    return;
  }
  box.replaceChildren(
    ...[...tr.rounds].reverse().map((r) =>
      el("div", { class: "tournament-round", dataset: { round: String(r.number) } }, el("h3", { class: "small" }, t("Тур {n}", { n: r.number })), el("ul", { class: "match-list" }, ...r.pairings.map(pairing))),
    ),
  );
}

function players(tr) {
  $("tournament-players").replaceChildren(...tr.players.map((p) => el("li", {}, memberLink(p.username), p.withdrawn ? el("span", { class: "muted small" }, " " + t("выбыл(а)")) : null)));
}

function ready(tr) {
  const waiting = $("tournament-waiting");
  waiting.textContent = waitingText(tr);
  waiting.hidden = !waiting.textContent;
  const box = $("tournament-ready");
  const mid = tr.you.match_id;
  box.hidden = !mid;
  if (mid) box.replaceChildren(el("b", {}, t("Ваша партия готова: ")), el("a", { href: `/matches/${encodeURIComponent(mid)}`, class: "btn btn-primary btn-small", id: "tournament-play" }, t("Играть")));
}

function draw(tr) {
  current = tr;
  const title = tournamentTitle(tr, gameTitle(tr.game));
  $("tournament-name").textContent = title;
  document.title = title + " — " + t("Дуэль-клуб");
  $("tournament-facts").textContent = facts(tr);
  const started = tr.status !== "open" && tr.format !== "arena" && tr.total_rounds;
  const round = started ? " · " + t("тур {n} из {total}", { n: tr.current_round, total: tr.total_rounds }) : "";
  $("tournament-status").textContent = `${statusName(tr.status)}${round}`;
  $("tournament-rules").textContent = rulesText(tr);
  $("tournament-actions").replaceChildren(...actions(tr));
  when(tr);
  notes(tr);
  standings(tr);
  crosstable(tr);
  rounds(tr);
  players(tr);
  ready(tr);
  root.dataset.status = tr.status;
  root.dataset.round = String(tr.current_round);
  root.dataset.loaded = "1";
}

async function refresh() {
  try {
    draw(await get(`/api/tournaments/${encodeURIComponent(id)}`));
  } catch (err) {
    if (!current) $("tournament-status").textContent = refusalText(err, { action: "read" });
  }
}

const bots = $("tournament-bot");
if (bots) {
  bots.addEventListener("submit", (ev) => {
    ev.preventDefault();
    act("bots", { level: bots.elements.level.value });
  });
}

const changed = coalesce(refresh, PAGE_WAIT_MS);
changed();
followLobby(
  (tournamentId) => {
    if (tournamentId === id) changed();
  },
  (msg) => {
    if (msg.why === "tournament") changed();
  },
);
