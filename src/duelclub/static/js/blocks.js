// Blocking (issue 28 §5): «Заблокировать» / «Разблокировать» on a member's profile (#block-toggle), the
// list of blocked members on the account page (#blocks-list, each with «Разблокировать»), and the call the
// match chat's button uses too (chat.js). PUT / DELETE /api/me/blocks/{username}.
// Test hooks: #block-toggle[data-blocked="1"|"0"] and [data-ready="1"] once it listens, #blocks-list
// li[data-username].

import { api, toast } from "./api.js";
import { askConfirm } from "./confirmdialog.js";
import { t } from "./i18n.js";

/** Block (`blocked` true) or unblock `username`; resolves with the server's answer, rejects with ApiError. */
export function setBlocked(username, blocked) {
  return api(blocked ? "PUT" : "DELETE", `/api/me/blocks/${encodeURIComponent(username)}`, {});
}

/** Ask before blocking `name`, in the site's dialog (#block-dialog, #block-dialog-yes / -no). */
export function confirmBlock(name) {
  return askConfirm({
    id: "block-dialog",
    question: t("Заблокировать {name}?", { name }),
    text: t("Вы не сможете играть друг с другом и писать друг другу в чат."),
    yes: t("Да, заблокировать"),
    no: t("Не блокировать"),
  });
}

/** The words of a block toggle in state `blocked`. */
export function toggleText(blocked) {
  return blocked ? t("Разблокировать") : t("Заблокировать");
}

function profileToggle(button) {
  const state = document.getElementById("block-state");
  const show = (blocked) => {
    button.dataset.blocked = blocked ? "1" : "0";
    button.textContent = toggleText(blocked);
    button.setAttribute("aria-pressed", String(blocked));
    if (state) state.hidden = !blocked;
  };
  show(button.dataset.blocked === "1");
  button.addEventListener("click", async () => {
    const want = button.dataset.blocked !== "1";
    if (want && !(await confirmBlock(button.dataset.username))) return;
    button.disabled = true;
    try {
      await setBlocked(button.dataset.username, want);
      show(want);
      toast(want ? t("Участник заблокирован.") : t("Блокировка снята."), "info");
    } catch (err) {
      toast(err.message);
    } finally {
      button.disabled = false;
    }
  });
  button.dataset.ready = "1"; // the click does something from now on (a test waits for it)
}

function accountList(list) {
  const empty = document.getElementById("blocks-empty");
  const error = document.getElementById("blocks-error");
  list.addEventListener("click", async (ev) => {
    const button = ev.target.closest("button[data-username]");
    if (!button) return;
    button.disabled = true;
    error.hidden = true;
    try {
      await setBlocked(button.dataset.username, false);
      button.closest("li").remove();
      if (empty) empty.hidden = list.children.length > 0;
      toast(t("Блокировка снята."), "info");
    } catch (err) {
      button.disabled = false;
      error.textContent = err.message;
      error.hidden = false;
    }
  });
}

const toggle = document.getElementById("block-toggle");
if (toggle) profileToggle(toggle);
const list = document.getElementById("blocks-list");
if (list) accountList(list);
