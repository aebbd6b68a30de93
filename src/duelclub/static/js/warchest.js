// Сундук войны renderer (see match.js for the renderer contract).
// Everything the player can do comes from `legal`: pick a coin, then an action, then the hex(es) /
// choices; only legal choices are highlighted. The server view is rendered as it is: the draft pool,
// the SVG hex board, the hand, bag, discards, supply, decrees and seals.

import { el } from "./api.js";
import { boardZoom } from "./boardzoom.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { createState, makeRenderer, noSeat, resultOf, takeLock } from "./renderbase.js";
import { SIDE_RU, markLast, paintBoard } from "./warchest_board.js";

export const STYLESHEET = true;

/** Each action kind: the button's word (an infinitive: «Выставить») and the action log's noun («Вы:
 *  выставление · Рыцарь» — the replay's and the admins' lines; an infinitive there reads as an order). */
const KINDS = {
  pick: [t("Выбрать"), t("выбор")], deploy: [t("Выставить"), t("выставление")],
  bolster: [t("Усилить"), t("усиление")], move: [t("Переместить"), t("перемещение")],
  control: [t("Взять под контроль"), t("захват контроля")], attack: [t("Атаковать"), t("атака")],
  tactic: [t("Тактика"), t("тактика")], cure: [t("Лечение"), t("лечение")], proclaim: [t("Огласить указ"), t("указ")],
  purge: [t("Сбросить обманку"), t("сброс обманки")], initiative: [t("Инициатива"), t("инициатива")],
  recruit: [t("Найм"), t("найм")], pass: [t("Пас"), t("пас")], push: [t("Оттеснить врага"), t("оттеснение")],
  poison: [t("Отравить"), t("отравление")], use_supply: [t("Снять монету из запаса"), t("монета из запаса")],
  plant_decoy: [t("Подбросить обманку"), t("обманка")], decline: [t("Отказаться"), t("отказ")],
};
export const KIND_RU = Object.fromEntries(Object.entries(KINDS).map(([k, [button]]) => [k, button]));
export const KIND_LOG = Object.fromEntries(Object.entries(KINDS).map(([k, [, noun]]) => [k, noun]));
const PENDING_RU = {
  swordsman_step: t("Мечник может переместиться"), berserker_repeat: t("Берсерк может повторить манёвр"),
  bannerman_push: t("Штандартоносец может оттеснить врага"), mercenary_maneuver: t("Манёвр Наёмника"),
  saboteur_poison: t("Диверсант может отравить"), earl_step: t("Граф может переместиться"),
  herald_maneuver: t("Манёвр Герольда"), enlist_second: t("Второй найм (Набор)"),
  wp_play: t("Воин-жрец: сыграйте вытянутую монету"), guard_damage: t("Гвардию атакуют"),
  skirmisher_damage: t("Застрельщика атакуют"), footman_next: t("Манёвр второго Пехотинца"),
  bishop_follow: t("Епископ: переместитесь или атакуйте"), earl_decree: t("Граф оглашает указ"),
};
const HEX_FIELDS = ["unit", "ally", "to", "target"];
const FIELD_RU = { unit: t("свой отряд"), ally: t("союзника"), to: t("поле"), target: t("цель") };
/** The catalog's lookups: hexes, locations, hex labels, units and decrees, and the names a coin goes by. */
function catalogOf(ctx) {
  const cat = ctx.catalog || {};
  const hexes = cat.hexes || [];
  // Hex labels as the log names them (words.py): row letter А…Ж from the top, number in the row from the left.
  const labels = cat.hex_labels || hexes.map((_, h) => String(h));
  const units = new Map((cat.units || []).map((u) => [u.id, u]));
  const decrees = new Map((cat.decrees || []).map((d) => [d.id, d]));
  const uname = (type) => (units.get(type) || { ru: type }).ru;
  const coinName = (c) =>
    c === "royal" ? "Королевская" : c === "decoy:infiltrator" ? "Обманка Лазутчика"
      : c === "decoy:skirmisher" ? "Обманка Застрельщика" : uname(c);
  const cardTip = (type) => {
    const u = units.get(type);
    if (!u) return type;
    return `${u.ru} (×${u.coins})` + (u.tactic ? "\n" + t("Тактика: {text}", { text: u.tactic }) : "") +
      (u.property ? "\n" + t("Свойство: {text}", { text: u.property }) : "");
  };
  return { hexes, locations: new Set(cat.locations || []), labels, units, decrees, uname, coinName, cardTip };
}

/** The board's boxes in ctx.root: the sides, the draft, the controls, the zoom bar, the hex board, the legend. */
function skeleton(ctx) {
  const top = el("div", { class: "wc-top" });
  const boardBox = el("div", { class: "wc-board", id: "wc-board" });
  const zoom = boardZoom(boardBox, "wc-zoom");
  const controls = el("div", { class: "wc-controls", id: "wc-controls" });
  const draftBox = el("div", { class: "wc-draft", id: "wc-draft" });
  const legend = el("details", { class: "wc-legend", id: "wc-legend" },
    el("summary", {}, t("Условные обозначения")),
    el("ul", {},
      ...[["wc-lg-loc", t("пунктирное кольцо — нейтральная локация")],
        ["wc-lg-wolf", t("золотое кольцо — локация Волка")],
        ["wc-lg-raven", t("серебряное кольцо — локация Ворона")],
        ["wc-lg-coin", t("монета — юнит: надпись — отряд, ×N — монет в стопке")],
        ["wc-lg-poison", t("зелёная точка — юнит отравлен")],
        ["wc-lg-hot", t("подсвеченный гекс — сюда можно сходить")],
        ["wc-lg-last", t("оранжевая обводка — последний ход соперника")]]
        .map(([cls, text]) => el("li", {}, el("span", { class: `wc-lg ${cls}`, "aria-hidden": "true" }), text))),
    el("a", { href: "/games/warchest/rules#glossary", "data-rules": "glossary" }, t("Подробнее в правилах")));
  ctx.root.replaceChildren(top, draftBox, controls, zoom.bar, boardBox, legend);
  return { top, boardBox, zoom, controls, draftBox, legend };
}

function unitCard(g, type, extra = {}) {
  const u = g.units.get(type) || { ru: type, tactic: "", property: "", coins: "?" };
  return el("div", { class: "wc-card", title: g.cardTip(type), tabindex: "0", ...extra },
    el("strong", {}, `${u.ru} ×${u.coins}`),
    u.tactic ? el("p", {}, el("b", {}, t("Тактика: ")), u.tactic) : null,
    u.property ? el("p", {}, el("b", {}, t("Свойство: ")), u.property) : null);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The choice of an action, step by step from `legal`: a coin, then an action, then its hex(es) and values;
 *  the draft's picks; the controls that offer each step. */
function choicePart(g) {
  const st = g.st;
  let coin = undefined; // chosen coin (null: a decision without a coin)
  let kind = null;
  let chosen = {}; // field -> value fixed so far

  function send(action) {
    // Only a member of the legal list on screen goes out (every path picks one of st.legal itself).
    if (!st.legal.includes(action)) {
      reset();
      g.paintAll();
      return;
    }
    if (!takeLock(st, true)) return; // as before: live.js tries HTTP while the socket is down
    const body = {};
    for (const [k, v] of Object.entries(action)) if (v !== null && v !== undefined) body[k] = v;
    reset();
    g.ctx.act(body);
  }

  function reset() {
    coin = undefined;
    kind = null;
    chosen = {};
  }

  /** A control's handler that does nothing while an action is in flight: the controls and the board stay on
   *  screen until its answer, and a second tap must not start a new choice (nor light hexes) meanwhile. */
  const whenFree = (fn) => (...args) => {
    if (!st.locked) fn(...args);
  };

  const candidates = () =>
    st.legal.filter((a) => (coin === undefined || (a.coin ?? null) === coin) && (!kind || a.kind === kind) &&
      Object.entries(chosen).every(([f, v]) => (a[f] ?? null) === v));

  /** The next parameter still open among the candidates: [field, values] or null when one action is left. */
  function nextField(cands) {
    for (const f of ["decree", "maneuver", ...HEX_FIELDS, "type"]) {
      if (f in chosen) continue;
      const vals = [...new Set(cands.map((a) => a[f] ?? null))];
      if (vals.length > 1 || (vals.length === 1 && vals[0] !== null && cands.length > 1)) return [f, vals];
    }
    return null;
  }

  function advance() {
    const cands = candidates();
    if (kind && cands.length === 1) {
      send(cands[0]);
      return;
    }
    g.paintAll();
  }

  /** The board's highlights: `hot`, the hexes to click for the open field `nf`; `maybe`, every hex the chosen
   *  coin could act on before its action is chosen. */
  function hexChoice() {
    const cands = kind ? candidates() : [];
    const nf = kind ? nextField(cands) : null;
    const hot = new Set(nf && HEX_FIELDS.includes(nf[0]) ? nf[1].filter((v) => v !== null) : []);
    // A coin chosen, its action not yet: light every hex it could act on (softer than a hex to click).
    const maybe = new Set(coin !== undefined && !kind
      ? candidates().flatMap((a) => HEX_FIELDS.map((f) => a[f]).filter((v) => typeof v === "number")) : []);
    return { nf, hot, maybe, pick: whenFree((h) => { chosen[nf[0]] = h; advance(); }) };
  }

  function paintDraft() {
    const { view, legal } = st;
    if (view.phase !== "draft") {
      g.draftBox.hidden = true;
      return;
    }
    g.draftBox.hidden = false;
    const picks = new Set(legal.filter((a) => a.kind === "pick").map((a) => a.type));
    const order = view.draft.order.map((s) => SIDE_RU[s]).join(" → ");
    g.draftBox.replaceChildren(
      el("h2", {}, t("Драфт: выберите отряд")),
      el("p", {}, t("Очередь выбора: {order}", { order: order || "—" })),
      el("div", { class: "wc-pool" }, ...view.draft.pool.map((type) => {
        const card = unitCard(g, type, { "data-type": type, class: `wc-card${picks.has(type) ? " wc-hot" : ""}` });
        if (picks.has(type)) {
          card.addEventListener("click", () => send(st.legal.find((a) => a.kind === "pick" && a.type === type)));
        }
        return card;
      })));
  }

  function button(text, onClick, extra = {}) {
    const b = el("button", { type: "button", class: "btn btn-small", ...extra }, text);
    b.addEventListener("click", whenFree(onClick));
    return b;
  }

  function valueText(f, v) {
    if (f === "type") return g.uname(v);
    if (f === "decree") return (g.decrees.get(v) || { ru: v }).ru;
    if (f === "maneuver") return KIND_RU[v] || v;
    return String(v);
  }

  /** A coin of the hand drawn as a coin: the side's metal, the unit's initial, its name under it. */
  function coinButton(c) {
    const side = mySide() || "wolf";
    const face = c === null ? "…" : c === "royal" ? "♛" : String(c).startsWith("decoy:") ? "?" : (g.uname(c) || "?").slice(0, 1);
    const b = el("button", {
      type: "button", class: `wc-coin-btn wc-coin-btn-${side}${c === "royal" ? " wc-coin-btn-royal" : ""}`,
      "data-coin": c, title: c && c !== "royal" && !String(c).startsWith("decoy:") ? g.cardTip(c) : g.coinName(c),
    }, el("span", { class: "wc-coin-btn__face", "aria-hidden": "true" }, face),
    el("span", { class: "wc-coin-btn__name" }, c === null ? t("Без монеты") : g.coinName(c)));
    b.addEventListener("click", whenFree(() => { coin = c; g.paintAll(); }));
    return b;
  }

  function mySide() {
    const s = st.view && st.you !== null ? st.view.sides.find((x) => x.seat === st.you) : null;
    return s ? s.side : null;
  }

  /** The controls once a coin is chosen: its actions, then the open field's values or the hint to pick a hex. */
  function actionControls(kids) {
    const kinds = [...new Set(st.legal.filter((a) => (a.coin ?? null) === coin).map((a) => a.kind))];
    if (coin !== null) kids.push(el("p", {}, t("Монета: {coin}", { coin: g.coinName(coin) })));
    if (!kind) {
      kids.push(el("div", { class: "wc-kinds" }, ...kinds.map((k) =>
        button(KIND_RU[k] || k, () => { kind = k; advance(); }, { "data-kind": k }))));
      return;
    }
    const nf = nextField(candidates());
    kids.push(el("p", {}, KIND_RU[kind] || kind));
    if (nf && !HEX_FIELDS.includes(nf[0])) {
      kids.push(el("div", { class: "wc-kinds" }, ...nf[1].map((v) =>
        button(valueText(nf[0], v), () => { chosen[nf[0]] = v; advance(); }, { "data-value": String(v) }))));
    } else if (nf) {
      kids.push(el("p", { class: "wc-hint" }, t("Выберите на поле: {what} (подсвечено)", { what: FIELD_RU[nf[0]] })));
    }
  }

  function paintControls() {
    const { view, you, legal, locked } = st;
    const kids = [];
    const pd = view.pending;
    if (pd) {
      const mine = pd.seat === you;
      kids.push(el("p", { class: "wc-pending" }, (PENDING_RU[pd.kind] || pd.kind) + (mine ? "" : t(" — ждём соперника")) +
        (pd.coin ? `: ${g.coinName(pd.coin)}` : "")));
    }
    if (you === null || view.phase !== "play" || !legal.length || locked) {
      g.controls.replaceChildren(...kids);
      return;
    }
    const coins = [...new Set(legal.map((a) => a.coin ?? null))];
    if (coin === undefined && coins.length === 1) coin = coins[0];
    if (coin === undefined) {
      kids.push(el("p", {}, t("Выберите монету:")),
        el("div", { class: "wc-hand" }, ...coins.map((c) => coinButton(c))));
    } else {
      actionControls(kids);
      if (coins.length > 1 || kind) kids.push(button(t("Назад"), () => { reset(); g.paintAll(); }, { class: "btn btn-small btn-secondary" }));
    }
    g.controls.replaceChildren(...kids);
  }

  return { reset, hexChoice, paintDraft, paintControls };
}

// ---- side panels ---------------------------------------------------------------------------
function zone(g, obj) {
  const parts = Object.entries(obj || {}).map(([c, n]) => `${g.coinName(c)}${n > 1 ? " ×" + n : ""}`);
  return parts.length ? parts.join(", ") : "—";
}

function sidePanel(g, s, mine) {
  const view = g.st.view;
  const label = SIDE_RU[s.side] + (mine ? t(" (вы)") : "") + (view.initiative === s.side ? t(" · инициатива") : "");
  const hand = mine && s.hand ? s.hand.map(g.coinName).join(", ") || "—" : s.hand_count;
  const seals = s.poison_seals_free.map(g.uname).join(", ") || "—";
  return el("section", { class: `wc-side wc-side-${s.side}` },
    el("h3", {}, label),
    el("p", {}, t("Отряды: {list}", { list: s.types.map(g.uname).join(", ") || "—" })),
    el("p", {}, t("Рука: {hand} · Мешок: {bag} · Маркеры на поле: {n}/6", { hand, bag: s.bag_count, n: s.markers_on_board })),
    el("p", {}, t("Сброс (открыто): {up} · рубашкой вниз: {n}", { up: zone(g, s.discard_up), n: s.discard_down_count })),
    el("p", {}, t("Запас: {supply} · Из игры: {out}", { supply: zone(g, s.supply), out: zone(g, s.eliminated) })),
    view.expansions.nobility ? el("p", {}, t("Печати указов: {n}", { n: s.seals_left })) : null,
    view.expansions.nightfall ? el("p", {}, t("Обманки: {decoys} · Свободные печати яда: {seals}", { decoys: zone(g, s.decoys), seals })) : null);
}

function paintTop(g) {
  const { view, you } = g.st;
  const decrees = g.decrees;
  const me = you === null ? null : view.sides.findIndex((s) => s.seat === you);
  const order = me === null || me < 0 ? [0, 1] : [1 - me, me];
  const dec = view.decrees.length
    ? el("div", { class: "wc-decrees" }, el("h3", {}, t("Указы")),
      ...view.decrees.map((d) => el("p", { title: (decrees.get(d.id) || {}).text || "" },
        `«${(decrees.get(d.id) || { ru: d.id }).ru}» — ${(decrees.get(d.id) || {}).text || ""}` +
        (d.seals.length ? t(" · печати: {sides}", { sides: d.seals.map((x) => SIDE_RU[x]).join(", ") }) : ""))))
    : null;
  // replaceChildren would print a missing part as the text «null» (the base game has no decrees).
  g.top.replaceChildren(...[
    el("p", { class: "wc-round" }, view.phase === "draft" ? t("Драфт отрядов") : t("Раунд {n}", { n: view.round })),
    ...order.map((i) => sidePanel(g, view.sides[i], i === me)), dec].filter(Boolean));
}

function paintAll(g) {
  const view = g.st.view;
  paintTop(g);
  g.paintDraft();
  g.boardBox.hidden = view.phase === "draft";
  g.zoom.bar.hidden = g.boardBox.hidden;
  g.legend.hidden = g.boardBox.hidden;
  if (!g.boardBox.hidden) paintBoard(g);
  g.paintControls();
}

// ---- words ---------------------------------------------------------------------------------
/** The turn line after the common cases (renderbase.js turnLine): draft picks and moves, by side. */
export function turnWords(msg, v) {
  const seat = typeof msg.seat === "number" ? msg.seat : null;
  if (seat === null) {
    // A spectator: name the side to move (there is no «соперник» for a third party).
    const side = v.to_move_seat === v.wolf_seat ? "Волк" : "Ворон";
    return { text: v.phase === "draft" ? t("Драфт: выбирает {side}", { side }) : t("Ходит {side}", { side }) };
  }
  const mine = v.to_move_seat === seat;
  if (v.phase === "draft") {
    return mine ? { text: t("Драфт: ваш выбор"), cls: "turn-mine" } : { text: t("Драфт: выбирает соперник"), cls: "turn-theirs" };
  }
  return mine ? { text: t("Ваш ход"), cls: "turn-mine" } : { text: t("Ход соперника"), cls: "turn-theirs" };
}

/** The result banner in words from the viewer's side (the engine's reasons are codes: control, …): the
 *  title names the winner, the reason is a sentence naming who did what. */
export function outcome(g, msg) {
  const v = msg.view || g.st.view;
  const result = resultOf(msg, g.st.view);
  if (!result) return null;
  const seat = typeof msg.seat === "number" ? msg.seat : null;
  const w = result.winner;
  const none = noSeat(w);
  const seats = (g.ctx.info && g.ctx.info.seats) || [];
  const sideOf = (s) => (v && s === v.wolf_seat ? "Волк" : "Ворон");
  // A spectator reads «Ворон (alice)»: the side and the member's name.
  const named = (s) => (seats[s] ? `${sideOf(s)} (${seatName(seats[s])})` : sideOf(s));
  const kind = none || seat === null ? "draw" : w === seat ? "win" : "loss";
  const text = none ? t("Ничья") : seat === null ? t("Победа: {who}", { who: named(w) }) : w === seat ? t("Победа") : t("Поражение");
  const by = (s, mine, theirs, other) => (s === seat ? mine : seat === null ? other.replace("{who}", named(s)) : theirs);
  let reason = "";
  if (result.reason === "control" && !none) {
    reason = by(w, t("Вы первыми выставили все свои маркеры контроля"), t("Соперник первым выставил все свои маркеры контроля"),
      t("{who} первым выставил все свои маркеры контроля"));
  } else if (result.reason === "round_limit") {
    reason = t("Сыграно 100 раундов без победителя");
  } else if (result.reason === "resign" && !none) {
    reason = by(1 - w, t("Вы сдались"), t("Соперник сдался"), t("{who} сдаётся"));
  } else if (result.reason === "timeout" && !none) {
    reason = by(1 - w, t("Ваше время на ход вышло"), t("Время соперника на ход вышло"), t("Время на ход вышло: {who}"));
  }
  return { kind, text, reason };
}

export function actionText(g, action) {
  if (action.kind === "resign") return t("сдача"); // the platform's action, as the other games word it
  const parts = [KIND_LOG[action.kind] || action.kind];
  if (action.coin) parts.push(g.coinName(action.coin));
  if (action.type) parts.push(g.uname(action.type));
  if (action.decree) parts.push((g.decrees.get(action.decree) || { ru: action.decree }).ru);
  for (const f of HEX_FIELDS) if (action[f] !== undefined && action[f] !== null && g.hexes[action[f]]) {
    parts.push(`${FIELD_RU[f]} ${g.labels[action[f]]}`);
  }
  return parts.join(" · ");
}

export function createRenderer(ctx) {
  const st = createState();
  const g = { ctx, st, ...catalogOf(ctx), ...skeleton(ctx) };
  g.paintAll = () => paintAll(g);
  Object.assign(g, choicePart(g));
  let lastKey = "";

  function render(msg) {
    const key = JSON.stringify([msg.seq, msg.seat, msg.status, msg.view, msg.legal]);
    if (key === lastKey && !st.locked) return; // the same state again: keep the player's selection
    lastKey = key;
    st.view = msg.view;
    ctx.root.hidden = !st.view;
    if (!st.view) return;
    st.you = typeof msg.seat === "number" ? msg.seat : st.view.your_seat;
    const next = Array.isArray(msg.legal) ? msg.legal : [];
    if (!same(next, st.legal)) g.reset();
    st.legal = next;
    st.locked = false;
    paintAll(g);
  }

  return makeRenderer(ctx, st, {
    render,
    repaint: g.paintAll,
    repaintOffline: false,
    onUnlock: () => {
      lastKey = "";
      g.reset();
    },
    turn: turnWords,
    outcome: (msg) => outcome(g, msg),
    actionText: (action) => actionText(g, action),
    markLast: (events, fresh) => markLast(g, events, fresh),
  });
}
