// The account page's «Включить уведомления в браузере» (issue 28 §3, Web Push): registers the service worker
// (/sw.js), subscribes this browser with the site's VAPID key (PushManager) and gives the subscription to
// the server (POST /api/me/push-subscriptions); «Выключить» removes it there and in the browser. The state
// shown is the server's: a subscription the server dropped (the push service forgot it, the account of
// someone else took this browser) shows as off.
import { del, get, post } from "./api.js";
import { t } from "./i18n.js";
import { isListed, keyBytes, pushSupport, sameKey, subscriptionBody } from "./webpush.js";

const button = document.getElementById("push-toggle");
const state = document.getElementById("push-state");
const error = document.getElementById("push-error");

const LACKS = {
  insecure: t("Уведомления в браузере работают только на сайте с https."),
  unsupported: t("Этот браузер не умеет получать уведомления от сайтов."),
};

function show(on) {
  state.textContent = on
    ? t("Уведомления в этом браузере включены: они придут, даже когда вкладка клуба закрыта.")
    : t("Уведомления в этом браузере выключены.");
  button.textContent = on ? t("Выключить уведомления в браузере") : t("Включить уведомления в браузере");
  button.dataset.on = on ? "1" : "0";
  button.hidden = false;
}

function fail(message) {
  error.textContent = message;
  error.hidden = false;
}

async function current(registration, listing) {
  const sub = await registration.pushManager.getSubscription();
  const ours = sub && sameKey(sub.options && sub.options.applicationServerKey, listing.public_key);
  return { sub, on: Boolean(ours && isListed(listing, sub.endpoint)) };
}

async function enable(registration, listing) {
  if ((await Notification.requestPermission()) !== "granted") {
    return fail(t("Браузер не разрешил уведомления: разрешите их для этого сайта в настройках браузера."));
  }
  const old = await registration.pushManager.getSubscription();
  if (old && !sameKey(old.options && old.options.applicationServerKey, listing.public_key)) await old.unsubscribe();
  let sub;
  try {
    sub = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(listing.public_key),
    });
  } catch (err) {
    // e.g. a private window (Chrome has no push there) or no connection to the browser's push service
    throw new Error(t("Браузер не смог подписаться на уведомления ({reason}). В приватном окне они не работают.", { reason: err.message }));
  }
  await post("/api/me/push-subscriptions", subscriptionBody(sub.toJSON()));
}

async function disable(registration) {
  const sub = await registration.pushManager.getSubscription();
  if (!sub) return;
  await del("/api/me/push-subscriptions", { endpoint: sub.endpoint });
  await sub.unsubscribe();
}

async function setUp() {
  const lack = pushSupport(window);
  if (lack) {
    state.textContent = LACKS[lack];
    return;
  }
  const registration = await navigator.serviceWorker.register("/sw.js");
  let listing = await get("/api/me/push-subscriptions");
  show((await current(registration, listing)).on);
  button.addEventListener("click", async () => {
    error.hidden = true;
    button.disabled = true;
    try {
      if (button.dataset.on === "1") await disable(registration);
      else await enable(registration, listing);
      listing = await get("/api/me/push-subscriptions");
      show((await current(registration, listing)).on);
    } catch (err) {
      fail(err.message || t("Не получилось. Попробуйте ещё раз."));
    } finally {
      button.disabled = false;
    }
  });
}

if (button) {
  setUp().catch((err) => fail(err.message || t("Не получилось. Попробуйте ещё раз.")));
}
