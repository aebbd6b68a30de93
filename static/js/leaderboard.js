// The leaderboard of one rated game (/leaderboard/{game}): GET /api/leaderboard/{game}, drawn as a table
// (rank, name linking to the profile, rating, deviation, rated matches, wins / draws / losses); the viewer's
// own row is marked. Test hook: #leaderboard[data-loaded] once drawn.
import { el, get, toast } from "./api.js";
import { t, tn } from "./i18n.js";

const root = document.getElementById("leaderboard");
const game = root.dataset.game;
const me = root.dataset.username;
const body = document.querySelector("#board tbody");

function row(e) {
  const mine = e.username === me;
  return el(
    "tr",
    { class: mine ? "is-me" : "", dataset: { username: e.username } },
    el("td", { class: `rank rank-${e.rank}` }, String(e.rank)),
    el("td", {}, el("a", { class: "member-link", href: `/members/${encodeURIComponent(e.username)}` }, e.username), mine ? el("span", { class: "muted small" }, t(" (вы)")) : null),
    el("td", { class: "num" }, el("b", {}, String(e.rating))),
    el("td", { class: "num hide-narrow muted" }, `±${e.rd}`),
    el("td", { class: "num" }, String(e.matches)),
    el(
      "td",
      { class: "num wdl" },
      el("span", { class: "w" }, String(e.wins)),
      " / ",
      el("span", {}, String(e.draws)),
      " / ",
      el("span", { class: "l" }, String(e.losses)),
    ),
  );
}

async function load() {
  try {
    const board = await get(`/api/leaderboard/${encodeURIComponent(game)}`);
    const entries = board.entries || [];
    body.replaceChildren(
      ...(entries.length
        ? entries.map(row)
        : [el("tr", {}, el("td", { colspan: "6", class: "empty" }, t("Пока никто не набрал установившегося рейтинга — сыграйте рейтинговые партии.")))]),
    );
    document.getElementById("board-count").textContent = entries.length ? tn(entries.length, "{n} игрок", "{n} игрока", "{n} игроков") : "";
  } catch (err) {
    toast(err.message);
  }
  root.dataset.loaded = "1";
}

load();
