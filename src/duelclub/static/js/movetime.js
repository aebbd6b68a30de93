// The time per move in words, the same on the lobby's challenges, the queue and the tournament pages.
// DOM-free: tests/js runs it in node.

import { t, tn } from "./i18n.js";

const CLOCK_WORDS = { 15: t("15 с"), 30: t("30 с"), 60: t("1 мин"), 120: t("2 мин"), 300: t("5 мин"), 86400: t("24 ч") };
const DAY = 86400;

/** Seconds per move in words: «1 мин», «24 ч», «3 дня», «без часов». */
export function moveTimeText(seconds) {
  if (!seconds) return t("без часов");
  if (CLOCK_WORDS[seconds]) return CLOCK_WORDS[seconds];
  if (seconds % DAY === 0) return tn(seconds / DAY, "{n} день", "{n} дня", "{n} дней");
  if (seconds % 3600 === 0) return t("{n} ч", { n: seconds / 3600 });
  if (seconds % 60 === 0) return t("{n} мин", { n: seconds / 60 });
  return t("{n} с", { n: seconds });
}
