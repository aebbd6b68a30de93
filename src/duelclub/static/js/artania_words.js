// Артания и Куявия's words from the viewer's side (artania.js draws the board): deck and step names, the turn
// line, the result, the first log line, the admins' action log and the opponent's last move. DOM-free (tests/js).

import { t } from "./i18n.js";
import { actionLine, fillSeat, markNode, resultHead, resultOf } from "./renderbase.js";

export const DECK_NAMES = { artania: "Артания", kuyavia: "Куявия" };
// The engine's step codes (W0…W4 windows, P1…P4 placements; rules/artania.md §A turn) in words.
const windowWord = (n) => t("окно снаряжения {n} из 5", { n });
const placeWord = (n) => t("выставление {n} из 4", { n });
const STEP_WORDS = {
  W0: windowWord(1), W1: windowWord(2), W2: windowWord(3), W3: windowWord(4),
  W4: t("последнее окно снаряжения"),
  P1: placeWord(1), P2: placeWord(2), P3: placeWord(3), P4: placeWord(4),
};
export const stepWord = (code) => STEP_WORDS[code] || t("окно снаряжения");
/** The words: the turn line, the result, the first log line, the admins' action log and the last move. */
export function wordsPart(ctx, st, g) {
  const { name, me, nameOf, who, by, whoGen, fieldBox } = g;
  /** The turn line after the common cases (renderbase.js turnLine). */
  function turnOwn(_msg, v) {
    const actor = v.to_move[0];
    if (st.you === null) return { text: t("Действует {name}", { name: nameOf(actor) }) };
    return actor === st.you ? { text: t("Ваш ход"), cls: "turn-mine" } : { text: t("Ход соперника"), cls: "turn-theirs" };
  }

  /** The result for this reader: {kind, title, reason}; the reason is a sentence naming who did what. */
  function outcomeWords(result) {
    const w = result.winner;
    const none = w === null || w === undefined;
    const head = resultHead(w, st.you, nameOf);

    const tokens = (st.view && st.view.tokens) || result.tokens || [0, 0];
    const score = { a: tokens[me()], b: tokens[1 - me()] };
    // Three translated phrasings of one reason: the reader's own seat, the opponent, a named player (by).

    let reason = "";
    if (result.reason === "five_tokens" && !none) {
      reason = by(w, t("Вы первыми собрали пять кругляшей"), t("Соперник первым собрал пять кругляшей"), t("{name} первым собрал пять кругляшей"));
    } else if (result.reason === "deck_exhausted") {
      reason = none
        ? t("Колода закончилась, кругляшей поровну ({a} : {b})", score)
        : by(w, t("Колода закончилась, у вас больше кругляшей ({a} : {b})", score),
          t("Колода закончилась, у соперника больше кругляшей ({a} : {b})", score),
          t("Колода закончилась, больше кругляшей у игрока {name} ({a} : {b})", score));
    } else if (result.reason === "resign" && !none) {
      reason = by(1 - w, t("Вы сдались"), t("Соперник сдался"), t("{name} сдаётся"));
    } else if (result.reason === "aborted" || result.reason === "abort") {
      reason = t("Партию остановил администратор");
    } else if (result.reason === "tournament_cancelled") {
      reason = t("Турнир отменён");
    }
    return { kind: head.kind, title: head.text, reason };
  }

  function outcome(msg) {

    const result = resultOf(msg, st.view);
    if (!result) return null;
    fillSeat(st, msg.seat);
    const o = outcomeWords(result);
    return { kind: o.kind, text: o.title, reason: o.reason };
  }

  function intro(v) {
    fillSeat(st, v.you);
    const first = v.results && v.results.length ? v.results[0].first : v.turn === 1 ? v.first : null;
    const deck = typeof v.you === "number" ? " " + t("Ваша колода: {deck}.", { deck: DECK_NAMES[v.sides[v.you]] }) : "";
    if (first === null) return { text: t("Партия началась.") + deck, cls: "log-season" };
    const starter =
      first === st.you
        ? t("первыми действуете вы")
        : st.you === null
          ? t("первым действует {name}", { name: nameOf(first) })
          : t("первым действует соперник");
    return { text: t("Ход 1: по жребию {starter}.", { starter }) + deck, cls: "log-season" };
  }

  const ACTION_WORDS = {
    place: (actor, action) => `${actor}: ${action.cards.map(name).join(", ")}`,
    pass: (actor) => t("{who}: пас", { who: actor }),
    nektar: (actor, action) => t("{who}: Нектар → {whose} слот {n}", { who: actor, whose: whoGen(action.seat), n: action.slot }),
    idol: (actor, action) => t("{who}: Идол гнева → слот {n}", { who: actor, n: action.slot }),
    chasy: (actor, action) => t("{who}: Часы Базилевса, сброс {card}", { who: actor, card: name(action.discard) }),
  };
  const actionText = (action, seat) => actionLine(ACTION_WORDS, who, action, seat);

  /** The opponent's last action on the board (lastmove.js): the slots they filled, the warrior their Нектар
   *  or Идол touched; `fresh` animates it once. */
  function markLast(events, fresh) {
    for (const ev of events) {
      const spots = [];
      if (ev.kind === "place") for (const c of ev.cards || []) spots.push([ev.seat, c.slot]);
      if (ev.kind === "nektar" || ev.kind === "idol") spots.push([ev.target_seat, ev.slot]);
      for (const [s, slot] of spots) {
        const cell = fieldBox.querySelector(`.art-slot[data-seat="${s}"][data-slot="${slot}"]`);
        markNode(cell, fresh);
      }
    }
  }
  return { turnOwn, outcomeWords, outcome, intro, actionText, markLast };
}
