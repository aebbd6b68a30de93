// The account page's «Когда ваш ход» settings (issue 16 §6): browser notifications (asks the browser for the
// permission) and a sound while the tab is hidden; kept in this browser's localStorage (turnbadge.js reads it).

import { t } from "./i18n.js";
import { SETTINGS } from "./turnbadge.js";

const notify = document.getElementById("notify-setting");
const sound = document.getElementById("sound-setting");
const state = document.getElementById("notify-state");
const supported = "Notification" in window;

function paintState() {
  if (!supported) state.textContent = t("Этот браузер не умеет показывать уведомления.");
  else if (Notification.permission === "denied") state.textContent = t("Уведомления запрещены в настройках браузера для этого сайта.");
  else state.textContent = "";
}

notify.checked = localStorage.getItem(SETTINGS.notify) === "1" && supported && Notification.permission === "granted";
sound.checked = localStorage.getItem(SETTINGS.sound) === "1";
notify.disabled = !supported;
paintState();

notify.addEventListener("change", async () => {
  if (notify.checked && supported && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") notify.checked = false;
  }
  localStorage.setItem(SETTINGS.notify, notify.checked ? "1" : "0");
  paintState();
});
sound.addEventListener("change", () => localStorage.setItem(SETTINGS.sound, sound.checked ? "1" : "0"));
