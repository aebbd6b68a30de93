// Артания и Куявия renderer (rules/artania.md): the three facing slot pairs with base swords, counter-class
// bonus and Нектар as separate numbers and running totals; the hand grouped by archetype; placement by drag
// or click into the slot the step requires; equipment windows with «Пас» and a per-player client-side
// «пасовать автоматически» (the server still receives an explicit pass); animated tie-break reveals;
// кругляши for both players; the event log as the server words it; a help panel with the counter-class cycle.
// Contract: see the header of match.js.

import { el } from "./api.js";
import { t, tn } from "./i18n.js";
import { createState, makeRenderer, seatWords, takeLock } from "./renderbase.js";
import { DECK_NAMES, stepWord, wordsPart } from "./artania_words.js";

export const STYLESHEET = true;

// Deck, class and card names are proper names (as the rules give them), the same in every language.
const ARCH_NAMES = {
  A: t("Архетип {x}", { x: "A" }),
  B: t("Архетип {x}", { x: "B" }),
  C: t("Архетип {x}", { x: "C" }),
  special: t("Особые воины"),
  equipment: t("Снаряжение"),
};
const AUTO_KEY = "artania.autopass";
const swordsText = (n) => tn(n, "{n} меч", "{n} меча", "{n} мечей");

/** The page's parts and the player's choices: the catalog, the seat words, the boxes in ctx.root and ctx.side,
 *  the clicks (a warrior for the next slot, an equipment card and its target, «Пас», auto-pass). */
function setup(ctx, st, g) {
  const paint = (...args) => g.paint(...args);
  const cards = new Map();
  for (const c of (ctx.catalog && ctx.catalog.cards) || []) cards.set(c.id, c);
  const card = (id) => cards.get(id) || { id, name: id, kind: "class", swords: 0 };
  const name = (id) => card(id).name;
  const classes = (ctx.catalog && ctx.catalog.classes) || [];
  const seatsInfo = ctx.info && Array.isArray(ctx.info.seats) ? ctx.info.seats : [];

  st.picked = []; // warriors chosen for the current placement step, in slot order
  st.tool = null; // {kind: "nektar"|"idol"|"chasy"} while an equipment card waits for its target
  st.shownResults = 0; // results already animated
  st.autoTimer = null;
  st.autoPass = localStorage.getItem(`${AUTO_KEY}.${ctx.username}`) === "1";

  const me = () => st.you ?? 0;
  // A spectator (or an admin) reads the players' names; a player reads «вы» and «соперник» (renderbase.js).
  const seatW = seatWords(st, seatsInfo, ctx.username);
  const nameOf = seatW.nameOf;
  const who = seatW.who;
  const whoLc = seatW.whoLc;
  const label = seatW.label;
  const by = seatW.by;
  const whoGen = (seat) => (seat === st.you ? t("ваш") : st.you === null ? t("игрока {name}", { name: nameOf(seat) }) : t("соперника"));

  // ---- skeleton -----------------------------------------------------------------------------
  const oppStrip = el("div", { class: "art-strip", id: "art-opp" });
  const fieldBox = el("div", { class: "art-field", id: "art-field", role: "group", "aria-label": t("Поле боя") });
  const totalsBox = el("p", { class: "art-totals", id: "art-totals", "aria-live": "polite" });
  const meStrip = el("div", { class: "art-strip", id: "art-me" });
  const stepBox = el("div", { class: "art-step", id: "art-step", role: "status", "aria-live": "polite" });
  const passBtn = el("button", { type: "button", class: "btn btn-primary", id: "art-pass", onclick: () => sendKind("pass") }, t("Пас"));
  const autoBox = el("input", { type: "checkbox", id: "art-autopass", onchange: onAutoChange });
  autoBox.checked = st.autoPass;
  const autoLabel = el("label", { class: "art-auto", for: "art-autopass" }, autoBox, t(" пасовать автоматически, когда нечего сыграть"));
  const cancelBtn = el("button", { type: "button", class: "btn btn-secondary btn-small", id: "art-cancel", onclick: resetChoice }, t("Отменить выбор"));
  const controls = el("div", { class: "art-controls" }, stepBox, passBtn, cancelBtn, autoLabel);
  const handBox = el("div", { class: "art-hand", id: "art-hand", "aria-label": t("Ваша рука") });
  const handPanel = el("section", { class: "panel art-hand-panel" }, el("h2", {}, t("Рука")), controls, handBox);
  const reveal = el("section", { class: "panel art-reveal", id: "art-reveal", hidden: true, "aria-live": "polite" });
  ctx.root.replaceChildren(oppStrip, fieldBox, totalsBox, meStrip, reveal, handPanel);

  const sideDiscards = el("section", { class: "panel art-discards" });
  const help = el(
    "section",
    { class: "panel art-help" },
    el("h2", {}, t("Противоклассы")),
    el("p", { class: "small" }, t("Архетип A бьёт B, B бьёт C, C бьёт A. Воин получает +2 меча, если напротив его противокласс, и +1, если напротив другой класс того же архетипа. Особые воины (Полководец, Стратег, Герой — по 4 меча) бонусов не дают и не получают.")),
    el("ul", { class: "art-cycle" }, ...classes.map((c) => el("li", {}, `${c.name} → ${classes.find((x) => x.id === c.counter)?.name || c.counter} (+2)`))),
    el("p", { class: "small" }, t("Ход: снаряжение · первый кладёт 1 воина · снаряжение · второй кладёт 2 · снаряжение · первый кладёт 2 · снаряжение · второй кладёт 1 · снаряжение · подсчёт. Окно снаряжения закрывается после двух пасов подряд. Пять кругляшей — победа.")),
    el("p", { class: "small" }, el("a", { href: "/games/artania/rules", "data-rules": "artania" }, t("Полные правила игры"))),
  );
  if (ctx.side) ctx.side.replaceChildren(help, sideDiscards);

  // ---- actions ------------------------------------------------------------------------------
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const placing = () => st.view && st.view.phase === "place" && st.view.placing && st.view.placing.seat === st.you;
  const windowMine = () => st.view && st.view.phase === "window" && st.view.window && st.view.window.actor === st.you;
  const places = () => st.legal.filter((a) => a.kind === "place");
  const need = () => (places()[0] ? places()[0].cards.length : 0);

  function send(action) {
    const verbatim = st.legal.find((a) => same(a, action));
    if (!verbatim || !takeLock(st)) return;
    clearTimeout(st.autoTimer);
    st.picked = [];
    st.tool = null;
    paint();
    ctx.act(verbatim);
  }
  function sendKind(kind) {
    send(st.legal.find((a) => a.kind === kind));
  }
  function resetChoice() {
    st.picked = [];
    st.tool = null;
    paint();
  }
  function onAutoChange() {
    st.autoPass = autoBox.checked;
    localStorage.setItem(`${AUTO_KEY}.${ctx.username}`, st.autoPass ? "1" : "0");
    maybeAutoPass();
  }
  /** Client-side auto-pass: only when the player chose it and «Пас» is the one legal action. */
  function maybeAutoPass() {
    clearTimeout(st.autoTimer);
    if (!st.autoPass || !windowMine() || st.locked || st.offline) return;
    if (st.legal.length === 1 && st.legal[0].kind === "pass") st.autoTimer = setTimeout(() => sendKind("pass"), 350);
  }

  /** The slot (1-based) the next picked warrior goes to in the current step. */
  const nextSlot = () => (st.view && st.view.placing ? st.view.placing.slots[st.picked.length] : null);

  function pickWarrior(id) {
    if (!placing() || st.locked) return;
    if (st.picked.includes(id)) return;
    const n = need();
    const next = [...st.picked, id];
    if (!places().some((a) => a.cards.slice(0, next.length).every((c, i) => c === next[i]))) return;
    st.picked = next;
    if (st.picked.length === n) send({ kind: "place", cards: st.picked });
    else paint();
  }

  /** A tap on the empty slot to fill: it names no warrior, so it only says how to place one (it used to play
   *  the first warrior the step allowed — one the member never chose, sent for good). */
  function hintPick(slot) {
    stepBox.textContent = t("Нажмите воина в руке — он ляжет в слот {slot}.", { slot });
    stepBox.classList.add("art-step-nudge");
    if (typeof handBox.scrollIntoView === "function") handBox.scrollIntoView({ block: "nearest" });
  }

  function clickHand(id) {
    if (st.locked || st.offline) return;
    if (st.tool && st.tool.kind === "chasy") {
      send({ kind: "chasy", discard: id });
      return;
    }
    const c = card(id);
    if (c.kind === "equipment") {
      if (!windowMine()) return;
      if (id === "chasy" && st.legal.some((a) => a.kind === "chasy")) st.tool = { kind: "chasy" };
      else if (st.legal.some((a) => a.kind === id)) st.tool = { kind: id };
      paint();
      return;
    }
    if (placing()) {
      // a click picks the warrior for the next slot of the step
      pickWarrior(id);
    }
  }

  function clickSlot(seat, slot) {
    if (st.locked || st.offline) return;
    if (st.tool && st.tool.kind === "nektar") send({ kind: "nektar", seat, slot });
    else if (st.tool && st.tool.kind === "idol" && seat !== st.you) send({ kind: "idol", slot });
  }

  function dropOnSlot(ev, seat, slot) {
    ev.preventDefault();
    const id = ev.dataTransfer.getData("text/plain");
    if (!id) return;
    if (placing() && seat === st.you && slot === nextSlot()) pickWarrior(id);
  }
  return { cards, card, name, classes, seatsInfo, me, seatW, nameOf, who, whoLc, label, by, whoGen, oppStrip, fieldBox, totalsBox, meStrip, stepBox, passBtn, autoBox, autoLabel, cancelBtn, controls, handBox, handPanel, reveal, sideDiscards, help, same, placing, windowMine, places, need, send, sendKind, resetChoice, onAutoChange, maybeAutoPass, nextSlot, pickWarrior, hintPick, clickHand, clickSlot, dropOnSlot };
}

/** The board: both strips, the three slot pairs with their swords, bonuses and Нектар, and the hand. */
function boardPart(ctx, st, g) {
  const { card, name, me, whoLc, label, whoGen, fieldBox, totalsBox, handBox, placing, windowMine, nextSlot, hintPick, clickHand, clickSlot, dropOnSlot } = g;
  // ---- painting -----------------------------------------------------------------------------
  function tokensOf(seat) {
    const n = st.view.tokens[seat];
    const dots = [];
    for (let i = 0; i < 5; i += 1) dots.push(el("span", { class: i < n ? "art-token art-token-on" : "art-token", "aria-hidden": "true" }));
    return el("span", { class: "art-tokens", title: t("Кругляши: {n} из 5", { n }), "aria-label": t("кругляши: {n} из 5", { n }) }, ...dots, ` ${n}`);
  }

  function strip(box, seat) {
    const role = st.view.first === seat ? t("первый игрок") : t("второй игрок");
    const known = st.view.known[seat] || [];
    box.replaceChildren(
      ...[
      el("strong", {}, label(seat)),
      el("span", { class: "chip" }, DECK_NAMES[st.view.sides[seat]] || st.view.sides[seat]),
      el("span", { class: "chip" }, role),
      tokensOf(seat),
      el("span", { class: "small", dataset: { handSize: String(st.view.hand_sizes[seat]) } }, t("рука: {n}", { n: st.view.hand_sizes[seat] })),
      el("span", { class: "small" }, t("колода: {n}", { n: st.view.deck_sizes[seat] })),
      known.length && seat !== st.you ? el("span", { class: "small" }, t("известно в руке: {cards}", { cards: known.map(name).join(", ") })) : null,
      ].filter(Boolean),
    );
  }

  function slotCell(seat, x) {
    const mine = seat === st.you;
    const target = placing() && mine && x.state === "pending" && x.slot === nextSlot();
    const nekTarget = st.tool && st.tool.kind === "nektar" && st.legal.some((a) => a.kind === "nektar" && a.seat === seat && a.slot === x.slot);
    const idolTarget = st.tool && st.tool.kind === "idol" && seat !== st.you && st.legal.some((a) => a.kind === "idol" && a.slot === x.slot);
    const cls = ["art-slot", `art-slot-${x.state}`];
    if (target) cls.push("art-slot-target");
    if (nekTarget || idolTarget) cls.push("art-slot-aim");
    const attrs = {
      class: cls.join(" "),
      dataset: { seat: String(seat), slot: String(x.slot), state: x.state },
      "aria-label": t("{whose} слот {n}", { whose: mine ? t("ваш") : whoGen(seat), n: x.slot }),
    };
    if (target) {
      attrs.ondragover = (ev) => ev.preventDefault();
      attrs.ondrop = (ev) => dropOnSlot(ev, seat, x.slot);
      attrs.onclick = () => hintPick(x.slot);
      attrs.title = t("Сюда — перетащите воина или щёлкните воина в руке");
    }
    if (nekTarget || idolTarget) {
      attrs.onclick = () => clickSlot(seat, x.slot);
      attrs.tabindex = "0";
      attrs.onkeydown = (ev) => (ev.key === "Enter" ? clickSlot(seat, x.slot) : null);
    }
    let body;
    if (x.state === "card") {
      const c = card(x.card);
      body = [
        el("span", { class: `art-card-name art-arch-${c.archetype || "special"}` }, c.name),
        el(
          "span",
          { class: "art-nums" },
          el("span", { class: "art-base", title: t("мечи карты") }, `⚔ ${x.base}`),
          x.bonus ? el("span", { class: "art-bonus", title: t("противокласс") }, ` +${x.bonus}`) : null,
          x.nektar
            ? el("span", { class: "art-nek", title: `Нектар (${x.nektar_by.map((s) => whoGen(s)).join(", ")})` }, " " + t("+{n} нектар", { n: x.nektar }))
            : null,
          el("strong", { class: "art-total" }, ` = ${x.total}`),
        ),
      ];
    } else {
      const words = { pending: st.picked.length && target ? "" : "—", empty: t("пусто"), removed: t("убран Идолом") };
      const pick = target && st.picked.length ? null : words[x.state];
      body = [el("span", { class: "small" }, pick || "")];
    }
    return el("div", attrs, ...body);
  }

  /** The field to draw: the live one, or once the match is decided by a scored turn, that last turn's
   *  slots as they were scored (the clean-up emptied the live field; the result must keep the deciding turn). */
  function shownField() {
    const results = st.view.results || [];
    const last = results[results.length - 1];
    const scored = st.view.phase === "over" && last && st.view.outcome && st.view.outcome.reason !== "resign";
    return scored ? { field: last.slots, totals: last.totals, turn: last.turn } : { field: st.view.field, totals: st.view.totals, turn: null };
  }

  function paintField() {
    const shown = shownField();
    fieldBox.classList.toggle("art-field-final", shown.turn !== null);
    const cols = [0, 1, 2].map((k) => {
      const opp = shown.field[1 - me()][k];
      const mine = shown.field[me()][k];
      const pre = st.picked.length && placing() ? pickedFor(k + 1) : null;
      const mineCell = pre ? slotCell(me(), { ...mine, state: "picked" }) : slotCell(me(), mine);
      if (pre) mineCell.replaceChildren(el("span", { class: "art-card-name" }, name(pre)), el("span", { class: "small" }, t("выбран")));
      return el("div", { class: "art-pair", dataset: { pair: String(k + 1) } }, el("span", { class: "art-pair-no" }, `${k + 1}`), slotCell(1 - me(), opp), mineCell);
    });
    fieldBox.replaceChildren(...cols);
    const sums = { a: shown.totals[me()], b: shown.totals[1 - me()], x: whoLc(me()), y: whoLc(1 - me()), turn: shown.turn };
    totalsBox.textContent =
      shown.turn !== null ? t("Решающий ход {turn}: мечи — {x} {a}, {y} {b}", sums) : t("Мечи: {x} {a} — {y} {b}", sums);
  }
  const pickedFor = (slot) => {
    const i = st.view.placing.slots.indexOf(slot);
    return i >= 0 && i < st.picked.length ? st.picked[i] : null;
  };

  function handCard(id) {
    const c = card(id);
    const usable =
      (placing() && c.kind !== "equipment" && !st.picked.includes(id)) ||
      (windowMine() && c.kind === "equipment" && st.legal.some((a) => a.kind === id)) ||
      (st.tool && st.tool.kind === "chasy" && id !== "chasy");
    const cls = ["art-card", `art-arch-${c.archetype || c.kind}`];
    if (st.picked.includes(id)) cls.push("art-card-picked");
    if (st.tool && st.tool.kind === id) cls.push("art-card-picked");
    const attrs = {
      type: "button",
      class: cls.join(" "),
      dataset: { card: id },
      disabled: !usable || st.locked || st.offline,
      onclick: () => clickHand(id),
      title: c.text || t("{card}: {swords}", { card: c.name, swords: swordsText(c.swords) }),
    };
    if (placing() && c.kind !== "equipment") {
      attrs.draggable = "true";
      attrs.ondragstart = (ev) => ev.dataTransfer.setData("text/plain", id);
    }
    return el("button", attrs, el("span", {}, c.name), c.kind !== "equipment" ? el("span", { class: "art-sw" }, `⚔ ${c.swords}`) : null);
  }

  function paintHand() {
    const hand = st.view.hand || [];
    const groups = ["A", "B", "C", "special", "equipment"].map((g) => {
      const ids = hand.filter((id) => (card(id).archetype || card(id).kind) === g);
      if (!ids.length) return null;
      return el("div", { class: "art-group" }, el("h3", {}, ARCH_NAMES[g]), el("div", { class: "art-row" }, ...ids.map(handCard)));
    });
    handBox.replaceChildren(...groups.filter(Boolean));
    if (!hand.length) handBox.replaceChildren(el("p", { class: "small" }, t("Рука пуста")));
  }
  return { tokensOf, strip, slotCell, shownField, paintField, pickedFor, handCard, paintHand };
}

/** The step line and its buttons, the discards, the info bar and the last turn's reveal. */
function panelPart(ctx, st, g) {
  const { name, me, who, whoLc, oppStrip, meStrip, stepBox, passBtn, autoLabel, cancelBtn, reveal, sideDiscards, windowMine, need, nextSlot, strip, paintField, paintHand } = g;
  function paintControls() {
    const v = st.view;
    let text = "";
    if (v.phase === "over") text = t("Партия окончена");
    else if (v.phase === "window") {
      const w = v.window;
      const actor = w.actor === st.you ? t("ваше действие") : t("действует {who}", { who: whoLc(w.actor) });
      text = t("Ход {turn}, {step}: {actor}. Пасов подряд: {n} из 2.", { turn: v.turn, step: stepWord(w.name), actor, n: w.passes });
      if (st.tool && st.tool.kind === "nektar") text = t("Нектар могущества: выберите воина класса на поле (любой стороны).");
      if (st.tool && st.tool.kind === "idol") text = t("Идол гнева: выберите воина соперника.");
      if (st.tool && st.tool.kind === "chasy") text = t("Часы Базилевса: выберите карту, которую сбросить вместе с ними.");
    } else {
      const p = v.placing;
      const slots = p.slots.join(t(" и "));
      const step = { turn: v.turn, step: stepWord(v.step), slots };
      text =
        p.seat === st.you
          ? need() === 2
            ? t("Ход {turn}, {step}: положите воина в слот {slot} (два воина: слоты {slots}).", { ...step, slot: nextSlot() ?? slots })
            : t("Ход {turn}, {step}: положите воина в слот {slot} (один воин).", { ...step, slot: nextSlot() ?? slots })
          : t("Ход {turn}, {step}: выставляет {who} (слот {slots}).", { ...step, who: whoLc(p.seat) });
    }
    stepBox.textContent = text;
    stepBox.classList.remove("art-step-nudge");
    passBtn.hidden = v.phase !== "window" || st.you === null;
    passBtn.disabled = !windowMine() || st.locked || st.offline || !st.legal.some((a) => a.kind === "pass");
    cancelBtn.hidden = !(st.picked.length || st.tool);
    autoLabel.hidden = st.you === null;
  }

  function paintSide() {
    const pile = (seat) =>
      el("div", {}, el("h3", {}, t("Сброс: {who}", { who: whoLc(seat) })), el("p", { class: "small" }, (st.view.discards[seat] || []).map(name).join(", ") || t("пусто")));
    sideDiscards.replaceChildren(el("h2", {}, t("Сброс")), pile(me()), pile(1 - me()));
  }

  function paintInfoBar() {
    if (!ctx.infoBar) return;
    ctx.infoBar.replaceChildren(
      el("span", { class: "chip", id: "art-turn-chip" }, t("Ход {n}", { n: st.view.turn })),
      el("span", { class: "chip", title: t("Кругляши: вы — соперник") }, t("Кругляши {a} : {b}", { a: st.view.tokens[me()], b: st.view.tokens[1 - me()] })),
      el("span", { class: "chip" }, t("В запасе: {n}", { n: st.view.pool })),
    );
  }

  /** The last scored turn, with its tie-break reveals animated round by round (once per new result). */
  function paintReveal() {
    const results = st.view.results || [];
    if (!results.length) {
      reveal.hidden = true;
      return;
    }
    const r = results[results.length - 1];
    const fresh = results.length > st.shownResults;
    st.shownResults = results.length;
    const winner =
      r.winner === null
        ? t("никто не взял кругляш")
        : r.winner === st.you
          ? t("кругляш берёте вы")
          : t("кругляш берёт {who}", { who: whoLc(r.winner) });
    const emptyDeck = t("колода пуста");
    const toHand = t(" → в руку");
    const rounds = (r.tiebreak || []).map((tb, i) =>
      el(
        "li",
        { class: fresh ? "art-tb art-tb-anim" : "art-tb", style: { animationDelay: `${0.5 * i}s` } },
        t("Раунд {n}: ", { n: tb.round }),
        ...[me(), 1 - me()].map((s) => el("span", { class: "art-flip" }, `${who(s)}: ${tb.cards[s] ? name(tb.cards[s]) : emptyDeck} (${tb.values[s]})${tb.to_hand[s] ? toHand : ""} `)),
      ),
    );
    const sums = { a: whoLc(me()), x: r.totals[me()], b: whoLc(1 - me()), y: r.totals[1 - me()], winner };
    reveal.hidden = false;
    reveal.replaceChildren(
      ...[
      el("h2", {}, t("Итог хода {n}", { n: r.turn })),
      el(
        "p",
        {},
        rounds.length
          ? t("Мечи: {a} {x} — {b} {y} — ничья, вскрываем колоды; {winner}.", sums)
          : t("Мечи: {a} {x} — {b} {y}; {winner}.", sums),
      ),
      rounds.length ? el("ol", { class: "art-tbs" }, ...rounds) : null,
      ].filter(Boolean),
    );
  }

  function paint() {
    if (!st.view) return;
    strip(oppStrip, 1 - me());
    strip(meStrip, me());
    paintField();
    paintHand();
    paintControls();
    paintSide();
    paintInfoBar();
  }
  return { paintControls, paintSide, paintInfoBar, paintReveal, paint };
}

export function createRenderer(ctx) {
  const st = createState();
  const g = {};
  for (const part of [setup, boardPart, panelPart, wordsPart]) Object.assign(g, part(ctx, st, g));
  return makeRenderer(ctx, st, {
    paint: () => {
      if (!g.placing()) st.picked = [];
      if (st.tool && !st.legal.some((a) => a.kind === st.tool.kind)) st.tool = null;
      g.handPanel.hidden = st.you === null || st.view.phase === "over";
      g.paint();
      g.paintReveal();
      g.maybeAutoPass();
    },
    repaint: g.paint,
    turn: g.turnOwn,
    outcome: g.outcome,
    intro: g.intro,
    actionText: g.actionText,
    markLast: g.markLast,
  });
}
