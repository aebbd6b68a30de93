// The tournament list (issue 26 §Pages: the lobby's «Турниры» panel and /tournaments): upcoming, running and
// finished tournaments from GET /api/tournaments?status=…, one tab each; re-read when the lobby socket
// says a tournament changed (lobby_tournaments.js and tournaments.js call refreshList through coalesce.js).
// Hook: #tournament-items[data-loaded].
import { el, get } from "./api.js";
import { gameTitle } from "./gamesinfo.js";
import { LANG, t, tn } from "./i18n.js";
import { formatName, localTime, statusName, tournamentTitle } from "./tournament_words.js";

let status = "open";

const count = (n) => tn(n, "{n} участник", "{n} участника", "{n} участников", { n });

function item(tr) {
  const when = tr.status === "open" ? (tr.starts_at ? t("начало {time}", { time: localTime(tr.starts_at, LANG) }) : t("начало по кнопке организатора")) : statusName(tr.status);
  return el(
    "li",
    { dataset: { id: tr.id } },
    el("a", { href: `/tournaments/${encodeURIComponent(tr.id)}`, class: "tournament-link" }, tournamentTitle(tr, gameTitle(tr.game))),
    el("span", { class: "small muted" }, " " + [gameTitle(tr.game), formatName(tr.format), tr.options_text, count(tr.players), when].filter(Boolean).join(" · ")),
  );
}

async function load(which) {
  const wanted = which === "running" ? ["running", "paused"] : [which];
  let items = [];
  for (const s of wanted) items = items.concat(await get(`/api/tournaments?status=${s}`));
  return items;
}

function draw(items) {
  const box = document.getElementById("tournament-items");
  box.replaceChildren(...(items.length ? items.map(item) : [el("li", { class: "empty" }, t("Пока нет турниров."))]));
  box.dataset.loaded = status;
}

/** Read the current tab's list again. */
export async function refreshList() {
  if (!document.getElementById("tournament-items")) return;
  const which = status;
  try {
    const items = await load(which);
    if (which === status) draw(items); // a tab clicked meanwhile draws its own list
  } catch (_err) {
    // offline: the list stays as it was
  }
}

/** Wire the tabs and draw the first list: «Скоро», or «Идут» when nothing is upcoming but something is
 *  running (a club evening in progress). */
export async function setUpList() {
  const tabs = [...document.querySelectorAll(".tournament-tab")];
  let chosen = false;
  const select = (tab) => {
    status = tab.dataset.status;
    for (const other of tabs) other.setAttribute("aria-selected", other === tab ? "true" : "false");
  };
  for (const tab of tabs) {
    tab.addEventListener("click", () => {
      chosen = true;
      select(tab);
      refreshList();
    });
  }
  if (!document.getElementById("tournament-items")) return;
  try {
    let items = await load("open");
    const running = tabs.find((tab) => tab.dataset.status === "running");
    if (!items.length && running && !chosen) {
      const live = await load("running");
      if (live.length && !chosen) {
        select(running);
        items = live;
      }
    }
    if (!chosen) draw(items);
  } catch (_err) {
    // offline: «Загрузка…» stays until the lobby socket's next change
  }
}

/** Follow the lobby socket: `onTournament(id)` for each {"type":"tournament"} (reconnects with backoff). */
export function followLobby(onTournament, onMatch) {
  let backoff = 500;
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/lobby`);
    ws.addEventListener("open", () => {
      backoff = 500;
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_err) {
        return;
      }
      if (msg.type === "tournament") onTournament(msg.id);
      else if (msg.type === "match" && onMatch) onMatch(msg);
    });
    ws.addEventListener("close", () => {
      setTimeout(connect, backoff + Math.random() * backoff);
      backoff = Math.min(backoff * 2, 15000);
    });
  };
  connect();
}
