// node --test tests/js/ (run by tests/test_js_units.py): the Web Push helpers of the account page
// (static/js/webpush.js) and the service worker (static/js/sw.js, a classic script: run here in a vm
// context with a stand-in `self`, the way a browser runs it in its worker global scope).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

import {
  forgetBrowser,
  isListed,
  keyBytes,
  pushSupport,
  sameKey,
  subscriptionBody,
} from "../../src/duelclub/static/js/webpush.js";

const KEY = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM";

test("the VAPID key becomes the 65 bytes PushManager.subscribe takes", () => {
  const bytes = keyBytes(KEY);
  assert.equal(bytes.length, 65);
  assert.equal(bytes[0], 4);
  assert.deepEqual(keyBytes(KEY + "="), bytes); // padded or not
  assert.deepEqual(Array.from(keyBytes("-_8")), [0xfb, 0xff]); // the URL-safe alphabet
});

test("a subscription made with another key is not ours", () => {
  assert.equal(sameKey(keyBytes(KEY).buffer, KEY), true);
  const other = keyBytes(KEY);
  other[10] ^= 1;
  assert.equal(sameKey(other.buffer, KEY), false);
  assert.equal(sameKey(null, KEY), false);
});

test("the API body is the endpoint and the two keys, nothing else", () => {
  const json = { endpoint: "https://push.example/a", expirationTime: null, keys: { p256dh: "P", auth: "A", x: 1 } };
  assert.deepEqual(subscriptionBody(json), { endpoint: "https://push.example/a", keys: { p256dh: "P", auth: "A" } });
});

test("what the browser lacks is named", () => {
  const full = { isSecureContext: true, navigator: { serviceWorker: {} }, PushManager: {}, Notification: {} };
  assert.equal(pushSupport(full), "");
  assert.equal(pushSupport({ ...full, isSecureContext: false }), "insecure");
  assert.equal(pushSupport({ ...full, PushManager: undefined, navigator: {} }), "unsupported");
  const { PushManager: _gone, ...noPush } = full;
  assert.equal(pushSupport(noPush), "unsupported");
});

test("the server's listing tells whether this browser is subscribed", () => {
  const listing = { public_key: KEY, subscriptions: [{ endpoint: "https://push.example/a" }] };
  assert.equal(isListed(listing, "https://push.example/a"), true);
  assert.equal(isListed(listing, "https://push.example/b"), false);
  assert.equal(isListed(listing, null), false);
});

/** sw.js run in a worker-like global: its listeners, the notifications it shows, the windows it opens. */
function serviceWorker(windows = []) {
  const listeners = {};
  const shown = [];
  const opened = [];
  const focused = [];
  const self = {
    location: { origin: "https://club.example" },
    addEventListener: (type, fn) => (listeners[type] = fn),
    skipWaiting: () => undefined,
    registration: { showNotification: async (title, options) => shown.push({ title, options }) },
    clients: {
      claim: async () => undefined,
      matchAll: async () => windows.map((url) => ({ url, focus: async () => focused.push(url) })),
      openWindow: async (url) => opened.push(url),
    },
  };
  const context = vm.createContext({ self, URL, JSON });
  vm.runInContext(readFileSync(new URL("../../src/duelclub/static/js/sw.js", import.meta.url), "utf8"), context);
  async function dispatch(type, event) {
    let done;
    listeners[type]({ ...event, waitUntil: (p) => (done = p) });
    await done;
  }
  return { context, dispatch, shown, opened, focused };
}

test("a push is shown as the site wrote it, tagged by its match", async () => {
  const sw = serviceWorker();
  const text = JSON.stringify({ title: "Ваш ход", body: "Межа: против boris", url: "/matches/m1", tag: "/matches/m1" });
  await sw.dispatch("push", { data: { text: () => text } });
  assert.equal(sw.shown.length, 1);
  assert.equal(sw.shown[0].title, "Ваш ход");
  assert.equal(sw.shown[0].options.body, "Межа: против boris");
  assert.equal(sw.shown[0].options.tag, "/matches/m1");
  assert.deepEqual({ ...sw.shown[0].options.data }, { url: "/matches/m1" });
});

test("a push without the site's JSON still shows a notice that opens the site", async () => {
  const sw = serviceWorker();
  await sw.dispatch("push", { data: { text: () => "not json" } });
  await sw.dispatch("push", { data: null });
  assert.deepEqual(
    sw.shown.map((n) => [n.title, n.options.body, n.options.data.url]),
    [
      ["Дуэль-клуб", "", "/"],
      ["Дуэль-клуб", "", "/"],
    ],
  );
});

test("a click opens the match, or focuses the tab already there", async () => {
  const fresh = serviceWorker(["https://club.example/lobby"]);
  let closed = 0;
  const notification = (url) => ({ data: { url }, close: () => (closed += 1) });
  await fresh.dispatch("notificationclick", { notification: notification("/matches/m1") });
  assert.deepEqual(fresh.opened, ["https://club.example/matches/m1"]);
  assert.equal(closed, 1);
  const there = serviceWorker(["https://club.example/matches/m1"]);
  await there.dispatch("notificationclick", { notification: notification("/matches/m1") });
  assert.deepEqual(there.focused, ["https://club.example/matches/m1"]);
  assert.deepEqual(there.opened, []);
});

test("a click never leaves the site", () => {
  const { context } = serviceWorker();
  const origin = "https://club.example";
  assert.equal(context.targetUrl("/matches/m1?x=1", origin), "https://club.example/matches/m1?x=1");
  assert.equal(context.targetUrl("https://evil.example/", origin), "https://club.example/");
  assert.equal(context.targetUrl("//evil.example/x", origin), "https://club.example/");
  assert.equal(context.targetUrl("javascript:alert(1)", origin), "https://club.example/");
  assert.equal(context.targetUrl(undefined, origin), "https://club.example/");
});

function fakeNavigator(sub) {
  return { serviceWorker: { getRegistration: async () => ({ pushManager: { getSubscription: async () => sub } }) } };
}

test("logging out forgets this browser's subscription on the server, then in the browser", async () => {
  const calls = [];
  const sub = { endpoint: "https://push.example/a", unsubscribe: async () => calls.push("unsubscribe") };
  const forgot = await forgetBrowser(fakeNavigator(sub), async (endpoint) => calls.push(`DELETE ${endpoint}`));
  assert.equal(forgot, true);
  assert.deepEqual(calls, ["DELETE https://push.example/a", "unsubscribe"]);
});

test("logging out without a subscription, a service worker or a server answer still goes on", async () => {
  assert.equal(await forgetBrowser(fakeNavigator(null), async () => assert.fail("nothing to remove")), false);
  assert.equal(await forgetBrowser({}, async () => assert.fail("no service worker")), false);
  const calls = [];
  const sub = { endpoint: "https://push.example/b", unsubscribe: async () => calls.push("unsubscribe") };
  const failing = async () => {
    throw new Error("503");
  };
  assert.equal(await forgetBrowser(fakeNavigator(sub), failing), false);
  assert.deepEqual(calls, ["unsubscribe"], "the browser forgets it even when the server could not");
  const hanging = () => new Promise(() => {});
  const started = Date.now();
  assert.equal(await forgetBrowser(fakeNavigator(sub), hanging, 50), false);
  assert.ok(Date.now() - started < 1000, "gives up after its time");
});
