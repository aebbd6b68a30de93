// One match for admins (/admin/matches/{id}): audit data, seats, status and times from GET /api/matches/{id}
// (the server seed only once the match has ended — the API never sends it earlier); for an ended match the full
// action log (GET /api/admin/matches/{id}/log) and a step-by-step replay with everything visible
// (GET /api/admin/matches/{id}/replay?seq=N) drawn by the game's renderer as a spectator with the full view;
// «Прервать матч» for open and active matches (POST /api/admin/matches/{id}/abort).
// Test hooks: #admin-match[data-ready] once loaded, [data-seq] the replay step on screen.

import { el, get, post, toast } from "./api.js";
import { loadGame } from "./games.js";
import { gameTitle } from "./gamesinfo.js";
import { STATUS_NAMES, formatTime, resultText, seatName } from "./names.js";
import { t, tn } from "./i18n.js";

const SOURCES = { player: t("игрок"), bot: t("бот"), clock: t("часы (время вышло)") };
const ENDED = new Set(["finished", "aborted"]);
const LIVE = new Set(["open", "active"]);

const $ = (id) => document.getElementById(id);
const root = $("admin-match");
const matchId = root.dataset.matchId;
const enc = encodeURIComponent(matchId);

let info = null;
let catalog = null;
let renderer = null;
const steps = new Map(); // seq → ReplayStep
let showing = 0; // the latest requested step wins

const pairs = (rows) => rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]);
const code = (text) => el("code", { class: "hash" }, text);
const seatLabel = (s) => t("Игрок {n} — {name}", { n: s + 1, name: seatName(info.seats[s]) });

// ---- audit and facts --------------------------------------------------------------------------

function showHeader() {
  $("am-title").textContent = t("{game}: партия {id}", { game: gameTitle(info.game), id: info.id });
  const badge = $("am-status");
  badge.textContent = STATUS_NAMES[info.status] || info.status;
  badge.className = `badge badge-status-${info.status}`;
}

function showAudit() {
  const seeds = info.client_seeds || {};
  const ended = ENDED.has(info.status);
  const seed = (s) => (s ? code(s) : el("span", { class: "muted" }, t("(пусто)")));
  $("audit").replaceChildren(
    ...pairs([
      [t("Схема"), "duelclub/v1"],
      [t("Хеш раздачи C"), code(info.commitment)],
      [t("Зерно игрока 1 (a)"), seed(seeds.a)],
      [t("Зерно игрока 2 (b)"), seed(seeds.b)],
      [
        t("Секрет сервера S"),
        ended && info.server_seed
          ? el("code", { class: "hash", id: "server-seed" }, info.server_seed)
          : el("span", { class: "muted", id: "server-seed-hidden" }, t("скрыт до конца партии")),
      ],
    ]),
  );
  $("audit-note").textContent = ended
    ? (info.status === "aborted" ? t("Партия прервана: секрет сервера раскрыт, раздачу и все ходы можно проверить.") : t("Партия окончена: секрет сервера раскрыт, раздачу и все ходы можно проверить."))
    : t("Секрет сервера не показывается, пока партия не закончилась, — даже администраторам.");
  if (ended) {
    $("log-json").href = `/api/admin/matches/${enc}/log`;
    $("log-json").hidden = false;
    $("analysis-link").hidden = info.status === "aborted"; // the match page's «Анализ партии» (issue 17 §4)
  }
}

function showFacts() {
  const seat = (s) => seatName(info.seats[s]);
  $("facts").replaceChildren(
    ...pairs([
      [t("Статус"), STATUS_NAMES[info.status] || info.status],
      [t("Игрок 1 (место 0)"), seat(0)],
      [t("Игрок 2 (место 1)"), seat(1)],
      [t("Итог"), resultText(info.result, info.seats)],
      [t("Действий"), String(info.seq)],
      [t("Создана"), formatTime(info.created_at)],
      [t("Началась"), formatTime(info.started_at)],
      [t("Окончена"), formatTime(info.finished_at)],
      [t("Настройки"), info.options_text || t("по умолчанию")],
    ]),
  );
}

function setupAbort() {
  const btn = $("abort");
  btn.hidden = !LIVE.has(info.status);
  if (btn.hidden) return;
  const dialog = el(
    "dialog",
    { class: "confirm-dialog", "aria-labelledby": "abort-q" },
    el("p", { id: "abort-q", class: "confirm-dialog__q" }, t("Прервать партию? Победителя не будет, секрет сервера раскроется.")),
    el(
      "div",
      { class: "row" },
      el("button", { type: "button", class: "btn btn-danger", id: "abort-confirm" }, t("Да, прервать")),
      el("button", { type: "button", class: "btn btn-secondary", id: "abort-cancel" }, t("Отмена")),
    ),
  );
  document.body.append(dialog);
  btn.addEventListener("click", () => dialog.showModal());
  $("abort-cancel").addEventListener("click", () => dialog.close());
  $("abort-confirm").addEventListener("click", async () => {
    dialog.close();
    btn.disabled = true;
    try {
      await post(`/api/admin/matches/${enc}/abort`, {});
      toast(t("Партия прервана."), "info");
      location.reload();
    } catch (err) {
      btn.disabled = false;
      toast(err.message);
    }
  });
}

// ---- the action log ---------------------------------------------------------------------------

function actionWords(a) {
  const text = renderer && renderer.actionText ? renderer.actionText(a.action, a.seat) : null;
  return text || JSON.stringify(a.action);
}

function showActions(log) {
  $("actions-panel").hidden = false;
  const body = document.querySelector("#actions tbody");
  if (!log.actions.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: "5", class: "empty" }, t("Ходов не было."))));
    return;
  }
  body.replaceChildren(
    ...log.actions.map((a) =>
      el(
        "tr",
        { dataset: { seq: String(a.seq) } },
        el("td", {}, log.initial ? el("button", { type: "button", class: "link-button", onclick: () => show(a.seq) }, String(a.seq)) : String(a.seq)),
        el("td", {}, seatLabel(a.seat)),
        el("td", {}, SOURCES[a.source] || a.source),
        el("td", {}, formatTime(a.created_at)),
        el("td", {}, actionWords(a)),
      ),
    ),
  );
}

// ---- the replay -------------------------------------------------------------------------------

// What only the full view shows (a deck's order, omens to come), as the game's renderer words it.
function paintSecrets(view) {
  const box = $("secrets");
  const secrets = renderer && renderer.secrets ? renderer.secrets(view) : null;
  box.closest("section").hidden = !secrets;
  if (!secrets) return;
  $("secrets-title").textContent = secrets.title;
  box.replaceChildren(...pairs(secrets.rows));
}

function paintStep(step) {
  if (renderer) {
    renderer.render({ seat: null, view: step.view, legal: [], status: info.status });
  } else {
    $("board").replaceChildren(el("pre", { class: "json-view" }, JSON.stringify(step.view, null, 2)));
  }
  $("replay-action").textContent = step.action
    ? t("Действие {n} ({source}): {action}", { n: step.seq, source: SOURCES[step.action.source] || step.action.source, action: actionWords(step.action) })
    : t("Начальная раздача, до первого действия.");
  const lines = renderer ? step.events.map((ev, i, all) => renderer.describe(ev, i, all)).filter(Boolean) : [];
  $("replay-events").replaceChildren(...lines.map((d) => el("li", { class: d.cls || "" }, d.text)));
  paintSecrets(step.view);
  for (const tr of document.querySelectorAll("#actions tbody tr")) {
    tr.classList.toggle("is-current", tr.dataset.seq === String(step.seq));
  }
}

async function show(seq) {
  const last = Number($("replay-seq").max);
  const n = Math.max(0, Math.min(last, Number(seq) || 0));
  const token = ++showing;
  $("replay-seq").value = String(n);
  $("replay-pos").textContent = t("Шаг {n} из {last}", { n, last });
  $("replay-prev").disabled = $("replay-first").disabled = n <= 0;
  $("replay-next").disabled = $("replay-last").disabled = n >= last;
  try {
    let step = steps.get(n);
    if (!step) {
      step = await get(`/api/admin/matches/${enc}/replay?seq=${n}`);
      steps.set(n, step);
    }
    if (token !== showing) return;
    paintStep(step);
    root.dataset.seq = String(n);
  } catch (err) {
    if (token === showing) toast(err.message);
  }
}

function setupReplay(log) {
  $("replay").hidden = false;
  const slider = $("replay-seq");
  slider.max = String(log.actions.length);
  const at = () => Number(slider.value);
  $("replay-first").addEventListener("click", () => show(0));
  $("replay-prev").addEventListener("click", () => show(at() - 1));
  $("replay-next").addEventListener("click", () => show(at() + 1));
  $("replay-last").addEventListener("click", () => show(log.actions.length));
  slider.addEventListener("input", () => show(at()));
  return show(0);
}

// ---- start ------------------------------------------------------------------------------------

async function loadRenderer() {
  try {
    const games = await get("/api/games");
    const g = (Array.isArray(games) ? games : []).find((x) => x.slug === info.game);
    catalog = g ? g.catalog : null;
  } catch (_err) {
    /* names fall back to ids */
  }
  const mod = await loadGame(info.game);
  if (!mod) return null;
  return mod.createRenderer({
    root: $("board"),
    side: $("side-game"),
    infoBar: $("match-info"),
    info,
    catalog,
    username: "",
    act: () => {},
  });
}

async function main() {
  try {
    info = await get(`/api/matches/${enc}`);
  } catch (err) {
    $("am-title").textContent = t("Партия не найдена");
    toast(err.message);
    root.dataset.ready = "error";
    return;
  }
  showHeader();
  showAudit();
  showFacts();
  setupAbort();
  if (!ENDED.has(info.status)) {
    $("not-ended").hidden = false;
  } else {
    try {
      const log = await get(`/api/admin/matches/${enc}/log`);
      renderer = await loadRenderer();
      showActions(log);
      if (log.initial) await setupReplay(log);
    } catch (err) {
      toast(err.message);
    }
  }
  root.dataset.ready = "true";
}

main();
