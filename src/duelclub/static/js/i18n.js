// The UI language on the client (duelclub/i18n.py): the page carries the current language's JS catalog as
// JSON in <template id="i18n-messages"> (empty for Russian, the source language; a template rather than an
// inline script keeps to the CSP).
// Every msgid is the Russian text itself; `make messages` extracts t(...) and tn(...) calls into the one
// Ukrainian catalog (src/duelclub/locale/uk/LC_MESSAGES/messages.po).

const DOC = typeof document !== "undefined" ? document : null;

/** The page language: "ru" or "uk" (from <html lang>). */
export const LANG = (DOC && DOC.documentElement.lang) || "ru";

function readCatalog() {
  const node = DOC && DOC.getElementById("i18n-messages");
  if (!node) return {};
  try {
    const data = JSON.parse((node.content ? node.content.textContent : node.textContent) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch (_err) {
    return {};
  }
}

const MESSAGES = readCatalog();
const RULES = new Intl.PluralRules(LANG); // CLDR rules, as Babel on the server (i18n.py plural_index)
const FORM = { one: 0, few: 1, many: 2, other: 2 };

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** `msgid` (Russian) in the page language; "{name}" placeholders are filled from `params`. */
export function t(msgid, params) {
  const text = MESSAGES[msgid];
  return fill(typeof text === "string" && text ? text : msgid, params);
}

/** The form of `n` — Russian `one` (1, 21), `few` (2–4) or `many` (5–20) — in the page language;
 * "{n}" and `params` are filled in. The catalog entry is keyed by `one` (msgid) and `few` (msgid_plural). */
export function tn(n, one, few, many, params) {
  const index = FORM[RULES.select(Math.abs(n))] ?? 2;
  const forms = MESSAGES[one];
  const text = Array.isArray(forms) && forms[index] ? forms[index] : [one, few, many][index];
  return fill(text, { n, ...(params || {}) });
}

/** A number as the page language writes it. */
export const fmt = (n) => new Intl.NumberFormat(LANG).format(n);
/** The page language as a locale for dates (`toLocaleString`): «6 груд.» on a Ukrainian page, «6 дек.» on a Russian one. */
export const LOCALE = LANG === "uk" ? "uk-UA" : "ru-RU";
