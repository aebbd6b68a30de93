// A member's profile (/members/{username}, issue 14 §6): per rated game the rating with its history drawn
// as an inline SVG chart, the best rating, rated matches and W/D/L, the current streak
// (GET /api/members/{username}); the match history, newest first, filtered by game, result and opponent,
// page by page (GET /api/members/{username}/matches), with links to each match and its replay; on one's own
// profile the history downloads as CSV or JSON lines (…/matches/export). The filters and the page live in
// the query string, so a filtered history can be linked.
// Test hooks: #standings[data-loaded], #history[data-loaded] (counts the loads), #history[data-total].
import { el, get, toast } from "./api.js";
import { LANG, t, tn } from "./i18n.js";
import { GAMES, gameTitle } from "./gamesinfo.js";
import { seatName } from "./names.js";
import { deltaText, memberLink, ratingText } from "./rating.js";

const $ = (id) => document.getElementById(id);
const root = $("profile");
const username = root.dataset.username;
const mine = root.dataset.mine === "1";
const enc = encodeURIComponent(username);
const SVG_NS = "http://www.w3.org/2000/svg";
const PER_PAGE = 20;
const FILTERS = ["game", "result", "opponent"];

const OUTCOME_WORDS = { win: t("Победа"), loss: t("Поражение"), draw: t("Ничья"), aborted: t("Прервана") };
const dateFmt = new Intl.DateTimeFormat(LANG === "uk" ? "uk-UA" : "ru-RU", { day: "numeric", month: "short", year: "numeric" });
const dayText = (iso) => (iso ? dateFmt.format(new Date(iso)) : "");
/** «2 дек., 14:05» (the year only when it is not this one). */
function whenText(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  const opts = { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  if (d.getFullYear() !== new Date().getFullYear()) opts.year = "numeric";
  return d.toLocaleString(LANG === "uk" ? "uk-UA" : "ru-RU", opts);
}

// ---- standings and charts ---------------------------------------------------------------------

function streakText(n) {
  if (n > 0) return tn(n, "{n} победа подряд", "{n} победы подряд", "{n} побед подряд");
  if (n < 0) return tn(-n, "{n} поражение подряд", "{n} поражения подряд", "{n} поражений подряд");
  return t("нет серии");
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/** The rating after each rated match as a line over a band of ± the deviation; x: the match, y: rating. */
function chart(points, width) {
  const h = 170;
  const pad = { l: 40, r: 10, t: 10, b: 22 };
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings) - 25;
  let hi = Math.max(...ratings) + 25;
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = mid - 50;
    hi = mid + 50;
  }
  const n = points.length;
  const x = (i) => pad.l + (n === 1 ? (width - pad.l - pad.r) / 2 : (i * (width - pad.l - pad.r)) / (n - 1));
  const y = (r) => pad.t + ((hi - Math.max(lo, Math.min(hi, r))) * (h - pad.t - pad.b)) / (hi - lo);
  const node = svg("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${h}`, role: "img", "aria-label": t("График рейтинга: от {first} до {last}", { first: Math.round(ratings[0]), last: Math.round(ratings[n - 1]) }) });
  for (const r of [lo + 20, (lo + hi) / 2, hi - 20]) {
    const v = Math.round(r / 10) * 10;
    node.append(svg("line", { class: "grid", x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v) }));
    node.append(svg("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)));
  }
  const upper = points.map((p, i) => `${x(i)},${y(p.rating + p.rd)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.rating - p.rd)}`).reverse();
  if (n > 1) node.append(svg("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
  node.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  points.forEach((p, i) => {
    if (n > 60 && i !== n - 1) return;
    const dot = svg("circle", { class: i === n - 1 ? "dot dot-last" : "dot", cx: x(i), cy: y(p.rating), r: i === n - 1 ? 4 : 3 });
    dot.append(svg("title", {}, `${dayText(p.at)}: ${Math.round(p.rating)} (±${Math.round(p.rd)})`));
    node.append(dot);
  });
  node.append(svg("text", { x: pad.l, y: h - 6, "text-anchor": "start" }, dayText(points[0].at)));
  if (n > 1) node.append(svg("text", { x: width - pad.r, y: h - 6, "text-anchor": "end" }, dayText(points[n - 1].at)));
  return node;
}

function standing(g) {
  const title = gameTitle(g.game);
  const card = el("article", { class: "standing", dataset: { game: g.game } });
  if (!g.rating) {
    card.append(
      el("h3", {}, title),
      el("p", { class: "standing__empty" }, t("Рейтинговых партий ещё не было. Старт — 1500?")),
    );
    return card;
  }
  const r = g.rating;
  card.append(
    el("h3", {}, el("span", {}, title), el("a", { class: "small", href: `/leaderboard/${encodeURIComponent(g.game)}` }, t("таблица"))),
    el(
      "p",
      { class: "standing__rating", dataset: { rating: ratingText(r) } },
      ratingText(r),
      " ",
      el("small", { title: t("Отклонение рейтинга: чем меньше, тем точнее") }, `±${r.rd}`),
    ),
    el(
      "p",
      { class: "standing__facts" },
      el("span", {}, t("Лучший:") + " ", el("b", {}, String(g.best))),
      el("span", {}, tn(g.matches, "{n} партия", "{n} партии", "{n} партий")),
      el("span", {}, t("В / Н / П:") + " ", el("b", {}, `${g.wins} / ${g.draws} / ${g.losses}`)),
      el("span", {}, streakText(g.streak)),
    ),
  );
  if (g.history.length) {
    const box = el("div", { class: "chart-box" });
    card.append(box);
    const draw = () => box.replaceChildren(chart(g.history, Math.max(260, Math.floor(box.clientWidth || 320))));
    requestAnimationFrame(draw);
    if (typeof ResizeObserver === "function") {
      let last = 0;
      new ResizeObserver(() => {
        const w = Math.floor(box.clientWidth);
        if (w && Math.abs(w - last) > 8) {
          last = w;
          draw();
        }
      }).observe(box);
    }
  }
  return card;
}

async function loadProfile() {
  const box = $("standings");
  try {
    const p = await get(`/api/members/${enc}`);
    $("profile-name").textContent = p.username;
    $("profile-joined").textContent = t("в клубе с {date}", { date: dayText(p.joined_at) }) + " · " + tn(p.matches, "{n} партия", "{n} партии", "{n} партий");
    box.replaceChildren(...p.games.map(standing));
    const select = $("h-game");
    const wanted = new URLSearchParams(location.search).get("game") || "";
    for (const g of GAMES) select.append(el("option", { value: g.slug }, g.title));
    select.value = wanted;
  } catch (err) {
    box.replaceChildren(el("p", { class: "form-error" }, err.message));
  }
  box.dataset.loaded = "1";
}

// ---- the history ------------------------------------------------------------------------------

let page = Number(new URLSearchParams(location.search).get("page")) || 1;
let loads = 0;

function filters() {
  const q = new URLSearchParams();
  const form = $("history-filters");
  for (const name of FILTERS) {
    const v = form.elements[name].value.trim();
    if (v) q.set(name, v);
  }
  return q;
}

function filtersFromUrl() {
  const q = new URLSearchParams(location.search);
  const form = $("history-filters");
  for (const name of FILTERS) form.elements[name].value = q.get(name) || "";
}

function opponentCell(m) {
  if (m.opponent.username) return memberLink(m.opponent.username, m.opponent_rating);
  return el("span", {}, seatName(m.opponent));
}

function ratingCell(m) {
  if (!m.rated) return el("span", { class: "muted small" }, t("без рейтинга"));
  return el(
    "span",
    {},
    el("b", {}, String(m.rating_after)),
    " ",
    el("span", { class: `rating-delta ${m.delta > 0 ? "rating-delta--up" : m.delta < 0 ? "rating-delta--down" : ""}` }, deltaText(m.delta)),
  );
}

function historyRow(m) {
  const reason = m.reason_text || m.reason || "";
  const links = el(
    "span",
    { class: "row" },
    el("a", { class: "btn btn-ghost btn-small", href: m.url }, t("Партия")),
    m.status === "finished"
      ? el("a", { class: "btn btn-ghost btn-small", href: m.replay_url, dataset: { replay: m.id } }, t("Повтор"))
      : null,
  );
  return el(
    "tr",
    { dataset: { match: m.id, result: m.result } },
    el("td", { class: "when", dataset: { label: t("Дата") } }, whenText(m.finished_at)),
    el("td", { dataset: { label: t("Игра") } }, gameTitle(m.game)),
    el("td", { dataset: { label: t("Соперник") } }, opponentCell(m)),
    el(
      "td",
      { dataset: { label: t("Итог") } },
      el(
        "span",
        {},
        el("span", { class: `outcome outcome-${m.result}` }, OUTCOME_WORDS[m.result] || m.result),
        reason ? el("span", { class: "muted small" }, " — " + reason) : null,
      ),
    ),
    el("td", { dataset: { label: t("Рейтинг") } }, ratingCell(m)),
    el("td", { class: "links" }, links),
  );
}

function paintExport() {
  if (!mine) return;
  const q = filters();
  for (const format of ["csv", "jsonl"]) {
    const params = new URLSearchParams(q);
    params.set("format", format);
    $(`export-${format}`).href = `/api/members/${enc}/matches/export?${params}`;
  }
}

async function loadHistory() {
  const q = filters();
  q.set("page", String(page));
  q.set("per_page", String(PER_PAGE));
  const body = document.querySelector("#history-table tbody");
  try {
    const h = await get(`/api/members/${enc}/matches?${q}`);
    body.replaceChildren(
      ...(h.items.length
        ? h.items.map(historyRow)
        : [el("tr", {}, el("td", { colspan: "6", class: "empty" }, h.total ? t("На этой странице партий нет.") : t("Партий не найдено.")))]),
    );
    $("history-count").textContent = tn(h.total, "{n} партия", "{n} партии", "{n} партий");
    $("history-pager").hidden = h.pages <= 1;
    $("history-page").textContent = t("Страница {page} из {pages}", { page: h.page, pages: Math.max(1, h.pages) });
    $("history-newer").disabled = h.page <= 1;
    $("history-older").disabled = h.page >= h.pages;
    $("history").dataset.total = String(h.total);
  } catch (err) {
    toast(err.message);
  }
  paintExport();
  loads += 1;
  $("history").dataset.loaded = String(loads);
}

function remember() {
  const q = filters();
  if (page > 1) q.set("page", String(page));
  history.replaceState(null, "", `${location.pathname}${q.toString() ? `?${q}` : ""}#history`);
}

$("history-filters").addEventListener("submit", (ev) => {
  ev.preventDefault();
  page = 1;
  remember();
  loadHistory();
});
$("history-newer").addEventListener("click", () => {
  page = Math.max(1, page - 1);
  remember();
  loadHistory();
});
$("history-older").addEventListener("click", () => {
  page += 1;
  remember();
  loadHistory();
});

filtersFromUrl();
loadProfile().then(() => {
  filtersFromUrl();
  return loadHistory();
});
