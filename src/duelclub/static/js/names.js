// Shared words for match summaries (lobby, invite page, match pages). Game titles: gamesinfo.js; a result's
// reason comes worded from the server (`result.reason_text`, duelclub.words).
import { LOCALE, t, tn } from "./i18n.js";

export const HOUSE_NAMES = { olkha: t("Дом Ольхи"), gorn: t("Дом Горна") };
export const BOT_LEVELS = {
  novice: t("Новичок"),
  light: t("Лёгкий"),
  medium: t("Средний"),
  strong: t("Сильный"),
  master: t("Мастер"),
  easy: t("Лёгкий"), // the old ids of light and strong (stored matches)
  hard: t("Сильный"),
};

/** Results that are no game result at all: an admin's abort, a cancelled invite, a match aborted before both
 *  players' first moves (issue 14). */
const CALLED_OFF = {
  aborted: t("Прервана"),
  abort: t("Прервана"),
  cancelled: t("Отменена"),
  player_abort: t("Отменена"),
  no_first_move: t("Отменена"),
  unplayed: t("Отменена"),
  tournament_cancelled: t("Прервана"), // its tournament was cancelled
};

/** A result's reason in words (the server's `reason_text`; the code where an old payload has none). */
export const reasonOf = (result) => (result && (result.reason_text || result.reason)) || "";

/** A platform end reason (a claim of abandonment, the move clock) worded from the reader's side: the winner
 *  reads what the opponent did, the loser what they did; "" for a spectator, a draw or any other reason. */
export function sideReason(result, mySeat) {
  const w = result && result.winner;
  if (w === null || w === undefined || mySeat === null || mySeat === undefined) return "";
  const won = w === mySeat;
  if (result.reason === "abandoned") return won ? t("Соперник покинул партию") : t("Вы не вернулись в партию вовремя");
  if (result.reason === "timeout") return won ? t("Время соперника на ход вышло") : t("Ваше время на ход вышло");
  return "";
}

/** The banner's reason sentence under a renderer's outcome `o` ({reason}: the game's own words, "" where the
 *  game has none for this end): the game's words, else the platform's from the reader's side, else the
 *  server's `reason_text` — never a raw code. */
export function outcomeReason(o, result, mySeat) {
  const why = (o && o.reason) || sideReason(result, mySeat) || reasonOf(result);
  return why ? `${why.charAt(0).toUpperCase()}${why.slice(1)}.` : "";
}

/** A seat's display name from a match summary's `seats` entry, whatever its exact shape. */
export function seatName(seat) {
  if (seat === null || seat === undefined) return "—";
  if (typeof seat === "string") return seat;
  if (seat.username) return seat.username;
  if (seat.user && typeof seat.user === "object" && seat.user.username) return seat.user.username;
  if (typeof seat.user === "string") return seat.user;
  const level = seat.bot_level || seat.level || (typeof seat.bot === "string" ? seat.bot : null);
  if (seat.bot || seat.kind === "bot" || seat.type === "bot" || level) {
    const lv = BOT_LEVELS[String(level).replace(/^.*[:_-]/, "")] || BOT_LEVELS[level];
    return lv ? t("Бот ({level})", { level: lv.toLowerCase() }) : t("Бот");
  }
  if (seat.name) return seat.name;
  return t("ожидается");
}

/** Result from the point of view of `mySeat`: {kind: "win"|"loss"|"draw", text, reason}. */
export function resultFor(result, mySeat) {
  if (!result) return null;
  const winner = result.winner;
  const reason = reasonOf(result);
  if (winner === null || winner === undefined) {
    return { kind: "draw", text: CALLED_OFF[result.reason] || t("Ничья"), reason };
  }
  if (mySeat === null || mySeat === undefined) return { kind: "draw", text: t("Победа игрока {n}", { n: winner + 1 }), reason };
  return winner === mySeat ? { kind: "win", text: t("Победа"), reason } : { kind: "loss", text: t("Поражение"), reason };
}

export const STATUS_NAMES = { open: t("ждёт соперника"), active: t("идёт"), finished: t("окончена"), aborted: t("прервана") };

/** An API timestamp (ISO 8601 with a zone) as local date and time, "—" when missing or malformed. */
export function formatTime(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString(LOCALE);
}

/** A match result for a neutral reader (admins): "Победа: alice (сдача)", "Ничья (…)", "—" while unknown.
 *  `seats`: the summary's seats, used when the result carries no names. */
export function resultText(result, seats = []) {
  if (!result) return "—";
  const reason = reasonOf(result);
  const suffix = reason ? ` (${reason})` : "";
  if (result.winner === null || result.winner === undefined) {
    return CALLED_OFF[result.reason] || t("Ничья") + suffix;
  }
  const names = Array.isArray(result.names) ? result.names : [];
  const raw = names[result.winner];
  const who = raw ? (String(raw).startsWith("bot:") ? seatName({ bot: String(raw).slice(4) }) : raw) : seatName(seats[result.winner]);
  return t("Победа: {who}", { who }) + suffix;
}
