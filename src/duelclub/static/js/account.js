// The account page: change the password (other sessions end) and log out on every device.
import { post } from "./api.js";
import { passwordProblem, RATE_LIMITED } from "./passwords.js";
import { askConfirm } from "./confirmdialog.js";
import { t, tn } from "./i18n.js";

const form = document.getElementById("password-form");
const errorBox = document.getElementById("password-error");
const successBox = document.getElementById("password-success");
const submit = document.getElementById("password-submit");
const logoutAll = document.getElementById("logout-all");
const logoutAllError = document.getElementById("logout-all-error");

const SUCCESS = t("Пароль изменён; другие сеансы завершены");
const ERRORS = {
  wrong_password: t("Текущий пароль указан неверно."),
  rate_limited: RATE_LIMITED,
  too_many_attempts: RATE_LIMITED,
  not_authenticated: t("Сеанс завершён — войдите снова."),
};
const LOGIN_AGAIN = `/login?next=${encodeURIComponent("/account")}`;

const field = (name) => form.elements.namedItem(name);

function clearMarks() {
  for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
}

function showError(message, name) {
  successBox.hidden = true;
  errorBox.textContent = message;
  errorBox.hidden = false;
  clearMarks();
  const input = name ? field(name) : null;
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
}

function clientCheck(oldPassword, newPassword, repeat) {
  if (!oldPassword) return [t("Введите текущий пароль."), "old_password"];
  if (!newPassword) return [t("Введите новый пароль."), "new_password"];
  const problem = passwordProblem(newPassword);
  if (problem) return [problem, "new_password"];
  if (newPassword !== repeat) return [t("Пароли не совпадают."), "new_password2"];
  return null;
}

function describe(err) {
  if (ERRORS[err.code]) return [ERRORS[err.code], err.code === "wrong_password" ? "old_password" : undefined];
  if (err.code === "bad_password" || err.status === 422) {
    return [err.message || t("Пароль должен быть от 8 до 128 символов."), "new_password"];
  }
  if (err.status === 403) return [ERRORS.wrong_password, "old_password"];
  if (err.status === 401) return [ERRORS.not_authenticated, undefined];
  if (err.status === 429) return [ERRORS.rate_limited, undefined];
  return [err.message, undefined];
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  errorBox.hidden = true;
  successBox.hidden = true;
  const oldPassword = field("old_password").value;
  const newPassword = field("new_password").value;
  const bad = clientCheck(oldPassword, newPassword, field("new_password2").value);
  if (bad) {
    showError(...bad);
    return;
  }
  submit.disabled = true;
  try {
    await post("/api/auth/password", { old_password: oldPassword, new_password: newPassword });
    form.reset();
    clearMarks();
    successBox.textContent = SUCCESS;
    successBox.hidden = false;
  } catch (err) {
    showError(...describe(err));
    if (err.status === 401) setTimeout(() => location.assign(LOGIN_AGAIN), 1500);
  } finally {
    submit.disabled = false;
  }
});

logoutAll.addEventListener("click", async () => {
  logoutAllError.hidden = true;
  const sure = await askConfirm({
    id: "logout-all-dialog",
    question: t("Выйти на всех устройствах?"),
    text: t("Все сеансы, включая этот, будут завершены."),
    yes: t("Да, выйти везде"),
    no: t("Остаться"),
  });
  if (!sure) return;
  logoutAll.disabled = true;
  try {
    await post("/api/auth/logout-all", {});
    location.assign("/login");
  } catch (err) {
    if (err.status === 401) {
      location.assign("/login");
      return;
    }
    logoutAll.disabled = false;
    logoutAllError.textContent = err.message;
    logoutAllError.hidden = false;
  }
});
