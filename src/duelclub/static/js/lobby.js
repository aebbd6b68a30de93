// Lobby: pick a game (tabs, remembered in the URL hash), set its options (forms drawn by the server from each
// game's options_form), play vs the bot, create an invite link and wait for the friend (or cancel it), list
// my matches. Nothing here is specific to one game.
import { clientSeed, del, el, get, post, toast } from "./api.js";
import { gameTitle } from "./gamesinfo.js";
import { resultFor, seatName } from "./names.js";
import { forfeitWords } from "./standing.js";
import { LOCALE, t, tn } from "./i18n.js";
import { rememberChoices } from "./lobbymemory.js";
import { moveTimeText } from "./movetime.js";
import { deltaText, ratingText } from "./rating.js";

const tabs = [...document.querySelectorAll(".game-tab")];
const panels = [...document.querySelectorAll(".game-panel")];
const playBot = document.getElementById("play-bot");
const inviteBtn = document.getElementById("invite-friend");
const inviteBox = document.getElementById("invite-box");
const inviteUrl = document.getElementById("invite-url");
const copyBtn = document.getElementById("copy-invite");
const cancelInviteBtn = document.getElementById("cancel-invite");
const activeList = document.getElementById("active-matches");
const finishedList = document.getElementById("finished-matches");

let me = null;
let waitTimer = null;
let shownInvite = null; // id of the match whose invite the box shows
let selected = panels.length ? panels[0].dataset.game : null;

/** Show the tab and options of game `slug`; `remember` puts it in the URL hash. */
export function selectGame(slug, remember = true) {
  if (!panels.some((p) => p.dataset.game === slug)) return;
  selected = slug;
  for (const t of tabs) t.setAttribute("aria-selected", String(t.dataset.game === slug));
  for (const p of panels) p.hidden = p.dataset.game !== slug;
  if (remember && location.hash !== `#${slug}`) history.replaceState(null, "", `#${slug}`);
  document.dispatchEvent(new CustomEvent("lobby:game", { detail: { game: slug } }));
}

for (const p of panels) rememberChoices(p.querySelector("form.game-form"));
for (const t of tabs) t.addEventListener("click", () => selectGame(t.dataset.game));
tabs.forEach((t, i) =>
  t.addEventListener("keydown", (ev) => {
    const step = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = tabs[(i + step + tabs.length) % tabs.length];
    next.focus();
    selectGame(next.dataset.game);
  }),
);
if (location.hash.length > 1) selectGame(decodeURIComponent(location.hash.slice(1)), false);
// A link to another tab from this very page (/#towers) changes only the hash: follow it.
window.addEventListener("hashchange", () => {
  if (location.hash.length > 1) selectGame(decodeURIComponent(location.hash.slice(1)), false);
});

/** The selected game and its form values: {game, options, botLevel}. */
export function currentChoice() {
  const form = document.getElementById(`${selected}-form`);
  const data = new FormData(form);
  const options = {};
  for (const fs of form.querySelectorAll("fieldset[data-option]")) {
    const name = fs.dataset.option;
    if (name === "bot_level" || name === "clock" || name === "rated") continue;
    const v = data.get(name);
    if (v !== null) options[name] = v;
  }
  // «Время на ход» (games whose clock_mode is not "none"): seconds per move, or null for no clock.
  const clock = data.get("move_seconds");
  const moveSeconds = clock ? Number(clock) : null;
  // «Рейтинговая» / «Товарищеская» (rated games only): null lets the server choose (rated between members).
  const ratedChoice = data.get("rated");
  const rated = ratedChoice === null ? null : ratedChoice === "1";
  return { game: selected, options, botLevel: data.get("bot_level") || "light", moveSeconds, rated };
}

function busy(on) {
  playBot.disabled = on;
  inviteBtn.disabled = on;
}

playBot.addEventListener("click", async () => {
  const { game, options, botLevel } = currentChoice();
  busy(true);
  try {
    const m = await post("/api/matches", {
      game,
      vs: "bot",
      bot_level: botLevel,
      options,
      client_seed: clientSeed(),
    });
    location.assign(`/matches/${encodeURIComponent(m.id)}`);
  } catch (err) {
    busy(false);
    toast(err.message);
  }
});
for (const f of document.querySelectorAll(".game-form")) {
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    playBot.click();
  });
}

function absoluteUrl(url) {
  try {
    return new URL(url, location.origin).href;
  } catch (_err) {
    return url;
  }
}

function showInvite(match, optionsText) {
  inviteBox.hidden = false;
  shownInvite = match.id;
  cancelInviteBtn.disabled = false;
  const path = match.invite_url || (match.invite_token ? `/invite/${encodeURIComponent(match.invite_token)}` : "");
  inviteUrl.value = absoluteUrl(path);
  document.getElementById("invite-commitment").textContent = match.commitment || "";
  const title = gameTitle(match.game);
  // The time per move, as the friend's invite page says it (move_seconds: null is «без часов»).
  const clockWord = t("Время на ход");
  const clock = "move_seconds" in match ? `${clockWord}: ${moveTimeText(match.move_seconds)}` : "";
  // Rated or casual, where the game's form offers the choice (Межа and bot games are never rated).
  const ratable = !!document.querySelector(`form[data-game="${match.game}"] input[name="rated"]`);
  const rated = "rated" in match && ratable ? (match.rated ? t("рейтинговая") : t("товарищеская")) : "";
  const parts = [title, optionsText, clock, rated];
  document.getElementById("invite-options").textContent = parts.filter(Boolean).join(" · ");
  document.getElementById("invite-status").textContent = t("Ждём соперника…");
  inviteUrl.focus();
  inviteUrl.select();
  waitForOpponent(match.id);
}

/** The options of my open invite in words, from my seat (the list row of GET /api/matches). */
async function myOptionsText(matchId) {
  try {
    const data = await get("/api/matches");
    const all = Array.isArray(data) ? data : data.matches || data.items || [];
    const row = all.find((m) => m.id === matchId);
    return row ? row.options_text || "" : "";
  } catch (_err) {
    return "";
  }
}

inviteBtn.addEventListener("click", async () => {
  const { game, options, moveSeconds, rated } = currentChoice();
  busy(true);
  try {
    const m = await post("/api/matches", {
      game,
      vs: "invite",
      options,
      move_seconds: moveSeconds,
      rated,
      client_seed: clientSeed(),
    });
    showInvite({ ...m, game }, await myOptionsText(m.id));
    loadMatches();
  } catch (err) {
    toast(err.message);
  } finally {
    busy(false);
  }
});

copyBtn.addEventListener("click", async () => {
  const text = inviteUrl.value;
  try {
    await navigator.clipboard.writeText(text);
  } catch (_err) {
    // Clipboard API needs a secure context; fall back to selecting the text.
    inviteUrl.select();
    try {
      document.execCommand("copy");
    } catch (_e) {
      /* ignore */
    }
  }
  copyBtn.textContent = t("Скопировано");
  setTimeout(() => {
    copyBtn.textContent = t("Копировать");
  }, 2000);
});

/** Poll the match until the friend has joined, then go to the match page. */
function waitForOpponent(matchId) {
  clearTimeout(waitTimer);
  const tick = async () => {
    try {
      const m = await get(`/api/matches/${encodeURIComponent(matchId)}`);
      if (m.status === "aborted" || m.status === "finished") {
        inviteClosed(matchId);
        return;
      }
      if (m.status && m.status !== "open") {
        document.getElementById("invite-status").textContent = t("Соперник принял вызов! Открываем партию…");
        location.assign(`/matches/${encodeURIComponent(matchId)}`);
        return;
      }
    } catch (err) {
      if (err.status === 404 || err.status === 403) {
        toast(err.message);
        return;
      }
    }
    waitTimer = setTimeout(tick, 1000);
  };
  waitTimer = setTimeout(tick, 1000);
}

/** The invite in the box is no longer open: hide the box and stop waiting. */
function inviteClosed(matchId) {
  if (shownInvite !== matchId) return;
  clearTimeout(waitTimer);
  shownInvite = null;
  inviteBox.hidden = true;
}

/** Cancel my open invite (DELETE /api/matches/{id}); a friend who opens the link is told it was cancelled. */
async function cancelInvite(matchId) {
  try {
    await del(`/api/matches/${encodeURIComponent(matchId)}`);
    toast(t("Приглашение отменено."), "info");
  } catch (err) {
    // Already accepted (409 match_not_open): the wait loop will open the match.
    toast(err.message);
    loadMatches();
    return;
  }
  inviteClosed(matchId);
  loadMatches();
}

cancelInviteBtn.addEventListener("click", () => {
  if (!shownInvite) return;
  cancelInviteBtn.disabled = true;
  cancelInvite(shownInvite);
});

/** Show an open invite from the list again (link, commitment) and wait for the friend. */
async function resumeInvite(m) {
  try {
    const full = await get(`/api/matches/${encodeURIComponent(m.id)}`);
    const token = m.invite_token || full.invite_token;
    const url = m.invite_url || full.invite_url || (token ? `/invite/${encodeURIComponent(token)}` : "");
    const shown = { id: m.id, game: m.game, invite_url: url, commitment: full.commitment };
    showInvite({ ...shown, move_seconds: full.move_seconds ?? null, rated: !!full.rated }, m.options_text || "");
    inviteBox.scrollIntoView({ behavior: "smooth", block: "nearest" });
  } catch (err) {
    toast(err.message);
  }
}

// ---- my matches ---------------------------------------------------------------------------

function mySeatOf(m) {
  if (typeof m.seat === "number") return m.seat;
  if (typeof m.my_seat === "number") return m.my_seat;
  if (me && Array.isArray(m.seats)) {
    const i = m.seats.findIndex((s) => seatName(s) === me.username);
    if (i >= 0) return i;
  }
  return null;
}

function opponentOf(m, mySeat) {
  if (m.opponent) return seatName(m.opponent);
  if (!Array.isArray(m.seats) || mySeat === null) return "—";
  return seatName(m.seats[1 - mySeat]);
}

function whenText(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(LOCALE, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

function matchItem(m) {
  const mySeat = mySeatOf(m);
  const title = gameTitle(m.game);
  const cancelled = m.status === "aborted" && m.result && m.result.reason === "cancelled";
  const calledOff = m.status === "aborted" && m.result && ["player_abort", "no_first_move", "unplayed"].includes(m.result.reason);
  const noOpponent = !m.opponent && mySeat !== null && Array.isArray(m.seats) && seatName(m.seats[1 - mySeat]) === t("ожидается");
  const opp =
    m.status === "open"
      ? t("ждём соперника")
      : cancelled
        ? t("Приглашение отменено")
        : noOpponent
          ? t("соперник не присоединился")
          : t("соперник: {name}", { name: opponentOf(m, mySeat) });
  // The opponent's rating beside their name (what a rated match left them, once it has ended).
  const oppRating = m.status !== "open" && !cancelled && m.opponent ? ratingText(m.opponent.rating) : "";
  const meta = [m.tournament ? t("турнир «{name}»", { name: m.tournament.name }) : null, m.rated ? t("рейтинговая") : null, m.options_text || null, whenText(m.finished_at || m.started_at || m.created_at)]
    .filter(Boolean)
    .join(" · ");
  const myChange = m.rated && mySeat !== null && m.seats && m.seats[mySeat] && m.seats[mySeat].rating ? m.seats[mySeat].rating.delta : null;
  const href = `/matches/${encodeURIComponent(m.id)}`;
  let badge;
  let action;
  if (m.status === "finished" || m.status === "aborted") {
    // A tournament board that ended before both first moves is a forfeit there, not a cancelled match.
    const forfeit = m.tournament ? forfeitWords(m.result, mySeat) : null;
    const r = forfeit
      ? forfeit
      : m.status === "aborted"
        ? { kind: "draw", text: cancelled || calledOff ? t("Отменена") : t("Прервана") }
        : resultFor(m.result, mySeat);
    const change = typeof myChange === "number" ? " " + deltaText(myChange) : "";
    badge = el("span", { class: `badge badge-${r ? r.kind : "draw"}` }, (r ? r.text : t("Завершена")) + change);
    action = el("a", { class: "btn btn-ghost btn-small", href }, t("Смотреть"));
  } else if (m.status === "open" && !m.invite_token) {
    // A challenge in the table, or a rematch offer: no link to show; open it or withdraw it.
    badge = el("span", { class: "badge" }, t("Заявка"));
    const cancel = el("button", { type: "button", class: "btn btn-ghost btn-small", dataset: { cancel: m.id } }, t("Отменить"));
    cancel.addEventListener("click", () => {
      cancel.disabled = true;
      cancelInvite(m.id);
    });
    action = el("span", { class: "row" }, el("a", { class: "btn btn-ghost btn-small", href }, t("Открыть")), cancel);
  } else if (m.status === "open") {
    badge = el("span", { class: "badge" }, t("Приглашение"));
    const show = el("button", { type: "button", class: "btn btn-ghost btn-small" }, t("Показать ссылку"));
    show.addEventListener("click", () => resumeInvite(m));
    const cancel = el("button", { type: "button", class: "btn btn-ghost btn-small", dataset: { cancel: m.id } }, t("Отменить"));
    cancel.addEventListener("click", () => {
      cancel.disabled = true;
      cancelInvite(m.id);
    });
    action = el("span", { class: "row" }, show, cancel);
  } else {
    const myTurn = Array.isArray(m.to_move) && mySeat !== null && m.to_move.includes(mySeat);
    badge = el("span", { class: "badge badge-active" }, myTurn ? t("Ваш ход") : t("Идёт"));
    action = el("a", { class: "btn btn-primary btn-small", href }, t("Продолжить"));
  }
  return el(
    "li",
    { dataset: { match: m.id } },
    el(
      "div",
      { class: "match-list__main" },
      el("span", { class: "match-list__title" }, `${title} · ${opp}` + (oppRating ? ` (${oppRating})` : "")),
      el("span", { class: "match-list__meta" }, meta),
    ),
    el("div", { class: "row" }, badge, action),
  );
}

function fill(list, items, emptyText) {
  list.replaceChildren(...(items.length ? items.map(matchItem) : [el("li", { class: "empty" }, emptyText)]));
}

async function loadMatches() {
  try {
    if (!me) me = await get("/api/me");
    const data = await get("/api/matches");
    const all = Array.isArray(data) ? data : data.matches || data.items || [];
    const live = all.filter((m) => m.status === "active" || m.status === "open");
    const done = all.filter((m) => m.status === "finished" || m.status === "aborted");
    fill(activeList, live, t("Нет идущих партий — начните новую."));
    fill(finishedList, done.slice(0, 30), t("Пока нет завершённых партий."));
  } catch (err) {
    activeList.replaceChildren(el("li", { class: "empty" }, t("Не удалось загрузить партии: {error}", { error: err.message })));
    finishedList.replaceChildren();
  }
}

document.getElementById("refresh-matches").addEventListener("click", loadMatches);
document.addEventListener("lobby:matches-changed", loadMatches);
loadMatches();

// «Подобрать по силе»: the level whose ladder rating is closest to my rating for this game (bots/ladder.py
// level_for_rating via /api/games/{slug}/level-for-rating, which reads my rating); without one — the middle level.
for (const btn of document.querySelectorAll(".match-level")) {
  btn.addEventListener("click", async () => {
    const game = btn.dataset.game;
    try {
      // the server picks by the caller's own rating in this game (none yet: the middle level)
      const pick = await get(`/api/games/${encodeURIComponent(game)}/level-for-rating`);
      const mine = pick.rating;
      const input = document.querySelector(`#${game}-form input[name="bot_level"][value="${pick.level}"]`);
      if (!input) return;
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true })); // remembered (lobbymemory.js)
      input.focus();
      const name = input.closest("label").querySelector("span").firstChild.textContent.trim();
      const words = typeof mine === "number"
        ? t("Уровень «{level}» — ближе всего к вашему рейтингу", { level: name })
        : t("Уровень «{level}»: у вас пока нет рейтинга в этой игре", { level: name });
      toast(words, "info");
    } catch (err) {
      toast(t("Не удалось подобрать уровень: {error}", { error: err.message }), "error");
    }
  });
}
