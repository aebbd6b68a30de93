// Thin fetch wrapper for the duelclub JSON API (DESIGN.md §Public JSON API).
// Every state-changing call sends Content-Type: application/json (the server's CSRF rule).
// A 503 (the database is down for a moment: store_unavailable) shows the page's «Нет связи с сервером, пробуем
// снова…» banner and rejects with that text; the next answer of any other status hides it (outage.js).
import { t, tn } from "./i18n.js";
import { isUnavailable, serverAvailable, serverUnavailable } from "./outage.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || "http_" + status;
  }
}

const MESSAGES = {
  network: t("Нет связи с сервером. Проверьте подключение и попробуйте ещё раз."),
  server: t("Ошибка сервера. Попробуйте ещё раз чуть позже."),
  unavailable: t("Нет связи с сервером, пробуем снова…"),
  // 403 csrf: the page's address is not the one the server answers on (a proxy that drops the port, an
  // old link); the server's own text is English, for API clients.
  csrf: t("Запрос отклонён (защита от подделки). Обновите страницу."), // as match.js and tournament_errors.js say it
};

function messageFrom(status, body) {
  if (body && typeof body === "object") {
    if (typeof body.message === "string" && body.message) return body.message;
    // FastAPI's own errors: {"detail": "..."} or {"detail": [{"msg": ...}]}
    const d = body.detail;
    if (typeof d === "string") return d;
    if (d && typeof d === "object" && !Array.isArray(d) && typeof d.message === "string") return d.message;
    if (Array.isArray(d) && d.length && d[0].msg) return d[0].msg;
  }
  return status >= 500 ? MESSAGES.server : t("Ошибка {status}", { status });
}

function codeFrom(body) {
  if (!body || typeof body !== "object") return undefined;
  if (typeof body.code === "string") return body.code;
  if (body.detail && typeof body.detail === "object" && typeof body.detail.code === "string") {
    return body.detail.code;
  }
  return undefined;
}

/** Call the API. `body` (if given) is sent as JSON. Resolves with the parsed JSON (or null), rejects with ApiError. */
export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined || method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (_err) {
    throw new ApiError(0, "network", MESSAGES.network);
  }
  if (isUnavailable(res.status)) serverUnavailable();
  else serverAvailable();
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (_err) {
      data = null;
    }
  }
  if (isUnavailable(res.status)) throw new ApiError(res.status, codeFrom(data) || "store_unavailable", MESSAGES.unavailable);
  if (!res.ok) {
    const code = codeFrom(data);
    throw new ApiError(res.status, code, code === "csrf" ? MESSAGES.csrf : messageFrom(res.status, data));
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body);
export const del = (path, body) => api("DELETE", path, body);

/** 32 lowercase hex characters from the browser's CSPRNG (fairness.md: the browser fills a client seed). */
export function clientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fresh action id (uuid v4); crypto.randomUUID is missing on plain-http non-localhost origins. */
export function uuid() {
  if (typeof crypto.randomUUID === "function") {
    try {
      return crypto.randomUUID();
    } catch (_err) {
      /* insecure context: fall through */
    }
  }
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Show a transient message in the page's toast area (#toasts). kind: "error" | "info". */
export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    box.className = "toasts";
    box.setAttribute("aria-live", "assertive");
    document.body.append(box);
  }
  const el = document.createElement("div");
  el.className = `toast toast-${kind}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  el.textContent = message;
  box.append(el);
  setTimeout(() => {
    el.classList.add("toast-out");
    setTimeout(() => el.remove(), 400);
  }, kind === "error" ? 6000 : 3500);
}

// Whitespace, C0/C1 controls, format characters (zero-width, BOM, bidi) and backslashes: browsers drop tabs and
// newlines from URLs and read "\\" as "/", so "/\t/evil.example" would lead to //evil.example.
const UNSAFE_IN_NEXT = /[\s\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\\]/;

/** A ?next= target on this site as pathname+search+hash, or `fallback` (no open redirects). */
export function safeNext(raw, fallback = "/") {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.startsWith("//") || UNSAFE_IN_NEXT.test(raw)) {
    return fallback;
  }
  let url;
  try {
    url = new URL(raw, location.origin);
  } catch (_err) {
    return fallback;
  }
  if (url.origin !== location.origin) return fallback;
  return url.pathname + url.search + url.hash;
}

/** Element helper: el("div", {class: "x", dataset: {card: "a"}, style: {color: "red"}}, "text", child). Text is
 * always textContent; style is set through the CSSOM (never a style attribute, which the CSP refuses). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "text") node.textContent = v;
    // Through the CSSOM: a style="" attribute breaks the Content-Security-Policy (style-src 'self').
    else if (k === "style") Object.assign(node.style, typeof v === "string" ? { cssText: v } : v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
