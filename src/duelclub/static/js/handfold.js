// The hand folds to one row of compact cards (issue 16 §2): on a phone the sticky hand then leaves the board
// readable above it. A «Свернуть / Развернуть» button in the hand's header; the choice is remembered per
// browser; phones start folded. Works with any game whose hand panel is #hand-panel (or .art-hand-panel).

import { el } from "./api.js";
import { t } from "./i18n.js";

const KEY = "duelclub.handFolded";
const PHONE = "(max-width: 720px)";

function remembered() {
  const v = localStorage.getItem(KEY);
  if (v === "1") return true;
  if (v === "0") return false;
  return window.matchMedia(PHONE).matches;
}

/** Add the fold button to the hand panel under `root` once it exists (renderers build it on first render). */
export function setupHandFold(root) {
  let done = false;
  const attach = () => {
    if (done) return;
    const panel = root.querySelector("#hand-panel, .art-hand-panel");
    if (!panel) return;
    done = true;
    const head = panel.querySelector(".hand-head") || panel.querySelector("h2");
    const btn = el("button", { type: "button", class: "btn btn-ghost btn-small hand-fold", id: "hand-fold", "aria-controls": panel.id || undefined });
    const paint = (folded) => {
      panel.classList.toggle("is-folded", folded);
      btn.textContent = folded ? t("Развернуть") : t("Свернуть");
      btn.setAttribute("aria-expanded", folded ? "false" : "true");
      btn.title = folded ? t("Показать карты целиком") : t("Свернуть руку в одну строку");
    };
    btn.addEventListener("click", () => {
      const folded = !panel.classList.contains("is-folded");
      localStorage.setItem(KEY, folded ? "1" : "0");
      paint(folded);
    });
    paint(remembered());
    if (head && head.tagName === "H2") head.after(btn);
    else if (head) head.append(btn);
    else panel.prepend(btn);
  };
  attach();
  if (!done) {
    const obs = new MutationObserver(() => {
      attach();
      if (done) obs.disconnect();
    });
    obs.observe(root, { childList: true, subtree: true });
  }
}
