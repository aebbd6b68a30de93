// The leaderboard of one rated game (/leaderboard/{game}): GET /api/leaderboard/{game}, drawn as a table
// (rank, name linking to the profile, rating, deviation, rated matches, wins / draws / losses); the viewer's
// own row is marked. Test hook: #leaderboard[data-loaded] once drawn.
import { el, get, toast } from "./api.js";
import { t, tn } from "./i18n.js";
import { ratingBadge } from "./rating.js";

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

/** The viewer's own standing under the table when they are not in it (a provisional rating is not listed). */
async function showMine(entries) {
  const box = document.getElementById("board-me");
  if (!me || entries.some((e) => e.username === me)) return;
  let mine = null;
  try {
    const profile = await get(`/api/members/${encodeURIComponent(me)}`);
    mine = (profile.games || []).find((g) => g.game === game) || null;
  } catch (_err) {
    return;
  }
  if (!mine || !mine.rating) {
    box.replaceChildren(t("У вас ещё нет рейтинговых партий в этой игре: старт — 1500?."));
  } else if (mine.rating.provisional) {
    box.replaceChildren(
      t("Ваш рейтинг:") + " ",
      ratingBadge(mine.rating),
      " — " + t("пока предварительный: в таблицу он попадёт, когда отклонение станет не больше 110 (ещё несколько рейтинговых партий)."),
    );
  } else {
    box.replaceChildren(t("Ваш рейтинг:") + " ", ratingBadge(mine.rating), " — " + t("в таблице его нет: рейтинговых партий не было 90 дней, или он ниже 50-го места."));
  }
  box.hidden = false;
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
    await showMine(entries);
  } catch (err) {
    toast(err.message);
  }
  root.dataset.loaded = "1";
}

load();
