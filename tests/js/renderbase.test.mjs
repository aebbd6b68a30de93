// node --test tests/js/ (run by tests/test_js_units.py): the renderers' shared base (renderbase.js), DOM-free.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  actionLine,
  adoptState,
  bySeat,
  createState,
  describeLine,
  fillSeat,
  isOver,
  makeRenderer,
  markNode,
  noSeat,
  resultHead,
  resultOf,
  seatWords,
  seatsOf,
  takeLock,
  turnLine,
  whoseTurn,
} from "../../src/duelclub/static/js/renderbase.js";

const SEATS = [{ username: "alice" }, { username: "bob" }];

test("a fresh state shows nothing, has no seat, no legal actions, and is neither locked nor offline", () => {
  assert.deepEqual(createState(), { view: null, you: null, legal: [], locked: false, offline: false });
});

test("the lock lets one action through, then none until it is released", () => {
  const st = createState();
  assert.equal(takeLock(st), true);
  assert.equal(st.locked, true);
  assert.equal(takeLock(st), false);
  st.locked = false;
  assert.equal(takeLock(st), true);
});

test("nothing is sent while offline, unless the game sends over HTTP meanwhile", () => {
  const st = createState();
  st.offline = true;
  assert.equal(takeLock(st), false);
  assert.equal(st.locked, false);
  assert.equal(takeLock(st, true), true);
  assert.equal(takeLock(st, true), false, "still one action at a time");
});

test("a state is adopted: view, seat (msg.seat first, else the view's), legal actions, and the lock released", () => {
  const st = createState();
  st.locked = true;
  const root = { hidden: true };
  const side = { hidden: true };
  assert.equal(adoptState({ root, side }, st, { seat: 1, view: { you: 0 }, legal: [{ kind: "pass" }] }), true);
  assert.equal(st.you, 1);
  assert.deepEqual(st.legal, [{ kind: "pass" }]);
  assert.equal(st.locked, false);
  assert.equal(root.hidden, false);
  assert.equal(side.hidden, false);
  adoptState({ root, side }, st, { view: { your_seat: 0 }, legal: "junk" }, "your_seat");
  assert.equal(st.you, 0);
  assert.deepEqual(st.legal, []);
});

test("a state without a view (never dealt) hides the board and keeps the seat", () => {
  const st = createState();
  st.you = 0;
  st.locked = true;
  const root = { hidden: false };
  assert.equal(adoptState({ root }, st, { view: null }), false);
  assert.equal(root.hidden, true);
  assert.equal(st.you, 0);
  assert.equal(st.locked, true, "nothing was adopted");
});

test("the turn line: «…» without a view, over, then offline, then the game's own words", () => {
  const st = createState();
  const own = () => ({ text: "own", cls: "turn-mine" });
  assert.deepEqual(turnLine(st, { view: null }, own), { text: "…" });
  assert.deepEqual(turnLine(st, { status: "finished", view: {} }, own), { text: "Партия окончена", cls: "turn-over" });
  assert.deepEqual(turnLine(st, { status: "aborted", view: {} }, own).text, "Партия окончена");
  assert.deepEqual(turnLine(st, { status: "active", view: { phase: "over" } }, own).text, "Партия окончена");
  st.offline = true;
  assert.deepEqual(turnLine(st, { status: "active", view: {} }, own), { text: "Переподключение…", cls: "turn-offline" });
  st.offline = false;
  assert.deepEqual(turnLine(st, { status: "active", view: {} }, own), { text: "own", cls: "turn-mine" });
});

test("isOver reads the status and the view's phase", () => {
  assert.equal(isOver({ status: "active" }, { phase: "play" }), false);
  assert.equal(isOver({ status: "active" }, null), false);
  assert.equal(isOver({ status: "finished" }, null), true);
});

test("whose turn: a spectator reads the mover's name, a player «Ваш ход» or «Ход соперника»", () => {
  const nameOf = (s) => ["alice", "bob"][s];
  assert.deepEqual(whoseTurn(null, 1, nameOf), { text: "Ходит bob" });
  assert.deepEqual(whoseTurn(0, 1, nameOf), { text: "Ход соперника", cls: "turn-theirs" });
  assert.deepEqual(whoseTurn(1, 1, nameOf), { text: "Ваш ход", cls: "turn-mine" });
  const extra = { text: "Ваш ход (ещё действие)", cls: "turn-mine" };
  assert.deepEqual(whoseTurn(1, 1, nameOf, extra), extra);
  assert.deepEqual(whoseTurn(0, 1, nameOf, extra).text, "Ход соперника", "the variant is only for the mover");
});

test("the result's head from each side: win, loss, a spectator's named winner, a draw", () => {
  const named = (s) => ["alice", "bob"][s];
  assert.deepEqual(resultHead(0, 0, named), { kind: "win", text: "Победа" });
  assert.deepEqual(resultHead(0, 1, named), { kind: "loss", text: "Поражение" });
  assert.deepEqual(resultHead(1, null, named), { kind: "draw", text: "Победа: bob" });
  assert.deepEqual(resultHead(null, 0, named), { kind: "draw", text: "Ничья" });
  assert.deepEqual(resultHead(undefined, null, named), { kind: "draw", text: "Ничья" });
});

test("the result comes from the message, else its view's outcome, else the view on screen", () => {
  assert.deepEqual(resultOf({ result: { winner: 0 } }, null), { winner: 0 });
  assert.deepEqual(resultOf({ view: { outcome: { winner: 1 } } }, null), { winner: 1 });
  assert.deepEqual(resultOf({}, { outcome: { winner: null } }), { winner: null });
  assert.equal(resultOf({ view: {} }, null), null);
});

test("noSeat is a draw's or an unknown winner", () => {
  assert.equal(noSeat(null), true);
  assert.equal(noSeat(undefined), true);
  assert.equal(noSeat(0), false);
});

test("one reason three ways: mine, the opponent's, a spectator's with the name in its slot", () => {
  const nameOf = (s) => ["alice", "bob"][s];
  assert.equal(bySeat(0, 0, "mine", "theirs", "{name} did", nameOf), "mine");
  assert.equal(bySeat(0, 1, "mine", "theirs", "{name} did", nameOf), "theirs");
  assert.equal(bySeat(null, 1, "mine", "theirs", "{name} did", nameOf), "bob did");
  assert.equal(bySeat(null, 0, "m", "t", "{who} did", nameOf, "{who}"), "alice did");
});

test("seat words follow the reader's seat as it changes", () => {
  const st = createState();
  const w = seatWords(st, SEATS, "alice");
  assert.equal(w.nameOf(1), "bob");
  assert.equal(w.nameOf(2), "Игрок 3", "a seat without a member");
  assert.equal(w.who(0), "alice");
  assert.equal(w.label(1), "bob");
  st.you = 0;
  assert.equal(w.who(0), "Вы");
  assert.equal(w.who(1), "Соперник");
  assert.equal(w.whoLc(0), "вы");
  assert.equal(w.whoLc(1), "соперник");
  assert.equal(w.label(0), "Вы: alice");
  assert.equal(w.label(1), "Соперник: bob");
  assert.equal(w.by(1, "m", "t", "{name}"), "t");
});

test("seatsOf reads the match info's seats, [] without them", () => {
  assert.deepEqual(seatsOf({ info: { seats: SEATS } }), SEATS);
  assert.deepEqual(seatsOf({ info: { seats: "x" } }), []);
  assert.deepEqual(seatsOf({}), []);
});

test("the log line is the server's worded line or null", () => {
  assert.equal(describeLine({ kind: "play", line: "Вы: Лучник" }), "Вы: Лучник");
  assert.equal(describeLine({ kind: "play" }), null);
  assert.equal(describeLine(null), null);
});

test("markNode adds the last-move classes, the fresh one only when fresh, and ignores a missing node", () => {
  const classes = [];
  const node = { classList: { add: (...c) => classes.push(...c) } };
  markNode(node, false);
  assert.deepEqual(classes, ["last-move"]);
  markNode(node, true, "wc-last", "wc-last-fresh");
  assert.deepEqual(classes, ["last-move", "wc-last", "wc-last-fresh"]);
  markNode(null, true);
});

test("the renderer: render adopts then paints, unlock and setOffline repaint, the turn line goes through the base", () => {
  const st = createState();
  const calls = [];
  const ctx = { root: { hidden: false }, side: null };
  const r = makeRenderer(ctx, st, {
    paint: () => calls.push("paint"),
    repaint: () => calls.push("repaint"),
    onOffline: (off) => calls.push(`offline:${off}`),
    turn: () => ({ text: "own" }),
    outcome: () => null,
    intro: () => ({ text: "intro" }),
  });
  r.unlock();
  assert.deepEqual(calls, [], "nothing to repaint before a view");
  r.render({ seat: 0, view: { you: 0 }, legal: [] });
  st.locked = true;
  r.unlock();
  assert.equal(st.locked, false);
  r.setOffline(1);
  assert.equal(st.offline, true);
  assert.deepEqual(calls, ["paint", "repaint", "offline:true", "repaint"]);
  assert.equal(r.turn({ status: "active", view: {} }).text, "Переподключение…");
  assert.equal(r.describe({ line: "x" }), "x");
  assert.equal(r.intro().text, "intro");
  assert.equal("markLast" in r, false, "an optional hook the game lacks stays absent");
});

test("the renderer keeps a game's own render, unlock step, and no repaint on going offline when asked", () => {
  const st = createState();
  const calls = [];
  const r = makeRenderer({ root: {} }, st, {
    render: () => calls.push("render"),
    repaint: () => calls.push("repaint"),
    repaintOffline: false,
    onUnlock: () => calls.push("unlock"),
    turn: () => ({ text: "own" }),
  });
  r.render({});
  st.view = {};
  r.setOffline(true);
  r.unlock();
  assert.deepEqual(calls, ["render", "unlock", "repaint"]);
});

test("an action in words: the game's table by kind, a resignation in every game, an unknown kind null", () => {
  const who = (seat) => ["Вы", "Соперник"][seat];
  const words = { pass: (actor) => `${actor}: пас`, play: (actor, a) => `${actor}: ${a.card}` };
  assert.equal(actionLine(words, who, { kind: "play", card: "x" }, 1), "Соперник: x");
  assert.equal(actionLine(words, who, { kind: "pass" }, 0), "Вы: пас");
  assert.equal(actionLine(words, who, { kind: "resign" }, 0), "Вы: сдача");
  assert.equal(actionLine(words, who, { kind: "toString" }, 0), null, "not a word of the table's prototype");
  assert.equal(actionLine(words, who, { kind: "fly" }, 0), null);
  assert.equal(actionLine(words, who, null, 0), null);
});

test("a reader without a seat takes the one a message names; a seated reader keeps theirs", () => {
  const st = createState();
  fillSeat(st, undefined);
  assert.equal(st.you, null);
  fillSeat(st, 1);
  assert.equal(st.you, 1);
  fillSeat(st, 0);
  assert.equal(st.you, 1);
});
