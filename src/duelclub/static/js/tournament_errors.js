// A tournament refusal in the page language (issue 26 §Bad input, QA). The API answers {code, message} with an
// English message for scripts (play/tournament_ops.py lists the codes); the pages word each code a member can
// cause here, as match.js, chat.js and invite.js do for theirs — never the raw message. Pure: node --test
// runs it (tests/js/tournament_errors.test.mjs).
import { t, tn } from "./i18n.js";
import { maxSwissRounds } from "./tournament_words.js";

const WORDS = {
  tournament_not_found: t("Турнир не найден: ссылка неверна или устарела."),
  not_organiser: t("Это может только организатор турнира (или администратор)."),
  already_joined: t("Вы уже участвуете в этом турнире."),
  not_joined: t("Вы не участник этого турнира."),
  too_few_players: t("Чтобы начать, нужно хотя бы два участника."),
  tournament_not_running: t("Турнир сейчас не идёт."),
  tournament_not_paused: t("Турнир не на паузе."),
  tournament_over: t("Турнир уже закончен или отменён."),
  already_withdrawn: t("Вы уже выбыли из турнира."),
  bad_bot_level: t("Такого уровня бота нет, или боты сейчас недоступны."),
  unknown_game: t("Такой игры нет."),
  bad_format: t("Выберите систему турнира."),
  bad_options: t("Эти настройки игры не подходят."),
  bad_clock: t("Такое время на ход не подходит для этой игры."),
  bad_rounds: t("Укажите число туров: от 1 до 50."),
  bad_minutes: t("Арена длится от 5 до 1440 минут."),
  bad_start: t("Начало — в ближайшие 60 дней и не в прошлом."),
  bad_name: t("Название — не длиннее 80 знаков."),
  bad_max_players: t("Участников может быть от 2 до 256."),
  bad_round_minutes: t("Время на тур — от 1 минуты до 7 дней (10080 минут)."),
  not_authenticated: t("Войдите заново: сессия закончилась."),
  csrf: t("Запрос отклонён (защита от подделки). Обновите страницу."),
};

/** A malformed body names its field first ("rounds: …"): the field's own words. */
const FIELDS = {
  rounds: "bad_rounds",
  minutes: "bad_minutes",
  max_players: "bad_max_players",
  round_minutes: "bad_round_minutes",
  name: "bad_name",
  starts_at: "bad_start",
  move_seconds: "bad_clock",
  options: "bad_options",
  level: "bad_bot_level",
};

/** Codes whose message api.js already words in the page language (no connection, the store down, the rate
 * limiter's «try again in …»). */
const WORDED = new Set(["network", "store_unavailable", "rate_limited"]);

function tooManyRounds(players, rounds, startsAt) {
  const most = maxSwissRounds(players);
  // the plural forms first: babel's extractor does not see a tn() nested in t()'s arguments
  const withPlayers = tn(players, "при {n} участнике", "при {n} участниках", "при {n} участниках");
  const mostRounds = tn(most, "{n} тура", "{n} туров", "{n} туров");
  const text = t("Слишком много туров: {players} без повторных встреч можно сыграть не больше {most}.", { players: withPlayers, most: mostRounds });
  return startsAt && rounds ? `${text} ${t("Если ждать назначенного времени, сервер начнёт турнир сам и сыграет столько туров, сколько позволят участники.")}` : text;
}

/** `err` (an ApiError: {status, code, message}) in the page language. `ctx`: what the page knows —
 * `action` (join, leave, withdraw, bots, start, pause, resume, cancel, create), `players` (joined so far; at
 * creation the chosen maximum), `rounds`, `maxPlayers`, `startsAt`. */
export function refusalText(err, ctx = {}) {
  const code = err && err.code;
  if (code === "tournament_started") {
    if (ctx.action === "leave") return t("Турнир уже начался: выйти нельзя, можно только выбыть.");
    if (ctx.action === "start") return t("Турнир уже начался.");
    return t("Турнир уже начался: записаться нельзя.");
  }
  if (code === "tournament_full") {
    const n = ctx.maxPlayers || 0;
    return n ? tn(n, "Мест нет: турнир набран ({n} участник).", "Мест нет: турнир набран ({n} участника).", "Мест нет: турнир набран ({n} участников).") : t("Мест нет: турнир набран.");
  }
  if (code === "too_many_rounds") return tooManyRounds(ctx.players || 0, ctx.rounds, ctx.startsAt);
  if (code === "malformed" && err.message) {
    const field = FIELDS[String(err.message).split(":")[0].trim()];
    return WORDS[field] || t("Проверьте поля формы.");
  }
  if (WORDS[code]) return WORDS[code];
  if (WORDED.has(code) && err.message) return err.message;
  if (err && err.status >= 500) return t("Ошибка сервера. Попробуйте ещё раз чуть позже.");
  if (err && err.status === 422) return t("Эти настройки игры не подходят.");
  return t("Не получилось ({code}).", { code: code || "?" });
}
