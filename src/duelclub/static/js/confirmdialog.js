// A question with two big buttons in the site's own <dialog> (the one «Сдаться» uses, .confirm-dialog), never
// window.confirm: the browser's box looks foreign, has small buttons on a phone and blocks the page.
// Test hooks: #<id> (the dialog), #<id>-yes, #<id>-no.

import { el } from "./api.js";

/**
 * Ask `question` (with an optional `text` under it) in the dialog `id`; resolves true for `yes`, false for
 * `no`, Escape or a close. One dialog per id, made on first use and reused with the new words.
 */
export function askConfirm({ id, question, text = "", yes, no }) {
  let dialog = document.getElementById(id);
  if (!dialog) {
    dialog = el(
      "dialog",
      { class: "confirm-dialog", id, "aria-labelledby": `${id}-q` },
      el("p", { id: `${id}-q`, class: "confirm-dialog__q" }),
      el("p", { id: `${id}-text` }),
      el(
        "div",
        { class: "row" },
        el("button", { type: "button", class: "btn btn-danger", id: `${id}-yes` }),
        el("button", { type: "button", class: "btn btn-secondary", id: `${id}-no` }),
      ),
    );
    document.body.append(dialog);
  }
  const part = (suffix) => dialog.querySelector(`#${id}-${suffix}`);
  part("q").textContent = question;
  part("text").textContent = text;
  part("text").hidden = !text;
  part("yes").textContent = yes;
  part("no").textContent = no;
  return new Promise((resolve) => {
    const answer = (value) => () => {
      part("yes").onclick = part("no").onclick = dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(value);
    };
    part("yes").onclick = answer(true);
    part("no").onclick = answer(false);
    dialog.onclose = answer(false); // Escape
    dialog.showModal();
  });
}
