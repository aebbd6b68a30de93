// Дві вежі renderer (rules/towers.md §8.3): both towers and walls drawn to scale with the victory height,
// the three resources and producers of both players, the hand of six (click to play, «Сбросить» or a
// right-click to discard), the opponent's last cards, the battlefield, the deck badge and the event log.
// View shape: src/duelclub/games/towers/view.py; event shapes: src/duelclub/games/towers/events.py; each
// event's log line comes worded from src/duelclub/words/towers.py.

import { el } from "./api.js";
import { t, tn } from "./i18n.js";
import { lastTurn } from "./towers_last.js";
import { actionLine, createState, fillSeat, makeRenderer, markNode, resultHead, resultOf, seatWords, seatsOf, takeLock, whoseTurn } from "./renderbase.js";

export const STYLESHEET = true;

const SVG_NS = "http://www.w3.org/2000/svg";
// Card and battlefield names are proper names (the seed's Ukrainian words in both languages); card texts come
// from the catalog in the page's language; the rest of the board goes through t()/tn().
const RES = [
  { key: "ore", prod: "mines", colour: "red", name: t("Руда"), prodName: t("Шахты") },
  { key: "mana", prod: "monasteries", colour: "blue", name: t("Мана"), prodName: t("Монастыри") },
  { key: "troops", prod: "barracks", colour: "green", name: t("Отряды"), prodName: t("Казармы") },
];
const RES_OF = { red: "ore", blue: "mana", green: "troops" };
/** `n` of resource `key` in words: «5 руды», «1 отряд», «3 отряда». */
function resAmount(key, n) {
  if (key === "ore") return t("{n} руды", { n });
  if (key === "mana") return t("{n} маны", { n });
  return tn(n, "{n} отряд", "{n} отряда", "{n} отрядов");
}
const DECKS = { normal: t("Обычная колода"), infinite: t("Бесконечная колода") };
const PLAY_AGAIN = t("Играем снова");
const DRAW_DISCARD = t("Возьмите карту, сбросьте карту");
const TAG_WORD = {
  play: t("сыграна"),
  discard: t("сброшена"),
  forced_discard: t("сброшена (взять и сбросить)"),
  timeout_discard: t("сброшена по времени"),
};

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/** The page's parts: the catalog lookups, the seat words and the board's boxes (ctx.root, ctx.side). */
function skeleton(ctx, st) {
  const cat = ctx.catalog || {};
  const cards = new Map((cat.cards || []).map((c) => [c.id, c]));
  const fields = new Map((cat.battlefields || []).map((b) => [b.id, b]));
  const card = (id) => cards.get(id) || { id, name: t("Карта {id}", { id }), cost: 0, colour: "red", resource: "ore", text: "" };
  const oppStrip = el("div", { class: "tw-strip tw-strip-opp", id: "tw-opp" });
  const board = el("div", { class: "tw-board", id: "tw-board" });
  const meStrip = el("div", { class: "tw-strip tw-strip-me", id: "tw-me" });
  const lastBox = el("div", { class: "tw-last", id: "tw-last" });
  const handBox = el("div", { class: "tw-hand", id: "hand", role: "group", "aria-label": t("Ваша рука") });
  const hint = el("p", { class: "hint-line", id: "hint", "aria-live": "polite" });
  const handPanel = el(
    "section",
    { class: "panel hand-panel", id: "hand-panel", "aria-labelledby": "hand-title" },
    el("div", { class: "hand-head" }, el("h2", { id: "hand-title" }, t("Ваша рука"))),
    handBox,
    hint,
  );
  ctx.root.replaceChildren(oppStrip, board, meStrip, lastBox, handPanel);
  const sideInfo = el("section", { class: "panel tw-side", id: "tw-side" });
  if (ctx.side) ctx.side.replaceChildren(sideInfo);
  return {
    ctx,
    st,
    card,
    cname: (id) => `«${card(id).name}»`,
    fields,
    ...seatWords(st, seatsOf(ctx), ctx.username),
    oppStrip,
    board,
    meStrip,
    lastBox,
    handBox,
    hint,
    handPanel,
    sideInfo,
  };
}

const find = (g, kind, id) => g.st.legal.find((a) => a.kind === kind && a.card === id);

/** Clicks on the hand: a card plays (or discards, in a forced discard), «Сбросить» or a right-click discards. */
function wireHand(g) {
  const send = (kind, id) => {
    const action = find(g, kind, id);
    if (!action || !takeLock(g.st)) return;
    paintHand(g);
    g.ctx.act(action);
  };
  g.handBox.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-discard]");
    if (btn) {
      send("discard", Number(btn.dataset.discard));
      return;
    }
    const c = ev.target.closest("[data-card]");
    if (!c) return;
    const id = Number(c.dataset.card);
    send(g.st.view && g.st.view.phase === "forced_discard" ? "discard" : "play", id);
  });
  g.handBox.addEventListener("contextmenu", (ev) => {
    const c = ev.target.closest("[data-card]");
    if (!c) return;
    ev.preventDefault();
    send("discard", Number(c.dataset.card));
  });
}

// ---- painting ----------------------------------------------------------------------------------------
function strip(g, box, seat) {
  const view = g.st.view;
  const p = view.players[seat];
  const res = RES.map((r) =>
    el(
      "div",
      {
        class: `tw-res tw-res-${r.colour}`,
        title: t("{producer}: {n} (даёт {amount} за ход)", { producer: r.prodName, n: p[r.prod], amount: resAmount(r.key, p[r.prod]) }),
      },
      el("span", { class: "tw-res__name" }, r.name),
      el("b", { class: "tw-res__stock", dataset: { res: r.key, seat: String(seat) } }, String(p[r.key])),
      el("span", { class: "tw-res__prod" }, `${r.prodName}: ${p[r.prod]}`),
    ),
  );
  const active = view.active === seat;
  box.classList.toggle("is-active", active);
  box.replaceChildren(
    el(
      "div",
      { class: "tw-strip__who" },
      el("span", {}, g.label(seat)),
      el(
        "span",
        { class: "muted small" },
        t("башня {tower} · стена {wall} · карт в руке {n}", { tower: p.tower, wall: p.wall, n: view.hand_sizes[seat] }),
      ),
      view.timeouts[seat] ? el("span", { class: "chip tw-timeouts" }, t("пропусков по времени: {n}", { n: view.timeouts[seat] })) : null,
    ),
    el("div", { class: "tw-strip__res" }, ...res),
  );
}

function paintBoard(g) {
  const { view, you } = g.st;
  const W = 420;
  const H = 260;
  const base = H - 24;
  const top = 46; // room above the tallest tower for its roof and number
  const p = view.players;
  const target = view.targets.tower;
  const maxH = Math.max(target, p[0].tower, p[1].tower, p[0].wall, p[1].wall) * 1.04;
  const k = (base - top) / maxH;
  const me = you ?? 0;
  const order = [me, 1 - me];
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "tw-svg", role: "img", "aria-label": t("Башни и стены") });
  s.append(svg("rect", { x: 0, y: base, width: W, height: H - base, class: "tw-ground" }));
  const yT = base - target * k;
  s.append(svg("line", { x1: 6, x2: W - 6, y1: yT, y2: yT, class: "tw-target" }));
  s.append(svg("text", { x: W / 2, y: yT - 4, class: "tw-target__label", "text-anchor": "middle" }, t("цель: башня {n}", { n: target })));
  order.forEach((seat, i) => {
    const left = i === 0;
    const tx = left ? 40 : W - 40 - 56;
    const wx = left ? 40 + 56 + 26 : W - 40 - 56 - 26 - 18;
    const th = p[seat].tower * k;
    const wh = p[seat].wall * k;
    // Each player's colour stays theirs for every reader: seat 0 (or «you») green, the other pink.
    const cls = (you === null ? seat === 0 : seat === you) ? "tw-mine" : "tw-theirs";
    const tower = svg("g", { class: `tw-tower ${cls}` });
    tower.setAttribute("data-seat", String(seat));
    tower.append(svg("rect", { x: tx, y: base - th, width: 56, height: th, class: "tw-tower__body" }));
    tower.append(svg("polygon", { points: `${tx - 4},${base - th} ${tx + 28},${base - th - 16} ${tx + 60},${base - th}`, class: "tw-tower__roof" }));
    tower.append(svg("text", { x: tx + 28, y: base - th - 20, "text-anchor": "middle", class: "tw-num" }, String(p[seat].tower)));
    s.append(tower);
    const wall = svg("g", { class: `tw-wall ${cls}`, "data-seat": String(seat) });
    wall.append(svg("rect", { x: wx, y: base - wh, width: 18, height: wh, class: "tw-wall__body" }));
    wall.append(svg("text", { x: wx + 9, y: base - wh - 4, "text-anchor": "middle", class: "tw-num tw-num-wall" }, String(p[seat].wall)));
    s.append(wall);
    s.append(svg("text", { x: left ? 40 : W - 40 - 56, y: H - 6, class: "tw-caption" }, g.whoLc(seat)));
  });
  g.board.replaceChildren(s);
}

function cardEl(g, id, opts = {}) {
  const c = g.card(id);
  const res = RES_OF[c.colour] || c.resource;
  const flags = [c.play_again ? PLAY_AGAIN : null].filter(Boolean);
  return el(
    opts.button ? "button" : "div",
    {
      class: `tw-card tw-card-${c.colour}${opts.dim ? " is-dim" : ""}${opts.small ? " tw-card-small" : ""}`,
      type: opts.button ? "button" : undefined,
      dataset: opts.button ? { card: String(id) } : { shown: String(id) },
      title: `${c.name} — ${resAmount(res, c.cost)}. ${c.text}` + (opts.dim ? t(" (не хватает ресурса: можно только сбросить)") : ""),
      disabled: opts.disabled || undefined,
    },
    el("span", { class: "tw-card__cost" }, String(c.cost)),
    el("span", { class: "tw-card__name" }, c.name),
    opts.small && !opts.text ? null : el("span", { class: "tw-card__text" }, c.text),
    opts.small || !flags.length ? null : el("span", { class: "tw-card__flag" }, flags.join(", ")),
    opts.tag ? el("span", { class: "tw-card__tag" }, TAG_WORD[opts.tag] || opts.tag) : null,
  );
}

/** The hand's hint line for the reader. */
function handHint(view, you, mine, forced) {
  if (you === null) return "";
  if (view.phase === "over") return "";
  if (!mine) return t("Ход соперника.");
  if (forced) return t("«{effect}»: выберите карту для сброса.", { effect: DRAW_DISCARD });
  if (view.phase === "extra") return t("«{effect}»: ещё одно действие — сыграйте карту или сбросьте.", { effect: PLAY_AGAIN });
  return TOUCH
    ? t("Нажмите карту, чтобы сыграть её; «Сбросить» — сбросить без эффекта.")
    : t("Нажмите карту, чтобы сыграть её; «Сбросить» (или правая кнопка мыши) — сбросить без эффекта.");
}

/** A touch screen without a mouse: the hint does not offer the right button. */
const TOUCH = typeof matchMedia === "function" && matchMedia("(hover: none) and (pointer: coarse)").matches;

function paintHand(g) {
  const { view, you, locked, offline } = g.st;
  const mine = you !== null && view.active === you && view.phase !== "over";
  const forced = view.phase === "forced_discard";
  const hand = Array.isArray(view.hand) ? view.hand : [];
  g.handBox.replaceChildren(
    ...hand.map((id) => {
      const canPlay = !!find(g, "play", id);
      const canDiscard = !!find(g, "discard", id);
      const usable = mine && !locked && !offline;
      const wrap = el("div", { class: "tw-slot" });
      const btn = cardEl(g, id, { button: true, dim: !forced && !canPlay, disabled: !usable || (forced ? !canDiscard : !canPlay) });
      // Unaffordable cards stay clickable for the right-click discard.
      if (usable && !forced && !canPlay && canDiscard) btn.removeAttribute("disabled");
      if (usable && !forced && !canPlay) btn.setAttribute("aria-disabled", "true");
      wrap.append(
        btn,
        el(
          "button",
          { type: "button", class: "btn btn-secondary tw-discard", dataset: { discard: String(id) }, disabled: !usable || !canDiscard || undefined },
          forced ? t("Сбросить эту") : t("Сбросить"),
        ),
      );
      return wrap;
    }),
  );
  g.hint.textContent = handHint(view, you, mine, forced);
}

function paintLast(g) {
  const { view, you } = g.st;
  const seats = you === null ? [0, 1] : [1 - you];
  g.lastBox.replaceChildren(
    ...seats.map((s) => {
      const { cards, previous } = lastTurn(view, s);
      return el(
        "section",
        { class: "tw-last__row", id: s === (you ?? 0) ? "tw-last-me" : "tw-last-opp", dataset: { previous: previous ? "1" : "0" } },
        el("h3", {}, lastHeading(g, s, you, previous)),
        cards.length
          ? el("div", { class: "tw-last__cards" + (previous ? " tw-last__cards--previous" : "") }, ...cards.map((e) => cardEl(g, e.card, { small: true, text: true, tag: e.tag })))
          : el("p", { class: "muted small" }, "—"),
      );
    }),
  );
}

/** «Последний ход соперника», or «Прошлый ход соперника» while the seat is to move and its previous turn is
 *  shown (towers_last.js); a spectator reads the player's name. */
function lastHeading(g, s, you, previous) {
  if (you === null) {
    const name = g.nameOf(s);
    return previous ? t("Прошлый ход: {name}", { name }) : t("Последний ход: {name}", { name });
  }
  return previous ? t("Прошлый ход соперника") : t("Последний ход соперника");
}

/** The public discard pile (rules §8.3), newest first, folded under «Сброс (N)»; stays open across turns. */
function discardPile(g) {
  const was = g.sideInfo.querySelector("#tw-discard-pile");
  const pile = [...g.st.view.discard].reverse();
  return el(
    "details",
    { class: "tw-pile", id: "tw-discard-pile", open: was && was.open ? "" : undefined },
    el("summary", {}, pile.length ? t("Сброс: {n} (последняя сверху)", { n: pile.length }) : t("Сброс: {n}", { n: 0 })),
    pile.length
      ? el("ol", { class: "tw-pile__list" }, ...pile.map((id) => {
        const c = g.card(id);
        return el("li", { class: `tw-pile__card tw-pile-${c.colour}`, title: c.text, dataset: { card: String(id) } },
          `${c.name} (${c.cost})`);
      }))
      : el("p", { class: "small muted" }, t("Пока пусто.")),
  );
}

function paintSide(g) {
  const view = g.st.view;
  const bf = g.fields.get(view.battlefield);
  const name = bf ? bf.name : view.battlefield;
  // replaceChildren would print a null as the text «null»: drop the parts this deck type has not got.
  g.sideInfo.replaceChildren(...[
    el("h2", {}, name),
    el(
      "p",
      { id: "tw-targets" },
      t("Победа: башня {tower}, или {resource} любого ресурса, или разрушить башню соперника.", view.targets),
    ),
    el("p", {}, el("span", { class: `chip tw-deck tw-deck-${view.deck}`, id: "tw-deck" }, DECKS[view.deck] || view.deck)),
    view.deck === "normal"
      ? el("p", { class: "small muted" }, t("В колоде {pile}, в сбросе {discard}", { pile: view.pile_size, discard: view.discard.length }))
      : el("p", { class: "small muted" }, t("Каждая карта тянется из всех 102 с равной вероятностью.")),
    view.deck === "normal" && Array.isArray(view.discard) ? discardPile(g) : null,
    el("p", { class: "small muted" }, t("Ход {n}", { n: view.turn })),
  ].filter(Boolean));
}

function paintInfoBar(g) {
  const view = g.st.view;
  if (!g.ctx.infoBar) return;
  const bf = g.fields.get(view.battlefield);
  g.ctx.infoBar.replaceChildren(
    el("span", { class: "chip", id: "tw-field-chip" }, t("Поле: {name}", { name: bf ? bf.name : view.battlefield })),
    el("span", { class: "chip" }, t("Цель: башня {tower} / ресурс {resource}", view.targets)),
    el("span", { class: "chip" }, DECKS[view.deck] || view.deck),
    el("span", { class: "chip" }, t("Ход {n}", { n: view.turn })),
  );
}

function paintAll(g) {
  const { view, you } = g.st;
  const me = you ?? 0;
  strip(g, g.oppStrip, 1 - me);
  strip(g, g.meStrip, me);
  paintBoard(g);
  paintHand(g);
  paintLast(g);
  paintSide(g);
  paintInfoBar(g);
  g.handPanel.hidden = you === null || view.phase === "over";
}

// ---- words -------------------------------------------------------------------------------------------
/** The turn line after the common cases (renderbase.js turnLine). */
export function turnWords(g, v) {
  const you = g.st.you;
  if (you !== null && v.active === you && v.phase === "forced_discard") return { text: t("Сбросьте карту"), cls: "turn-mine" };
  const extra = v.phase === "extra" ? { text: t("Ваш ход (ещё действие)"), cls: "turn-mine" } : null;
  return whoseTurn(you, v.active, g.nameOf, extra);
}

/** The result banner for this reader: {kind, text, reason}; the reason is a sentence naming who did what. */
export function outcome(g, msg) {
  const result = resultOf(msg, g.st.view);
  if (!result) return null;
  fillSeat(g.st, msg.seat);
  const view = g.st.view;
  const w = result.winner;
  const head = resultHead(w, g.st.you, g.nameOf);
  const none = w === null || w === undefined;
  const loser = none ? null : 1 - w;
  const goal = { n: view ? view.targets.tower : "" };
  const stock = { n: view ? view.targets.resource : "" };
  // Three translated phrasings of one reason: the reader's own seat, the opponent, a named player.
  const by = g.by;
  const reasons = none
    ? {
        draw: t("Оба игрока выполнили условие победы одновременно"),
        turn_limit: t("Сыграно 500 ходов без результата"),
      }
    : {
        destruction: by(loser, t("Ваша башня разрушена"), t("Башня соперника разрушена"), t("Башня игрока {name} разрушена")),
        tower: by(w, t("Ваша башня достигла цели ({n})", goal), t("Башня соперника достигла цели ({n})", goal), t("Башня игрока {name} достигла цели ({n})", goal)),
        resource: by(w, t("Вы собрали запас ресурса {n}", stock), t("Соперник собрал запас ресурса {n}", stock), t("{name} собрал запас ресурса {n}", stock)),
        timeout: by(loser, t("Вы трижды подряд не успели сходить"), t("Соперник трижды подряд не успел сходить"), t("{name} трижды подряд не успел сходить")),
        resign: by(loser, t("Вы сдались"), t("Соперник сдался"), t("{name} сдаётся")),
      };
  return { kind: head.kind, text: head.text, reason: reasons[result.reason] || "" };
}

function intro(g, v) {
  fillSeat(g.st, v.you);
  const bf = g.fields.get(v.battlefield);
  return { text: t("Поле: {name}. {deck}.", { name: bf ? bf.name : v.battlefield, deck: DECKS[v.deck] || v.deck }), cls: "log-season" };
}

/** An action in words for the replay, the analysis and the admins' action log (renderbase.js actionLine), by
 *  action kind: «{who}: ход «…»» — a noun after the actor, as the other games say it, since «Вы: играет»
 *  disagreed in person (and the analysis' «Бот предпочёл: …» shows the part after the actor). */
const actionWords = (g) => ({
  play: (actor, action) => t("{who}: ход {card}", { who: actor, card: g.cname(action.card) }),
  discard: (actor, action) => t("{who}: сброс {card}", { who: actor, card: g.cname(action.card) }),
  timeout: (actor) => t("{who}: время вышло", { who: actor }),
});

/** The opponent's last action on the board (lastmove.js): the cards they played or discarded lit in
 *  «Последний ход соперника», and each tower and wall their cards changed marked; `fresh` animates it. */
function markLast(g, events, fresh) {
  const seats = new Set();
  for (const ev of events) {
    if ((ev.kind === "play" || ev.kind === "discard") && typeof ev.seat === "number") {
      const row = g.lastBox.querySelector(g.st.you === null ? `.tw-last__row:nth-child(${ev.seat + 1})` : "#tw-last-opp");
      markNode(row && row.querySelector(".tw-last__cards"), fresh);
    }
    if (ev.kind === "play" && ev.delta) {
      [0, 1].forEach((s) => {
        const d = ev.delta[s] || [];
        if (d[0]) markNode(g.board.querySelector(`.tw-tower[data-seat="${s}"]`), fresh);
        if (d[1]) markNode(g.board.querySelector(`.tw-wall[data-seat="${s}"]`), fresh);
        if (d.some(Boolean)) seats.add(s);
      });
    }
  }
  g.board.dataset.last = [...seats].join(",");
}

export function createRenderer(ctx) {
  const st = createState();
  const g = skeleton(ctx, st);
  wireHand(g);
  const words = actionWords(g);
  return makeRenderer(ctx, st, {
    paint: () => paintAll(g),
    repaint: () => paintHand(g),
    turn: (_msg, v) => turnWords(g, v),
    outcome: (msg) => outcome(g, msg),
    intro: (v) => intro(g, v),
    actionText: (action, seat) => actionLine(words, g.who, action, seat),
    markLast: (events, fresh) => markLast(g, events, fresh),
  });
}
