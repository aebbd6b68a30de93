// Сундук войны's hex board (part of warchest.js's renderer, reading its state and hub `g`): the hexes, the
// locations and their control, the units as coins, the hexes a choice may click, and the opponent's last move.

import { t } from "./i18n.js";

// Side, unit, coin and decree names are proper names (as the rules give them), the same in every language;
// the log lines come from the server already worded for this reader (duelclub/words/warchest.py).
export const SIDE_RU = { wolf: "Волк", raven: "Ворон" };
const SIZE = 34;
// Short names that fit a unit coin on the board (the full name and the card text are in the coin's <title>).
const ABBR = {
  archer: "Лучник", berserker: "Берсерк", cavalry: "Кавал.", crossbowman: "Арбал.", ensign: "Знам.",
  footman: "Пехот.", knight: "Рыцарь", lancer: "Улан", light_cavalry: "Л. кав.", marshal: "Маршал",
  mercenary: "Наёмн.", pikeman: "Пикин.", royal_guard: "Гвард.", scout: "Развед.", swordsman: "Мечник",
  warrior_priest: "Жрец", bannerman: "Штанд.", bishop: "Епископ", earl: "Граф", herald: "Герольд",
  infiltrator: "Лазут.", skirmisher: "Застр.", assassin: "Убийца", saboteur: "Дивер.",
};
const COIN_TEXT = SIZE; // the widest a name may be drawn on a coin (its diameter is 1.1 × SIZE)

// ---- board -------------------------------------------------------------------------------
function center(g, h) {
  const [q, r] = g.hexes[h];
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
}

function hexPoints(cx, cy) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + SIZE * Math.cos(a)).toFixed(1)},${(cy + SIZE * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function svgEl(tag, attrs, ...kids) {
  const n = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  for (const k of kids) if (k) n.append(k);
  return n;
}

/** One hex of the board: its polygon, a location's ring, its label and the unit standing on it. */
function hexCell(g, h, u, cls) {
  const [cx, cy] = center(g, h);
  const ctrl = g.st.view.control[String(h)];
  const node = svgEl("g", { class: cls.join(" "), "data-hex": String(h) });
  node.append(svgEl("polygon", { points: hexPoints(cx, cy) }));
  if (g.locations.has(h)) {
    node.append(svgEl("circle", { cx, cy, r: SIZE * 0.72, class: `wc-ring ${ctrl ? "wc-ctrl-" + ctrl : ""}` }));
  }
  // inside the hex, below the coin (at 0.86 it sat across the bottom corner and the borders; a browser test
  // checks each label box lies inside its polygon)
  node.append(svgText(cx, cy + SIZE * 0.75, g.labels[h], "wc-hex-label"));
  if (u) {
    const title = svgEl("title", {});
    title.textContent = `${SIDE_RU[u.side]}: ${g.cardTip(u.type)}\n` + t("Монет в стопке: {n}", { n: u.height }) +
      (u.poison.length ? "\n" + t("Отравлен") : "");
    node.append(title,
      svgEl("circle", { cx, cy, r: SIZE * 0.55, class: `wc-coin wc-coin-${u.side}` }),
      coinLabel(g, cx, cy - 2, u.type),
      svgText(cx, cy + 12, `×${u.height}`, "wc-unit-count"));
    if (u.poison.length) node.append(svgEl("circle", { cx: cx + SIZE * 0.45, cy: cy - SIZE * 0.45, r: 6, class: "wc-poison" }));
  }
  return node;
}

export function paintBoard(g) {
  const view = g.st.view;
  const { nf, hot, maybe, pick } = g.hexChoice();
  const unitAt = new Map((view.units || []).map((u) => [u.hex, u]));
  const w = SIZE * Math.sqrt(3) * 7 + 10;
  const svg = svgEl("svg", { viewBox: `${-w / 2} ${-SIZE * 5.6} ${w} ${SIZE * 11.2}`, class: "wc-svg",
    role: "img", "aria-label": t("Поле") });
  g.hexes.forEach((_, h) => {
    const cls = ["wc-hex"];
    if (g.locations.has(h)) cls.push("wc-loc");
    if (hot.has(h)) cls.push("wc-hot");
    else if (maybe.has(h)) cls.push("wc-maybe");
    const cell = hexCell(g, h, unitAt.get(h), cls);
    if (hot.has(h) && nf) cell.addEventListener("click", () => pick(h));
    svg.append(cell);
  });
  g.boardBox.replaceChildren(svg);
  g.zoom.apply();
  fitCoinLabels(svg);
}

/** The unit's short name on its coin (fitCoinLabels squeezes it if the font draws it wider than the coin). */
function coinLabel(g, x, y, type) {
  return svgText(x, y, ABBR[type] || g.uname(type), "wc-unit-name");
}

function fitCoinLabels(svg) {
  for (const label of svg.querySelectorAll(".wc-unit-name")) {
    if (label.getComputedTextLength() > COIN_TEXT) {
      label.setAttribute("textLength", String(COIN_TEXT));
      label.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

function svgText(x, y, s, cls) {
  const node = svgEl("text", { x, y, class: cls, "text-anchor": "middle" });
  node.textContent = s;
  return node;
}

/** The opponent's last action on the board (lastmove.js): every hex it touched outlined, a moved unit's
 *  path drawn from where it stood to where it went; `fresh` animates it once. */
export function markLast(g, events, fresh) {
  const svg = g.boardBox.querySelector("svg");
  if (!svg || g.boardBox.hidden) return;
  svg.querySelectorAll(".wc-last-path").forEach((n) => n.remove());
  svg.querySelectorAll(".wc-last").forEach((n) => n.classList.remove("wc-last", "wc-last-fresh"));
  const hexesHit = new Set();
  for (const ev of events) {
    for (const f of ["unit", "to", "target", "hex"]) if (typeof ev[f] === "number" && g.hexes[ev[f]]) hexesHit.add(ev[f]);
    if (ev.kind === "move" && typeof ev.unit === "number" && typeof ev.to === "number") {
      const [x1, y1] = center(g, ev.unit);
      const [x2, y2] = center(g, ev.to);
      svg.append(svgEl("line", { x1, y1, x2, y2, class: `wc-last-path${fresh ? " wc-last-fresh" : ""}` }));
    }
  }
  for (const h of hexesHit) {
    const node = svg.querySelector(`g[data-hex="${h}"]`);
    if (node) node.classList.add("wc-last", ...(fresh ? ["wc-last-fresh"] : []));
  }
  g.boardBox.dataset.last = [...hexesHit].join(",");
}
