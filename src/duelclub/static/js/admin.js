// The admins' match list (/admin): filters by status, game and player (GET /api/admin/matches), kept in the
// page's query string so a filtered list can be linked. Test hook: #admin[data-loaded] counts the loads.

import { el, get, toast } from "./api.js";
import { gameTitle } from "./gamesinfo.js";
import { STATUS_NAMES, formatTime, resultText, seatName } from "./names.js";
import { forfeitWords } from "./standing.js";
import { t, tn } from "./i18n.js";
import { ratingBadge } from "./rating.js";

/** «alice 1512 (+12) — bob 1488 (−12)»: each seat's name with its rating (and a rated match's change). */
function players(m) {
  const seats = m.seats || [];
  return seats.flatMap((s, i) => [i ? " — " : "", seatName(s), s.rating ? " " : "", ratingBadge(s.rating, { delta: true })]);
}

const root = document.getElementById("admin");
const form = document.getElementById("filters");
const body = document.querySelector("#matches tbody");
const count = document.getElementById("count");
const FILTERS = ["status", "game", "user"];
let loads = 0;

function filtersFromUrl() {
  const q = new URLSearchParams(location.search);
  for (const name of FILTERS) form.elements[name].value = q.get(name) || "";
}

function currentFilters() {
  const q = new URLSearchParams();
  for (const name of FILTERS) {
    const v = form.elements[name].value.trim();
    if (v) q.set(name, v);
  }
  return q;
}

async function fillGames() {
  try {
    const games = await get("/api/games");
    const select = form.elements.game;
    const wanted = new URLSearchParams(location.search).get("game") || "";
    for (const g of Array.isArray(games) ? games : []) {
      select.append(el("option", { value: g.slug }, g.title || gameTitle(g.slug)));
    }
    select.value = wanted;
  } catch (_err) {
    /* the list still works without game names */
  }
}

/** The result in words; a tournament board ended before both first moves is the forfeit it scored there
 *  («Победа без игры: ivan»), not «Отменена». */
function resultCell(m) {
  const forfeit = m.tournament ? forfeitWords(m.result, null) : null;
  return forfeit ? forfeit.text : resultText(m.result, m.seats);
}

function row(m) {
  return el(
    "tr",
    { dataset: { matchId: m.id, status: m.status } },
    // data-label: the column's name, shown before each cell when a narrow screen stacks the row (app.css).
    el("td", { dataset: { label: t("Партия") } }, el("a", { href: `/admin/matches/${encodeURIComponent(m.id)}`, class: "mono" }, m.id)),
    el("td", { dataset: { label: t("Игра") } }, gameTitle(m.game)),
    el("td", { dataset: { label: t("Статус") } }, el("span", { class: `badge badge-status-${m.status}` }, STATUS_NAMES[m.status] || m.status)),
    el("td", { dataset: { label: t("Игроки") } }, ...players(m)),
    el("td", { dataset: { label: t("Итог") } }, resultCell(m)),
    el("td", { dataset: { label: t("Создана") } }, formatTime(m.created_at)),
    el("td", { dataset: { label: t("Окончена") } }, formatTime(m.finished_at)),
  );
}

async function load() {
  const q = currentFilters();
  count.textContent = t("Загрузка…");
  try {
    const rows = await get(`/api/admin/matches${q.toString() ? `?${q}` : ""}`);
    body.replaceChildren(...rows.map(row));
    if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "7", class: "empty" }, t("Партий не найдено."))));
    count.textContent = t("Найдено: {n}", { n: rows.length });
  } catch (err) {
    count.textContent = "";
    toast(err.message);
  }
  loads += 1;
  root.dataset.loaded = String(loads);
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const q = currentFilters();
  history.replaceState(null, "", `${location.pathname}${q.toString() ? `?${q}` : ""}`);
  load();
});

filtersFromUrl();
fillGames().then(load);
