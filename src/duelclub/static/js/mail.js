// E-mail and password reset (issue 28): the «Забыли пароль?» form (/password-reset), the new password form
// of a mailed link (/reset/{token}), the confirmation of an address (/verify-email/{token}) and the
// account page's address form, «Письма о ходе» (PUT /api/me/notices, web/routes/notices.py) and «Удалить
// учётную запись» (DELETE /api/me, web/routes/account_delete.py).
// Each form posts JSON to the API (web/routes/mail.py) and says what happened.
import { api, post } from "./api.js";
import { passwordProblem } from "./passwords.js";
import { t } from "./i18n.js";

function boxes(form, errorId = "form-error", successId = "form-success") {
  const error = document.getElementById(errorId);
  const success = document.getElementById(successId);
  return {
    fail(message) {
      success.hidden = true;
      error.textContent = message;
      error.hidden = false;
    },
    done(message) {
      error.hidden = true;
      success.textContent = message;
      success.hidden = false;
    },
    clear() {
      error.hidden = true;
      success.hidden = true;
    },
    button: form.querySelector("button[type=submit]"),
  };
}

const message = (err) => err.message || t("Не получилось. Попробуйте ещё раз.");

function forgotForm(form) {
  const ui = boxes(form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    ui.clear();
    const email = form.elements.namedItem("email").value.trim();
    if (!email) return ui.fail(t("Введите адрес почты."));
    ui.button.disabled = true;
    try {
      await post("/api/auth/password-reset", { email });
      ui.done(t("Если этот адрес подтверждён в учётной записи, письмо со ссылкой уже в пути. Проверьте почту (и папку «Спам»)."));
    } catch (err) {
      ui.fail(message(err));
    } finally {
      ui.button.disabled = false;
    }
  });
}

function resetForm(form) {
  const ui = boxes(form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    ui.clear();
    const password = form.elements.namedItem("password").value;
    const problem = passwordProblem(password);
    if (problem) return ui.fail(problem);
    if (password !== form.elements.namedItem("password2").value) return ui.fail(t("Пароли не совпадают."));
    ui.button.disabled = true;
    try {
      await post("/api/auth/password-reset/confirm", { token: form.dataset.token, password });
      ui.done(t("Пароль изменён. Войдите с новым паролем."));
      for (const input of form.querySelectorAll("input")) input.disabled = true;
      document.getElementById("to-login").focus();
    } catch (err) {
      ui.fail(message(err));
      ui.button.disabled = false;
    }
  });
}

function verifyForm(form) {
  const ui = boxes(form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    ui.clear();
    ui.button.disabled = true;
    try {
      const answer = await post("/api/auth/verify-email", { token: form.dataset.token });
      ui.done(t("Адрес {email} подтверждён.", { email: answer.email }));
    } catch (err) {
      ui.fail(message(err));
      ui.button.disabled = false;
    }
  });
}

function accountForm(form) {
  const ui = boxes(form, "email-error", "email-success");
  const remove = document.getElementById("email-remove");
  async function send(email) {
    ui.clear();
    ui.button.disabled = true;
    try {
      const answer = await api("PUT", "/api/me/email", { email });
      if (answer.email_pending) {
        ui.done(t("Письмо со ссылкой отправлено на {email}. Адрес заработает, когда вы откроете ссылку.", { email: answer.email_pending }));
      } else {
        ui.done(email ? t("Этот адрес уже подтверждён.") : t("Адрес удалён."));
      }
      form.elements.namedItem("email").value = "";
      if (remove) remove.hidden = !answer.email && !answer.email_pending;
    } catch (err) {
      ui.fail(message(err));
    } finally {
      ui.button.disabled = false;
    }
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const email = form.elements.namedItem("email").value.trim();
    if (!email) return ui.fail(t("Введите адрес почты."));
    send(email);
  });
  if (remove) remove.addEventListener("click", () => send(null));
}

function deleteForm(form) {
  const error = document.getElementById("delete-error");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    const password = form.elements.namedItem("password").value;
    if (!password) {
      error.textContent = t("Введите пароль.");
      error.hidden = false;
      return;
    }
    if (!window.confirm(t("Удалить учётную запись навсегда?"))) return;
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await api("DELETE", "/api/me", { password });
      location.assign("/");
    } catch (err) {
      error.textContent = message(err);
      error.hidden = false;
      button.disabled = false;
    }
  });
}

/** «Письма о ходе» (issue 28 §3): PUT /api/me/notices on every change; the Web Push choice is kept. */
function noticesChoice(select) {
  const error = document.getElementById("notices-error");
  const success = document.getElementById("notices-success");
  let stored = select.value;
  select.addEventListener("change", async () => {
    error.hidden = success.hidden = true;
    select.disabled = true;
    try {
      const answer = await api("PUT", "/api/me/notices", { email: select.value, push: select.dataset.push === "1" });
      stored = answer.email;
      success.textContent = answer.email !== "off" && !answer.has_email
        ? t("Сохранено. Письма пойдут, когда вы подтвердите адрес почты.")
        : t("Сохранено.");
      success.hidden = false;
    } catch (err) {
      select.value = stored;
      error.textContent = message(err);
      error.hidden = false;
    } finally {
      select.disabled = false;
    }
  });
}

const notices = document.getElementById("notices-email");
if (notices) noticesChoice(notices);

const forms = {
  "delete-form": deleteForm,
  "forgot-form": forgotForm,
  "reset-form": resetForm,
  "verify-form": verifyForm,
  "email-form": accountForm,
};
for (const [id, setUp] of Object.entries(forms)) {
  const form = document.getElementById(id);
  if (form) setUp(form);
}
