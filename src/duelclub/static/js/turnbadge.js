// «Ваш ход» everywhere (issue 16 §6): the header badge with the number of the member's matches waiting for
// their move, live over /ws/turns (web/turns.py) on every page; the tab title «(2) Ваш ход — Дуэль-клуб»;
// and, when the member turned them on (account page), a browser notification and a short sound while the tab
// is hidden — the opponent moved, a challenge was accepted, a match was found.

import { t } from "./i18n.js";
import { Backoff, TRY_AGAIN_LATER, serverAvailable, serverUnavailable } from "./outage.js";

export const SETTINGS = { notify: "duelclub.notify", sound: "duelclub.sound" };
const badge = document.getElementById("turn-badge");
const countBox = document.getElementById("turn-count");
const baseTitle = document.title;
let known = null; // ids waiting at the last message
const retry = new Backoff({ base: 1000, cap: 30000 }); // jittered: a restarted server is not hit in step

function paint(count) {
  if (badge) {
    badge.hidden = count === 0;
    badge.dataset.count = String(count);
  }
  if (countBox) countBox.textContent = String(count);
  document.title = count > 0 ? `(${count}) ${t("Ваш ход")} — ${t("Дуэль-клуб")}` : baseTitle;
}

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  } catch (_err) {
    /* no audio: nothing to do */
  }
}

/** Tell the member, if they asked for it and the tab is hidden. */
function signal(title, body, url) {
  if (!document.hidden) return;
  if (localStorage.getItem(SETTINGS.sound) === "1") beep();
  if (localStorage.getItem(SETTINGS.notify) === "1" && "Notification" in window && Notification.permission === "granted") {
    const n = new Notification(title, { body, tag: "duelclub-turn", icon: "/static/favicon.svg" });
    n.onclick = () => {
      window.focus();
      if (url) location.assign(url);
    };
  }
}

function onMessage(msg) {
  if (msg.type === "turns") {
    const ids = Array.isArray(msg.ids) ? msg.ids : [];
    const fresh = known === null ? [] : ids.filter((id) => !known.includes(id));
    known = ids;
    paint(ids.length);
    if (fresh.length) signal(t("Ваш ход"), t("Соперник сходил — ваша очередь."), `/matches/${encodeURIComponent(fresh[0])}`);
  } else if (msg.type === "match") {
    const words = {
      queue: t("Соперник найден — партия началась."),
      tournament: t("Турнир: ваша следующая партия готова."),
    };
    const body = words[msg.why] || t("Вызов принят — партия началась.");
    signal(t("Партия началась"), body, `/matches/${encodeURIComponent(msg.id)}`);
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/turns`);
  ws.addEventListener("open", () => {
    retry.reset();
    serverAvailable();
  });
  ws.addEventListener("message", (ev) => {
    try {
      onMessage(JSON.parse(ev.data));
    } catch (_err) {
      /* a malformed message is ignored */
    }
  });
  ws.addEventListener("close", (ev) => {
    if (ev.code === 4401 || ev.code === 1008) return; // logged out / refused: no badge
    if (ev.code === TRY_AGAIN_LATER) serverUnavailable(); // the database is down: issue 31 §2
    setTimeout(connect, retry.next());
  });
}

if (badge) connect();
