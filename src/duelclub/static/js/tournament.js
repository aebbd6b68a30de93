// /tournaments/{id}: the tournament page (issue 26 §Pages). Draws GET /api/tournaments/{id} — rules in plain
// words, standings, crosstable, rounds with their matches (live or replay, with each deal's commitment and,
// once ended, its seed), players — and its buttons (join, leave, withdraw; organiser: enter a bot, start,
// pause, resume, cancel). Re-read when the lobby socket says this tournament changed; «Ваша партия готова»
// when a match of the viewer starts. Test hooks: #tournament[data-status][data-round], #tournament-ready.
import { el, get, post, toast } from "./api.js";
import { gameTitle } from "./gamesinfo.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { followLobby } from "./tournament_list.js";
import { formatName, points, resultText, rulesText, statusName, tournamentTitle } from "./tournament_words.js";

const root = document.getElementById("tournament");
const id = root.dataset.id;
const isAdmin = root.dataset.admin === "1";
let current = null;

const who = (name) => (name && name.startsWith("bot:") ? seatName({ bot: name.slice(4) }) : name || "—");

function memberLink(name) {
  if (!name || name.startsWith("bot:")) return el("span", {}, who(name));
  return el("a", { class: "member-link", href: `/members/${encodeURIComponent(name)}` }, name);
}

function button(label, action, extra = {}) {
  return el(
    "button",
    {
      type: "button",
      class: `btn ${extra.primary ? "btn-primary" : "btn-ghost"}`,
      id: `tournament-${action}`,
      onclick: async () => {
        try {
          draw(await post(`/api/tournaments/${encodeURIComponent(id)}/${action}`, extra.body || {}));
        } catch (err) {
          toast(err.message || t("Не получилось"));
        }
      },
    },
    label,
  );
}

function actions(tr) {
  const you = tr.you;
  const manage = you.organiser || isAdmin;
  const out = [];
  if (tr.status === "open") {
    out.push(you.joined ? button(t("Выйти из турнира"), "leave") : button(t("Участвовать"), "join", { primary: true }));
    if (manage) {
      out.push(button(t("Начать турнир"), "start", { primary: you.joined }));
      out.push(button(t("Добавить бота"), "bots", { body: { level: "medium" } }));
    }
  }
  if ((tr.status === "running" || tr.status === "paused") && you.joined && !you.withdrawn) {
    out.push(button(t("Выбыть из турнира"), "withdraw"));
  }
  if (manage && tr.status === "running") out.push(button(t("Пауза"), "pause"));
  if (manage && tr.status === "paused") out.push(button(t("Продолжить"), "resume", { primary: true }));
  if (manage && ["open", "running", "paused"].includes(tr.status)) out.push(button(t("Отменить турнир"), "cancel"));
  return out;
}

function facts(tr) {
  const clock = tr.move_seconds ? t("{n} с на ход", { n: tr.move_seconds }) : t("без часов");
  const rated = tr.rated ? t("рейтинговый") : t("без рейтинга");
  const organiser = tr.organiser ? t("организатор {name}", { name: tr.organiser }) : "";
  return [gameTitle(tr.game), formatName(tr.format), clock, rated, t("{n} из {max} участников", { n: tr.players.length, max: tr.max_players }), organiser]
    .filter(Boolean)
    .join(" · ");
}

function standings(tr) {
  const head = document.querySelector("#standings thead");
  const body = document.querySelector("#standings tbody");
  head.replaceChildren(
    el(
      "tr",
      {},
      el("th", { scope: "col", class: "rank" }, "#"),
      el("th", { scope: "col" }, t("Игрок")),
      el("th", { scope: "col", class: "num" }, t("Очки")),
      el("th", { scope: "col", class: "num hide-narrow" }, tr.format === "arena" ? t("Партии") : t("Бергер")),
      el("th", { scope: "col", class: "num" }, t("Побед")),
    ),
  );
  const me = root.dataset.username;
  const arena = tr.arena || {};
  body.replaceChildren(
    ...tr.standings.map((s) =>
      el(
        "tr",
        { class: s.username === me ? "is-me" : "", dataset: { username: s.username } },
        el("td", { class: "rank" }, String(s.rank)),
        el("td", {}, memberLink(s.username), s.withdrawn ? el("span", { class: "muted small" }, " " + t("выбыл")) : null, arena[s.username] && arena[s.username].streak ? " 🔥" : null),
        el("td", { class: "num" }, el("b", {}, points(s.points))),
        el("td", { class: "num hide-narrow muted" }, tr.format === "arena" ? (arena[s.username] ? arena[s.username].sheet.join(" ") : "") : points(s.tiebreak)),
        el("td", { class: "num" }, String(s.wins)),
      ),
    ),
  );
}

function crosstable(tr) {
  const panel = document.getElementById("crosstable-panel");
  const table = document.getElementById("crosstable");
  panel.hidden = tr.format === "arena" || !tr.crosstable || !tr.crosstable.length;
  if (panel.hidden) return;
  const names = tr.crosstable.map((r) => r.username);
  table.replaceChildren(
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Игрок")), ...names.map((_n, i) => el("th", { scope: "col", class: "num" }, String(i + 1))))),
    el(
      "tbody",
      {},
      ...tr.crosstable.map((r, i) =>
        el("tr", {}, el("th", { scope: "row" }, `${i + 1}. ${who(r.username)}`), ...names.map((n) => el("td", { class: "num" }, n === r.username ? "×" : (r.cells[n] || []).join(" ")))),
      ),
    ),
  );
}

function pairing(p) {
  const result = resultText(p);
  const seats = el("span", {}, memberLink(p.seats[0]), " — ", p.seats[1] === null ? el("span", { class: "muted" }, t("отдых")) : memberLink(p.seats[1]));
  const link = p.match_id
    ? el("a", { href: `/matches/${encodeURIComponent(p.match_id)}`, class: "tournament-match" }, p.result ? t("повтор") : t("смотреть"))
    : null;
  const fair = p.commitment ? el("code", { class: "hash small", title: t("Хеш раздачи") }, p.commitment.slice(0, 12)) : null;
  const seed = p.server_seed ? el("code", { class: "hash small", title: t("Зерно сервера") }, p.server_seed.slice(0, 12)) : null;
  return el("li", { dataset: { match: p.match_id || "" } }, seats, " ", el("b", { class: "tournament-result" }, result), " ", link, " ", fair, seed ? " → " : null, seed);
}

function rounds(tr) {
  const box = document.getElementById("tournament-rounds");
  if (!tr.rounds.length) {
    box.replaceChildren(el("p", { class: "muted" }, tr.status === "open" ? t("Пары появятся, когда турнир начнётся.") : t("Пар ещё нет.")));
    return;
  }
  box.replaceChildren(
    ...[...tr.rounds].reverse().map((r) =>
      el("div", { class: "tournament-round", dataset: { round: String(r.number) } }, el("h3", { class: "small" }, tr.format === "arena" ? t("Пары {n}", { n: r.number }) : t("Тур {n}", { n: r.number })), el("ul", { class: "match-list" }, ...r.pairings.map(pairing))),
    ),
  );
}

function players(tr) {
  const list = document.getElementById("tournament-players");
  list.replaceChildren(...tr.players.map((p) => el("li", {}, memberLink(p.username), p.withdrawn ? el("span", { class: "muted small" }, " " + t("выбыл")) : null)));
}

function ready(tr) {
  const box = document.getElementById("tournament-ready");
  const mid = tr.you.match_id;
  box.hidden = !mid;
  if (mid) box.replaceChildren(el("b", {}, t("Ваша партия готова: ")), el("a", { href: `/matches/${encodeURIComponent(mid)}`, class: "btn btn-primary btn-small", id: "tournament-play" }, t("Играть")));
}

function draw(tr) {
  current = tr;
  const title = tournamentTitle(tr, gameTitle(tr.game));
  document.getElementById("tournament-name").textContent = title;
  document.title = title + " — " + t("Дуэль-клуб");
  document.getElementById("tournament-facts").textContent = facts(tr);
  const roundText = t("тур {n} из {total}", { n: tr.current_round, total: tr.total_rounds });
  const round = tr.format === "arena" || !tr.total_rounds ? "" : " · " + roundText;
  document.getElementById("tournament-status").textContent = `${statusName(tr.status)}${round}`;
  document.getElementById("tournament-rules").textContent = rulesText(tr);
  document.getElementById("tournament-actions").replaceChildren(...actions(tr));
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
    if (!current) document.getElementById("tournament-status").textContent = err.message || t("Турнир не найден");
  }
}

refresh();
followLobby(
  (changed) => {
    if (changed === id) refresh();
  },
  (msg) => {
    if (msg.why === "tournament") refresh();
  },
);
