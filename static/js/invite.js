// Invite page: show who invites, the game, the house you will get and the commitment; accept the challenge.
import { clientSeed, get, post } from "./api.js";
import { GAME_TITLES, HOUSE_NAMES, seatName } from "./names.js";

const root = document.getElementById("invite");
const token = root.dataset.token;
const acceptBtn = document.getElementById("accept");
const errorBox = document.getElementById("invite-error");
const $ = (id) => document.getElementById(id);

const STATUS_TEXT = {
  active: "Этот вызов уже принят — партия идёт.",
  finished: "Эта партия уже сыграна.",
  aborted: "Это приглашение отменено (или партия прервана).",
};

const ERRORS = {
  own_invite: "Это ваше собственное приглашение — отправьте ссылку другу.",
  invite_taken: "Этот вызов уже принял кто-то другой.",
  invite_closed: "Это приглашение отменено.",
  invite_not_found: "Приглашение не найдено: ссылка неверна или устарела.",
  not_authenticated: "Сначала войдите в клуб.",
};

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function openerName(inv) {
  return (
    inv.opener_username ||
    (typeof inv.opener === "string" ? inv.opener : inv.opener && seatName(inv.opener)) ||
    inv.username ||
    inv.from ||
    "участник клуба"
  );
}

async function load() {
  let inv;
  try {
    inv = await get(`/api/invites/${encodeURIComponent(token)}`);
  } catch (err) {
    $("invite-loading").textContent = err.status === 404 ? ERRORS.invite_not_found : ERRORS[err.code] || err.message;
    return;
  }
  const opener = openerName(inv);
  const game = GAME_TITLES[inv.game] || inv.game;
  const openerHouse = (inv.options && inv.options.house) || "olkha";
  const mine = openerHouse === "olkha" ? "gorn" : "olkha";
  $("invite-lead").textContent = `${opener} вызывает вас сыграть в «${game}».`;
  $("invite-game").textContent = game;
  $("invite-opener").textContent = opener;
  $("invite-house").textContent = HOUSE_NAMES[mine];
  $("invite-opp-house").textContent = HOUSE_NAMES[openerHouse];
  $("commitment").textContent = inv.commitment || "";
  $("invite-loading").hidden = true;
  $("invite-body").hidden = false;
  const current = document.getElementById("current-user");
  const meName = current ? current.textContent.trim() : "";
  if (inv.status && inv.status !== "open") {
    acceptBtn.disabled = true;
    showError(STATUS_TEXT[inv.status] || "Этот вызов больше не действует.");
    if ((inv.id || inv.match_id) && inv.status !== "aborted") {
      acceptBtn.textContent = "Открыть партию";
      acceptBtn.disabled = false;
      acceptBtn.dataset.goto = inv.id || inv.match_id;
    }
  } else if (meName && meName === opener) {
    acceptBtn.disabled = true;
    showError("Это ваше собственное приглашение — отправьте ссылку другу.");
  }
}

acceptBtn.addEventListener("click", async () => {
  if (acceptBtn.dataset.goto) {
    location.assign(`/matches/${encodeURIComponent(acceptBtn.dataset.goto)}`);
    return;
  }
  acceptBtn.disabled = true;
  errorBox.hidden = true;
  try {
    const res = await post(`/api/invites/${encodeURIComponent(token)}/accept`, { client_seed: clientSeed() });
    location.assign(`/matches/${encodeURIComponent(res.id)}`);
  } catch (err) {
    acceptBtn.disabled = false;
    showError(ERRORS[err.code] || err.message);
  }
});

load();
