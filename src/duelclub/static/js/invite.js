// Invite page: show who invites, the game, the options (from your seat) and the commitment; accept the challenge.
import { clientSeed, get, post } from "./api.js";
import { gameTitle } from "./gamesinfo.js";
import { seatName } from "./names.js";
import { t, tn } from "./i18n.js";
import { moveTimeText } from "./movetime.js";
import { memberLink } from "./rating.js";

const root = document.getElementById("invite");
const token = root.dataset.token;
const acceptBtn = document.getElementById("accept");
const errorBox = document.getElementById("invite-error");
const $ = (id) => document.getElementById(id);

const ERRORS = {
  own_invite: t("Это ваше собственное приглашение — отправьте ссылку другу."),
  invite_taken: t("Этот вызов уже принял другой игрок."),
  invite_closed: t("Это приглашение отменено."),
  invite_not_found: t("Приглашение не найдено: ссылка неверна или устарела."),
  not_authenticated: t("Сначала войдите в клуб."),
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
    t("участник клуба")
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
  const game = gameTitle(inv.game);
  $("invite-lead").textContent = t("{name} вызывает вас сыграть в «{game}».", { name: opener, game });
  $("invite-game").textContent = game;
  $("invite-opener").replaceChildren(memberLink(opener, inv.opener_rating));
  // Rated games: «рейтинговая» (the result changes both ratings) or «товарищеская».
  if (inv.opener_rating || inv.rated) {
    const open = !inv.status || inv.status === "open";
    $("invite-rated").textContent = !inv.rated
      ? t("товарищеская — рейтинг не меняется")
      : open
        ? t("рейтинговая — результат изменит рейтинг обоих")
        : t("рейтинговая");
    $("invite-rated-row").hidden = false;
  }
  $("invite-clock").textContent = moveTimeText(inv.move_seconds);
  $("invite-options-text").textContent = inv.options_text || t("по умолчанию");
  $("commitment").textContent = inv.commitment || "";
  $("invite-loading").hidden = true;
  $("invite-body").hidden = false;
  const current = document.getElementById("current-user");
  const meName = current ? current.textContent.trim() : "";
  if (inv.status && inv.status !== "open") {
    await showClosed(inv, opener, game, meName);
  } else if (meName && meName === opener) {
    leadOwn(game);
    acceptBtn.disabled = true;
    showError(t("Это ваше собственное приглашение — отправьте ссылку другу."));
  }
}

/** The opener looks at its own open invite: it challenges nobody here. */
function leadOwn(game) {
  $("invite-lead").textContent = t("Ваше приглашение сыграть в «{game}» ждёт соперника.", { game });
  root.dataset.state = "own";
}

/** The invite is no longer open: say what happened to it, from the viewer's side, and link to the match
 *  when there is one to open or watch. The match summary tells who sits where and why it ended. */
async function showClosed(inv, opener, game, meName) {
  let summary = null;
  try {
    summary = await get(`/api/matches/${encodeURIComponent(inv.id)}`);
  } catch (_err) {
    /* the words below cope without it */
  }
  const seats = summary && Array.isArray(summary.seats) ? summary.seats.map(seatName) : [];
  const mine = !!meName && seats.includes(meName);
  const reason = summary && summary.result ? summary.result.reason : null;
  const lead = $("invite-lead");
  acceptBtn.hidden = true;
  acceptBtn.disabled = true;
  $("invite-hash-note").hidden = true;
  if (!mine) $("invite-options").hidden = true;
  const link = $("open-match");
  const showLink = (text) => {
    link.textContent = text;
    link.href = `/matches/${encodeURIComponent(inv.id)}`;
    link.hidden = false;
  };
  if (inv.status === "aborted") {
    const cancelled = reason !== "aborted";
    lead.textContent = cancelled ? t("Приглашение отменено") : t("Партия прервана администратором");
    showError(
      cancelled
        ? t("Вызов от {name} в «{game}» отменён — принять его уже нельзя.", { name: opener, game })
        : t("Вызов больше не действует — принять его нельзя."),
    );
    root.dataset.state = cancelled ? "cancelled" : "aborted";
  } else if (mine) {
    lead.textContent = inv.status === "active" ? t("Вы уже в этой партии — она идёт.") : t("Эта партия уже сыграна.");
    root.dataset.state = "mine";
    showLink(t("Открыть партию"));
  } else {
    lead.textContent =
      inv.status === "active" ? t("Этот вызов уже принял другой игрок") : t("Этот вызов принял другой игрок — партия уже сыграна");
    showError(t("Принять его уже нельзя, но партию можно посмотреть."));
    root.dataset.state = "taken";
    showLink(t("Смотреть партию"));
  }
}

acceptBtn.addEventListener("click", async () => {
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
