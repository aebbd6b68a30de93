// «Состояние сервера» (/admin/status): GET /api/admin/status every few seconds — live matches by game, this
// worker's open sockets and database connections, bots waiting and thinking, the worker's recent errors.
// Test hook: #status-page[data-loaded] counts the loads.

import { el, get } from "./api.js";
import { gameTitle } from "./gamesinfo.js";
import { t } from "./i18n.js";

const REFRESH_MS = 5000;
const root = document.getElementById("status-page");
const note = document.getElementById("status-note");
let loads = 0;

function rows(target, pairs) {
  target.replaceChildren(...pairs.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

function sum(byGame) {
  return Object.values(byGame || {}).reduce((a, b) => a + b, 0);
}

function byGame(byGameCounts) {
  return Object.entries(byGameCounts || {}).map(([slug, n]) => [`— ${gameTitle(slug)}`, n]);
}

function uptime(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? t("{h} ч {m} мин", { h, m }) : t("{m} мин", { m });
}

function render(s) {
  rows(document.getElementById("st-live"), [
    [t("Идут"), sum(s.live.active)],
    ...byGame(s.live.active),
    [t("Ждут соперника"), sum(s.live.open)],
  ]);
  rows(document.getElementById("st-sockets"), [
    [t("Сокеты партий"), s.sockets.match ?? 0],
    [t("Сокеты лобби"), s.sockets.lobby ?? 0],
    [t("Соединения с базой"), s.db_pool_in_use],
    [t("Шина (Redis)"), s.bus_ok ? t("в порядке") : t("недоступна")],
  ]);
  rows(document.getElementById("st-bots"), [
    [t("Ждут бота"), s.bots.waiting],
    [t("Думают сейчас"), s.bots.thinking],
  ]);
  const list = document.getElementById("st-errors");
  const errors = [...(s.recent_errors || [])].reverse();
  document.getElementById("st-errors-empty").hidden = errors.length > 0;
  list.replaceChildren(
    ...errors.map((e) =>
      el(
        "li",
        { class: "status-error" },
        el("span", { class: "status-error__meta muted small" }, `${new Date(e.time).toLocaleString("ru-RU")} · ${e.level} · ${e.logger}${e.request_id ? ` · ${e.request_id}` : ""}`),
        el("span", { class: "status-error__text" }, e.message),
      ),
    ),
  );
  note.textContent = t("Процесс {pid}, работает {up}. Обновляется каждые 5 секунд.", { pid: s.worker_pid, up: uptime(s.uptime_seconds) });
}

async function load() {
  try {
    render(await get("/api/admin/status"));
  } catch (err) {
    note.textContent = t("Не удалось получить состояние: {why}", { why: err.message || err });
  }
  root.dataset.loaded = String(++loads);
}

load();
setInterval(load, REFRESH_MS);
