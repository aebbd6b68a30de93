// Login and registration forms: post JSON, show errors in words, go back to ?next= afterwards.
import { post, safeNext } from "./api.js";
import { passwordProblem, RATE_LIMITED } from "./passwords.js";
import { t, tn } from "./i18n.js";

const form = document.getElementById("auth-form");
const errorBox = document.getElementById("form-error");
const mode = form.dataset.mode; // "login" | "register"
const next = safeNext(form.dataset.next || new URLSearchParams(location.search).get("next") || "/");

const ERRORS = {
  bad_credentials: t("Неверное имя пользователя или пароль."),
  invalid_credentials: t("Неверное имя пользователя или пароль."),
  username_taken: t("Это имя (или очень похожее на него) уже занято — выберите другое."),
  conflict: t("Это имя уже занято — выберите другое."),
  too_many_attempts: RATE_LIMITED,
  rate_limited: RATE_LIMITED,
};

function showError(message, field) {
  errorBox.textContent = message;
  errorBox.hidden = false;
  for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
  if (field) {
    const input = form.elements.namedItem(field);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  }
}

// Same rules as the server (store/users.py): 3–20 Latin or Cyrillic letters (not both), digits, «_» or «-»;
// passwords: static/js/passwords.js. The server has the last word.
const USERNAME_RE = /^[A-Za-z0-9_\-\u0400-\u04FF]{3,20}$/;
const MIXED_SCRIPTS = (name) => /[A-Za-z]/.test(name) && /[\u0400-\u04FF]/.test(name);

function clientCheck(username, password) {
  if (!username) return [t("Введите имя пользователя."), "username"];
  if (!password) return [t("Введите пароль."), "password"];
  if (mode === "register") {
    if (!USERNAME_RE.test(username)) {
      return [t("Имя: от 3 до 20 символов — буквы, цифры, «_» или «-», без пробелов."), "username"];
    }
    if (MIXED_SCRIPTS(username)) {
      return [t("Имя не может смешивать латинские и кириллические буквы — выберите одну азбуку."), "username"];
    }
    const problem = passwordProblem(password);
    if (problem) return [problem, "password"];
    if (password !== form.elements.namedItem("password2").value) {
      return [t("Пароли не совпадают."), "password2"];
    }
  }
  return null;
}

function fieldOf(err) {
  const text = `${err.code} ${err.message}`.toLowerCase();
  if (err.code === "bad_email") return "email";
  if (text.includes("password")) return "password";
  if (text.includes("username") || err.code === "username_taken" || err.code === "conflict") return "username";
  return undefined;
}

function describe(err) {
  // The limiter's refusal says, in the page's language, when to try again (web/ratelimit.py).
  if (err.code === "rate_limited" && err.message && err.message !== err.code) return err.message;
  if (ERRORS[err.code]) return ERRORS[err.code];
  if (err.code === "malformed") {
    const field = fieldOf(err);
    if (field === "password") return t("Пароль должен быть от 8 до 128 символов.");
    if (field === "username") return t("Имя: от 3 до 20 символов — буквы, цифры, «_» или «-», без пробелов.");
    return t("Проверьте имя и пароль.");
  }
  if (err.code === "bad_email") return err.message;
  if (err.status === 401) return ERRORS.bad_credentials;
  if (err.status === 409) return ERRORS.username_taken;
  if (err.status === 429) return ERRORS.rate_limited;
  return err.message;
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  errorBox.hidden = true;
  const username = form.elements.namedItem("username").value.trim();
  const password = form.elements.namedItem("password").value;
  const bad = clientCheck(username, password);
  if (bad) {
    showError(...bad);
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const body = { username, password };
    const email = form.elements.namedItem("email");
    if (email && email.value.trim()) body.email = email.value.trim();
    const notices = form.elements.namedItem("email_notices");
    if (body.email && notices && notices.checked) body.email_notices = true;
    await post(`/api/auth/${mode}`, body);
    location.assign(next);
  } catch (err) {
    button.disabled = false;
    showError(describe(err), fieldOf(err));
  }
});
