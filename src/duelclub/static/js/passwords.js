// Password rules shared by the registration and account forms; the same as the server's (store/users.py):
// 8–128 characters, not only spaces, no control characters. The server has the last word.
import { t, tn } from "./i18n.js";

const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

export const RATE_LIMITED = t("Слишком много попыток. Подождите немного и попробуйте снова.");

/** Why `password` breaks the rules (a Russian sentence), or null when it is acceptable. */
export function passwordProblem(password) {
  if (password.length < 8) return t("Пароль должен быть не короче 8 символов.");
  if (password.length > 128) return t("Пароль слишком длинный (не больше 128 символов).");
  if (!password.trim()) return t("Пароль не может состоять из одних пробелов.");
  if (CONTROL_RE.test(password)) return t("Пароль не может содержать управляющие символы.");
  return null;
}
