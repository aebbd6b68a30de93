// The match page's «Правила» panel (issue 16 §1): a drawer over the match with the game's rules page
// (/games/{slug}/rules, loaded once and cut to its <article>), opened at the part that fits the moment —
// the part the game's hook names for the view's phase (the draft's units in Сундук войны, the equipment in an
// Артания window), its default otherwise. The match stays live underneath; Escape or «Закрыть» closes it.

import { el } from "./api.js";
import { t } from "./i18n.js";

/**
 * The section id of the rules that fits `view` (the player's current view), by the game's hook `panel`
 * (GET /api/games `rules_panel`: {default, by_phase: {phase: part}}, from the game's words): "goal" before
 * the first view or for a game without one.
 */
export function rulesPart(panel, view) {
  if (!view || !panel) return "goal";
  const byPhase = panel.by_phase || {};
  if (typeof view.phase === "string" && Object.hasOwn(byPhase, view.phase)) return byPhase[view.phase];
  return panel.default || "goal";
}

/** Wire `button` to open the rules of `slug` in a drawer; `part()` names the section to show. */
export function setupRulesPanel(button, slug, part) {
  let article = null;
  const body = el("div", { class: "rules-drawer__body", id: "rules-drawer-body" });
  const close = el("button", { type: "button", class: "btn btn-ghost btn-small", id: "rules-close" }, t("Закрыть"));
  const full = el("a", { class: "btn btn-secondary btn-small", href: `/games/${slug}/rules`, target: "_blank", rel: "noopener" }, t("Открыть отдельно"));
  const dialog = el(
    "dialog",
    { class: "rules-drawer", id: "rules-drawer", "aria-labelledby": "rules-drawer-title" },
    el("div", { class: "rules-drawer__bar" }, el("h2", { id: "rules-drawer-title" }, t("Правила")), full, close),
    body,
  );
  document.body.append(dialog);
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog) dialog.close(); // a click on the backdrop
  });
  // The table of contents jumps inside the drawer (the page's own #hash is the match's).
  body.addEventListener("click", (ev) => {
    const a = ev.target.closest("a[href^='#']");
    if (!a) return;
    ev.preventDefault();
    show(a.getAttribute("href").slice(1));
  });

  async function load() {
    if (article) return article;
    const res = await fetch(`/games/${encodeURIComponent(slug)}/rules`, { credentials: "same-origin" });
    if (!res.ok) throw new Error(String(res.status));
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    article = doc.getElementById("rules-article");
    if (!article) throw new Error("no rules");
    body.replaceChildren(document.adoptNode(article));
    return article;
  }

  function show(id) {
    const target = id && body.querySelector(`#${CSS.escape(id)}`);
    if (!target) return;
    body.scrollTop = target.offsetTop - body.offsetTop;
    body.querySelectorAll(".rules-part-current").forEach((n) => n.classList.remove("rules-part-current"));
    target.classList.add("rules-part-current");
  }

  async function open() {
    if (!dialog.open) dialog.showModal();
    try {
      await load();
      show(part());
    } catch (_err) {
      body.replaceChildren(el("p", { class: "form-error" }, t("Не удалось загрузить правила."), " ", el("a", { href: `/games/${slug}/rules` }, t("Открыть страницу правил"))));
    }
  }

  button.hidden = false;
  button.addEventListener("click", open);
  // A «Полные правила» link inside the board (Артания's help) opens the drawer instead of leaving the match.
  document.addEventListener("click", (ev) => {
    const a = ev.target.closest && ev.target.closest("a[data-rules]");
    if (!a || body.contains(a)) return;
    ev.preventDefault();
    open();
  });
}
