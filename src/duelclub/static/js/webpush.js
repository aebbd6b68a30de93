// Web Push helpers of the account page (issue 28 §3; pushsettings.js uses them, tests/js test them): the
// VAPID key in the form PushManager.subscribe takes, the body the API takes, and what the browser lacks.

/** The bytes of a base64url text (padded or not): the `applicationServerKey` of PushManager.subscribe. */
export function keyBytes(base64url) {
  const clean = String(base64url).replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(clean + "=".repeat((4 - (clean.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** True when `buffer` (a subscription's options.applicationServerKey, an ArrayBuffer or null) is the key
 * `base64url`: a subscription made with another key (the site's key changed) cannot be pushed to. */
export function sameKey(buffer, base64url) {
  if (!buffer) return false;
  const a = new Uint8Array(buffer);
  const b = keyBytes(base64url);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** `POST /api/me/push-subscriptions`'s body from a PushSubscription's toJSON(). */
export function subscriptionBody(json) {
  const keys = (json && json.keys) || {};
  return { endpoint: json.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** What this browser lacks for Web Push: "" (nothing), "insecure" (not https: browsers only push to secure
 * pages), or "unsupported". */
export function pushSupport(win) {
  if (!win.isSecureContext) return "insecure";
  if (!("serviceWorker" in win.navigator) || !("PushManager" in win) || !("Notification" in win)) {
    return "unsupported";
  }
  return "";
}

/** True when the API's listing of the member's browsers holds `endpoint`. */
export function isListed(listing, endpoint) {
  return Boolean(endpoint) && (listing.subscriptions || []).some((s) => s.endpoint === endpoint);
}

/** Forget this browser's push subscription before its member logs out: on the server (`remove(endpoint)`,
 * while the session still holds) and in the browser, so that a shared computer does not go on showing the
 * member's turns to whoever uses it next. Resolves true when a subscription was forgotten; never rejects,
 * and gives up after `ms` milliseconds, so that logging out is never held up (a server that missed the
 * DELETE forgets the endpoint at its next push: the push service answers 404/410 once unsubscribed). */
export async function forgetBrowser(nav, remove, ms = 2000) {
  const work = (async () => {
    const workers = nav && nav.serviceWorker;
    const registration = workers ? await workers.getRegistration() : null;
    const sub = registration ? await registration.pushManager.getSubscription() : null;
    if (!sub) return false;
    try {
      await remove(sub.endpoint);
    } finally {
      await sub.unsubscribe();
    }
    return true;
  })().catch(() => false);
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
