// Zoom for a board drawn as one SVG inside a scrolling box (issue 16 §2: Сундук войны's hex board on a phone):
// «−», «+» and «1:1» buttons and a two-finger pinch; the zoom survives every repaint of the SVG.

import { el } from "./api.js";
import { t } from "./i18n.js";

const MIN = 1;
const MAX = 2.6;
const STEP = 0.35;

/** Make `box` (a scrolling container whose <svg> child is redrawn) zoomable; returns {bar, apply}: put `bar`
 *  above the box and call `apply()` after each repaint. */
export function boardZoom(box, id) {
  let zoom = 1;
  const label = el("span", { class: "small muted", id: `${id}-level`, "aria-live": "polite" });
  const out = el("button", { type: "button", class: "btn btn-secondary btn-small", id: `${id}-out`, "aria-label": t("Уменьшить поле") }, "−");
  const inn = el("button", { type: "button", class: "btn btn-secondary btn-small", id: `${id}-in`, "aria-label": t("Увеличить поле") }, "+");
  const reset = el("button", { type: "button", class: "btn btn-ghost btn-small", id: `${id}-reset` }, "1:1");
  const bar = el("div", { class: "wc-zoom", role: "group", "aria-label": t("Масштаб поля") }, label, out, inn, reset);

  function apply(keepCentre = false) {
    const svg = box.querySelector("svg");
    if (!svg) return;
    const cx = (box.scrollLeft + box.clientWidth / 2) / (box.scrollWidth || 1);
    const cy = (box.scrollTop + box.clientHeight / 2) / (box.scrollHeight || 1);
    svg.style.width = `${Math.round(zoom * 100)}%`;
    svg.style.maxWidth = "none";
    box.dataset.zoom = zoom.toFixed(2);
    label.textContent = `${Math.round(zoom * 100)}%`;
    out.disabled = zoom <= MIN;
    inn.disabled = zoom >= MAX;
    if (keepCentre) {
      box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;
      box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;
    }
  }
  const set = (z) => {
    zoom = Math.min(MAX, Math.max(MIN, z));
    apply(true);
  };
  out.addEventListener("click", () => set(zoom - STEP));
  inn.addEventListener("click", () => set(zoom + STEP));
  reset.addEventListener("click", () => set(1));

  // Two-finger pinch on the board (one finger still scrolls and taps hexes).
  const touches = new Map();
  let start = null;
  box.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType !== "touch") return;
    touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (touches.size === 2) start = { d: spread(), z: zoom };
  });
  box.addEventListener("pointermove", (ev) => {
    if (!touches.has(ev.pointerId)) return;
    touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (touches.size === 2 && start && start.d > 0) set(start.z * (spread() / start.d));
  });
  const up = (ev) => {
    touches.delete(ev.pointerId);
    if (touches.size < 2) start = null;
  };
  box.addEventListener("pointerup", up);
  box.addEventListener("pointercancel", up);
  function spread() {
    const [a, b] = [...touches.values()];
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  }
  apply();
  return { bar, apply: () => apply(false) };
}
