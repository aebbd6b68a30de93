// Match page, ratings (issue 14): the players' names with their ratings and whether the match is rated
// («рейтинговая» / «товарищеская», or the tournament it is a board of), the rating change on the result («Рейтинг: 1512 (+12)»), and
// «Отменить партию» while not both players have made their first action.
// match.js feeds it: info(summary) whenever GET /api/matches/{id} is read, state(msg) for every state.
// Test hooks: #match-players[data-rated], #result-rating[data-delta] (the viewer's change).
import { el, post, toast } from "./api.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { memberLink, ratingBadge } from "./rating.js";

const $ = (id) => document.getElementById(id);
const ENDED = new Set(["finished", "aborted"]);

export class MatchStanding {
  constructor(matchId) {
    this.matchId = matchId;
    this.summary = null;
    this.seat = null;
    this.status = null;
    this.abortable = false;
    this.offline = false;
    this.aborting = false;
    const btn = $("abort-match");
    if (btn) btn.addEventListener("click", () => this._abort());
  }

  /** The match summary: seats with their ratings, rated or casual. */
  info(summary) {
    this.summary = summary;
    if (!this.status) this.status = summary.status;
    this._paintPlayers();
    this._paintResult();
  }

  /** A state payload: the viewer's seat, the status, whether the match may still be aborted. */
  state(msg) {
    this.seat = typeof msg.seat === "number" ? msg.seat : null;
    this.status = msg.status;
    this.abortable = !!msg.abortable;
    this._paintAbort();
    this._paintResult();
  }

  setOffline(off) {
    this.offline = !!off;
    this._paintAbort();
  }

  _paintPlayers() {
    const box = $("match-players");
    const s = this.summary;
    if (!box || !s || !Array.isArray(s.seats)) return;
    const ended = ENDED.has(s.status);
    const who = (seat) => {
      if (!seat.username) return el("span", { class: "member" }, seatName(seat));
      // Once a rated match has ended, the rating it left is shown with its change on the result instead.
      return memberLink(seat.username, ended && s.rated ? null : seat.rating);
    };
    const parts = [who(s.seats[0]), el("span", { class: "match-players__vs", "aria-hidden": "true" }, "—"), who(s.seats[1])];
    const anyRating = s.seats.some((x) => x.rating);
    if (s.tournament) {
      // A tournament board: the tournament, linked, rather than «товарищеская» (a bot board is unrated).
      parts.push(
        el(
          "a",
          { class: "badge badge-tournament", href: `/tournaments/${encodeURIComponent(s.tournament.id)}` },
          t("турнир «{name}»", { name: s.tournament.name }),
        ),
      );
      if (s.rated) parts.push(el("span", { class: "badge badge-rated" }, t("рейтинговая")));
    } else if (anyRating || s.rated) {
      parts.push(
        el(
          "span",
          { class: `badge ${s.rated ? "badge-rated" : "badge-casual"}` },
          s.rated ? t("рейтинговая") : t("товарищеская"),
        ),
      );
    }
    box.replaceChildren(...parts);
    box.dataset.rated = s.rated ? "1" : "0";
    box.hidden = false;
  }

  _paintResult() {
    const box = $("result-rating");
    const s = this.summary;
    if (!box) return;
    const changed = s && s.rated && ENDED.has(s.status) && s.seats.some((x) => x.rating && typeof x.rating.delta === "number");
    if (!changed || !ENDED.has(this.status || "")) {
      box.hidden = true;
      return;
    }
    const mine = this.seat !== null ? s.seats[this.seat] : null;
    if (mine && mine.rating) {
      // «Ваш рейтинг: 1512 (+12)», then the opponent's.
      const other = s.seats[1 - this.seat];
      box.replaceChildren(
        el("span", {}, t("Ваш рейтинг:") + " "),
        ratingBadge(mine.rating, { delta: true }),
        other && other.rating ? el("span", { class: "muted" }, " · " + t("соперник:") + " ") : "",
        other && other.rating ? ratingBadge(other.rating, { delta: true }) : "",
      );
      box.dataset.delta = String(mine.rating.delta);
    } else {
      box.replaceChildren(
        ...s.seats.flatMap((x, i) => [
          i ? el("span", { class: "muted" }, " · ") : "",
          el("span", {}, seatName(x) + " "),
          ratingBadge(x.rating, { delta: true }),
        ]),
      );
      delete box.dataset.delta;
    }
    box.hidden = false;
  }

  _paintAbort() {
    const btn = $("abort-match");
    if (!btn) return;
    const show = this.abortable && this.seat !== null && this.status === "active";
    btn.hidden = !show;
    btn.disabled = !show || this.offline || this.aborting;
  }

  async _abort() {
    this.aborting = true;
    this._paintAbort();
    try {
      await post(`/api/matches/${encodeURIComponent(this.matchId)}/abort`, {});
    } catch (err) {
      const words = {
        abort_too_late: t("Отменить уже нельзя: оба игрока сделали ход. Можно только сдаться."),
        abort_not_allowed: t("Партию турнира отменить нельзя."),
      };
      toast(words[err.code] || err.message);
    } finally {
      this.aborting = false;
      this._paintAbort();
    }
  }
}

/** A tournament board that ended before both first moves (reason `unplayed` or `no_first_move`, `seat` the
 *  one at fault): the tournament scores it as a forfeit, lost by that seat and won by the other
 *  (play/tournament_boards.py board_result), so the banner says so rather than «не в счёт»: {kind, text,
 *  reason} from the viewer's side; null for any other result. */
export function forfeitWords(result, mySeat) {
  if (!result || !["unplayed", "no_first_move"].includes(result.reason) || ![0, 1].includes(result.seat)) return null;
  const resigned = result.ended_by === "resign";
  if (mySeat === null || mySeat === undefined) {
    const names = Array.isArray(result.names) ? result.names : [];
    const loser = names[result.seat] || t("игрок");
    return {
      kind: "draw",
      text: t("Победа без игры: {name}", { name: names[1 - result.seat] || t("соперник") }),
      reason: resigned
        ? t("{name}: сдача до первых ходов — в турнире это поражение без игры.", { name: loser })
        : t("{name}: первый ход не сделан вовремя — в турнире это поражение без игры.", { name: loser }),
    };
  }
  if (result.seat === mySeat) {
    return {
      kind: "loss",
      text: t("Поражение без игры"),
      reason: resigned
        ? t("Вы сдались до первых ходов — в турнире это поражение без игры.")
        : t("Вы не сделали первый ход вовремя — в турнире это поражение без игры."),
    };
  }
  return {
    kind: "win",
    text: t("Победа без игры"),
    reason: resigned
      ? t("Соперник сдался до первых ходов — в турнире это победа без игры.")
      : t("Соперник не сделал первый ход вовремя — в турнире это победа без игры."),
  };
}

/** The words of an abort for the result banner, from the viewer's side: {text, reason}; null otherwise (a
 *  match of a cancelled tournament says so, never «администратор»). */
export function abortWords(result, mySeat) {
  if (!result) return null;
  const mine = mySeat !== null && result.seat === mySeat;
  if (result.reason === "player_abort") {
    return {
      text: t("Партия отменена"),
      reason: mySeat === null ? t("Игрок отменил партию до первых ходов — она не в счёт.") : mine ? t("Вы отменили партию до первых ходов — она не в счёт.") : t("Соперник отменил партию до первых ходов — она не в счёт."),
    };
  }
  if (result.reason === "no_first_move") {
    return {
      text: t("Партия отменена"),
      reason: mySeat === null ? t("Игрок не сделал первый ход вовремя — партия не в счёт.") : mine ? t("Вы не сделали первый ход вовремя — партия не в счёт.") : t("Соперник не сделал первый ход вовремя — партия не в счёт."),
    };
  }
  if (result.reason === "unplayed") return unplayedWords(result, mySeat, mine);
  if (result.reason === "tournament_cancelled") {
    return { text: t("Турнир отменён"), reason: t("Турнир отменили, пока шла партия, — она прервана и не в счёт, рейтинг не изменился.") };
  }
  return null;
}

/** A match that ended before both first moves (issue 31 §1): aborted, not rated. */
function unplayedWords(result, mySeat, mine) {
  const pick = (other, own, theirs) => (mySeat === null ? other : mine ? own : theirs);
  let reason;
  if (result.ended_by === "resign") {
    reason = pick(
      t("Игрок сдался до первых ходов обоих игроков — партия отменена и не в счёт, рейтинг не изменился."),
      t("Вы сдались до первых ходов обоих игроков — партия отменена и не в счёт, рейтинг не изменился."),
      t("Соперник сдался до первых ходов обоих игроков — партия отменена и не в счёт, рейтинг не изменился."),
    );
  } else if (result.ended_by === "abandoned") {
    reason = pick(
      t("Игрок ушёл, не сделав первого хода, — партия отменена и не в счёт, рейтинг не изменился."),
      t("Вы ушли, не сделав первого хода, — партия отменена и не в счёт, рейтинг не изменился."),
      t("Соперник ушёл, не сделав первого хода, — партия отменена и не в счёт, рейтинг не изменился."),
    );
  } else {
    reason = t("Партия закончилась до первых ходов обоих игроков — она не в счёт, рейтинг не изменился.");
  }
  return { text: t("Партия отменена"), reason };
}
