// The shared base of the four games' match-page renderers (the contract is in the header of match.js).
// match.js keeps the page (the socket through live.js, the log, the result banner, the clock through
// matchbar.js); this module keeps what every renderer had copied: the reader's seat and the view on screen,
// the action lock (one action in flight at a time, none while offline), the turn line's common cases, the
// result's title and kind, the seat words («Вы», «соперник», a spectator's names) and the server-worded log
// line. A game supplies its board and controls as hooks (see makeRenderer). DOM-free: tests/js runs it in node.

import { t } from "./i18n.js";
import { seatName } from "./names.js";

/** The state one renderer shares with its game code: the view on screen, the reader's seat (null: a
 *  spectator or an admin), the legal actions, and the two reasons not to act (an action in flight, offline). */
export function createState() {
  return { view: null, you: null, legal: [], locked: false, offline: false };
}

/** The log line the server worded for this reader (duelclub/words/<slug>.py), or null. */
export const describeLine = (ev) => (ev && ev.line) || null;

/** Whether the match is over for the turn line: ended, aborted, or the view's own phase "over". */
export const isOver = (msg, v) => msg.status === "finished" || msg.status === "aborted" || (!!v && v.phase === "over");

/** The turn line (match.js #turn): {text, cls}. The common cases come first — no view yet («…»), over
 *  («Партия окончена»), offline («Переподключение…») — then the game's own words, `own(msg, view)`. */
export function turnLine(st, msg, own) {
  const v = msg.view;
  if (!v) return { text: "…" };
  if (isOver(msg, v)) return { text: t("Партия окончена"), cls: "turn-over" };
  if (st.offline) return { text: t("Переподключение…"), cls: "turn-offline" };
  return own(msg, v);
}

/** Whose move it is, in the plain words three games use: a spectator reads «Ходит {name}», a player
 *  «Ваш ход» (or `mine`, the game's variant) or «Ход соперника». */
export function whoseTurn(you, active, nameOf, mine = null) {
  if (you === null) return { text: t("Ходит {name}", { name: nameOf(active) }) };
  if (active !== you) return { text: t("Ход соперника"), cls: "turn-theirs" };
  return mine || { text: t("Ваш ход"), cls: "turn-mine" };
}

/** A seat that is not a seat: no winner (a draw) or not yet known. */
export const noSeat = (w) => w === null || w === undefined;

/** The result banner's head for reader `you` (null: a spectator): {kind: "win"|"loss"|"draw", text}; a
 *  spectator reads «Победа: {name}» with `named(winner)`. */
export function resultHead(winner, you, named) {
  if (noSeat(winner)) return { kind: "draw", text: t("Ничья") };
  if (you === null) return { kind: "draw", text: t("Победа: {name}", { name: named(winner) }) };
  return winner === you ? { kind: "win", text: t("Победа") } : { kind: "loss", text: t("Поражение") };
}

/** The result of the match a state message carries (its own, or its view's outcome), or null. */
export function resultOf(msg, view) {
  const v = msg.view || view;
  return msg.result || (v && v.outcome) || null;
}

/** One reason said three ways: `mine` when `seat` is the reader's, `theirs` for the opponent, and `named` (a
 *  translated text holding the placeholder `slot`, «{name}» by default) for a spectator. */
export function bySeat(you, seat, mine, theirs, named, nameOf, slot = "{name}") {
  if (seat === you) return mine;
  return you === null ? named.replace(slot, nameOf(seat)) : theirs;
}

/** The seat words of one renderer, reading the reader's seat from `st` as it changes: nameOf(seat) (the
 *  member's name, «Игрок N» without one), who / whoLc («Вы», «Соперник», or the name for a spectator; lower-case
 *  inside a sentence) and label (the strip's heading «Вы: alice» / «Соперник: bob»). */
export function seatWords(st, seats, username) {
  const nameOf = (seat) => (seats[seat] ? seatName(seats[seat]) : t("Игрок {n}", { n: seat + 1 }));
  const who = (seat) => (seat === st.you ? t("Вы") : st.you === null ? nameOf(seat) : t("Соперник"));
  const whoLc = (seat) => (seat === st.you ? t("вы") : st.you === null ? nameOf(seat) : t("соперник"));
  const label = (seat) =>
    st.you === null
      ? nameOf(seat)
      : seat === st.you
        ? t("Вы: {name}", { name: username })
        : t("Соперник: {name}", { name: seatName(seats[seat]) });
  const by = (seat, mine, theirs, named, slot) => bySeat(st.you, seat, mine, theirs, named, nameOf, slot);
  return { nameOf, who, whoLc, label, by };
}

/** A reader with no seat yet takes `seat` when it is one (a spectator's view or message that names its seat). */
export function fillSeat(st, seat) {
  if (st.you === null && typeof seat === "number") st.you = seat;
}

/** A logged action in words (the admins' action log, match.js actionText): «{who}: …» from the game's
 *  `words` table, kind → (actor, action) → text; a resignation reads «{who}: сдача» in every game; an unknown
 *  kind (or no action) is null. `who(seat)` names the actor. */
export function actionLine(words, who, action, seat) {
  const kind = action && action.kind;
  if (kind === "resign") return who(seat) + ": " + t("сдача");
  const say = kind && Object.hasOwn(words, kind) ? words[kind] : null;
  return say ? say(who(seat), action) : null;
}

/** The action lock: whether an action may be sent now and, if so, locked until the next state or an error
 *  (renderer.unlock). Nothing is sent while offline unless `whileOffline` (Сундук войны: live.js then falls
 *  back to HTTP). */
export function takeLock(st, whileOffline = false) {
  if (st.locked || (st.offline && !whileOffline)) return false;
  st.locked = true;
  return true;
}

/** The players of a match page (ctx.info.seats), [] when unknown. */
export const seatsOf = (ctx) => (ctx.info && Array.isArray(ctx.info.seats) ? ctx.info.seats : []);

/** Take a state message into `st`: the view, the seat (msg.seat, else view[youKey]), the legal actions, and
 *  the lock released. Hides the board (ctx.root, ctx.side) while there is no view; returns whether there is one. */
export function adoptState(ctx, st, msg, youKey = "you") {
  st.view = msg.view;
  if (ctx.root) ctx.root.hidden = !st.view;
  if (ctx.side) ctx.side.hidden = !st.view;
  if (!st.view) return false;
  st.you = typeof msg.seat === "number" ? msg.seat : st.view[youKey];
  st.legal = Array.isArray(msg.legal) ? msg.legal : [];
  st.locked = false;
  return true;
}

/** Mark a node as (part of) the opponent's last action (lastmove.js); `fresh` animates it once. */
export function markNode(node, fresh, cls = "last-move", freshCls = "last-fresh") {
  if (node) node.classList.add(cls, ...(fresh ? [freshCls] : []));
}

/** The renderer object match.js drives, from a game's parts. `game` gives paint(msg) (after adoptState),
 *  repaint() (the controls again after the lock or the connection changed; may be absent), turn(msg, view)
 *  (the game's own turn words), outcome(msg) and the optional intro, actionText, markLast, onOffline(flag),
 *  and render(msg) to replace the default adopt-then-paint. */
export function makeRenderer(ctx, st, game) {
  const repaint = () => {
    if (st.view && game.repaint) game.repaint();
  };
  const render =
    game.render ||
    ((msg) => {
      if (adoptState(ctx, st, msg, game.youKey)) game.paint(msg);
    });
  const renderer = {
    render,
    turn: (msg) => turnLine(st, msg, game.turn),
    describe: game.describe || describeLine,
    unlock() {
      st.locked = false;
      if (game.onUnlock) game.onUnlock();
      repaint();
    },
    outcome: game.outcome,
    setOffline(flag) {
      st.offline = !!flag;
      if (game.onOffline) game.onOffline(st.offline);
      if (game.repaintOffline !== false) repaint();
    },
  };
  for (const key of ["intro", "actionText", "markLast", "secrets"]) if (game[key]) renderer[key] = game[key];
  return renderer;
}
