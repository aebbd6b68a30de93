// The club's service worker (issue 28 §3, Web Push), served as /sw.js so that its scope is the whole site
// (web/routes/push.py). A classic script, not a module: every browser with Web Push runs those.
//
// A push carries the JSON {title, body, url, tag} (notify/push.py), already in the member's language: it is
// shown as a notification, a newer one of the same tag (one match) replacing the older; a click on it
// focuses a tab already at that page of the site or opens one. Only pages of this site are opened.
"use strict";

const FALLBACK_TITLE = "Дуэль-клуб";
const ICON = "/static/favicon.svg";

/** The notice in a push's text: {title, body, url, tag}, each a string (a payload that is not the site's
 * JSON still shows a notice that opens the site). */
function parseMessage(text) {
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_err) {
    data = null;
  }
  const field = (name) => (data && typeof data[name] === "string" ? data[name] : "");
  const url = field("url") || "/";
  return { title: field("title") || FALLBACK_TITLE, body: field("body"), url, tag: field("tag") || url };
}

/** The absolute URL a click opens: `url` on `origin`; the site's front page for anything that would leave
 * the site (another origin, a javascript: URL). */
function targetUrl(url, origin) {
  try {
    const target = new URL(url || "/", origin);
    if (target.origin === origin) return target.href;
  } catch (_err) {
    // fall through: not a URL
  }
  return new URL("/", origin).href;
}

/** showNotification's (title, options) for a notice. */
function notificationOf(message) {
  return [message.title, { body: message.body, tag: message.tag, icon: ICON, data: { url: message.url } }];
}

/** Focus a window of this site already at `href`, else open one. */
async function openPage(clients, href) {
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) {
    if (client.url === href && "focus" in client) return client.focus();
  }
  return clients.openWindow(href);
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  const message = parseMessage(event.data ? event.data.text() : "");
  const [title, options] = notificationOf(message);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openPage(self.clients, targetUrl(data.url, self.location.origin)));
});
