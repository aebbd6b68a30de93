// Tournament words (issue 26 §Pages), pure: no DOM, so node --test runs them (tests/js/). The format's rules
// in plain words, statuses, results and points as the page shows them.
import { t, tn } from "./i18n.js";

export const FORMAT_NAMES = {
  round_robin: t("Круговой"),
  swiss: t("Швейцарская система"),
  arena: t("Арена"),
};

export const STATUS_NAMES = {
  open: t("набор участников"),
  running: t("идёт"),
  paused: t("пауза"),
  finished: t("завершён"),
  cancelled: t("отменён"),
};

/** The format's name in the page language. */
export function formatName(format) {
  return FORMAT_NAMES[format] || format;
}

/** The status in the page language. */
export function statusName(status) {
  return STATUS_NAMES[status] || status;
}

/** The rules of the tournament's format in plain words (one paragraph). */
export function rulesText(tr) {
  const ties = t("При равенстве очков выше тот, у кого больше коэффициент Зоннеборна — Бергера, затем — кто выиграл личные встречи, затем — у кого больше побед.");
  const scoring = t("Победа — 1 очко, ничья — ½, поражение — 0.");
  if (tr.format === "round_robin") {
    const cycle = tr.double
      ? t("Каждый играет с каждым дважды: во втором круге места за столом меняются.")
      : t("Каждый играет с каждым один раз, по таблицам Бергера (FIDE).");
    const bye = t("При нечётном числе участников один игрок в каждом туре отдыхает и получает 1 очко.");
    return [cycle, bye, scoring, ties].join(" ");
  }
  if (tr.format === "swiss") {
    const n = (typeof tr.rounds === "number" ? tr.rounds : tr.total_rounds) || 0;
    const rounds = tn(n, "{n} тур", "{n} тура", "{n} туров", { n });
    const pairing = t("В каждом туре соперники подбираются с тем же или близким числом очков, и двое никогда не встречаются дважды; места за столом чередуются.");
    const bye = t("При нечётном числе участников отдыхает (и получает 1 очко) игрок с наименьшим счётом, ещё не отдыхавший.");
    return [rounds + ".", pairing, bye, scoring, ties].join(" ");
  }
  const n = tr.minutes || 0;
  const minutes = tn(n, "{n} минуту", "{n} минуты", "{n} минут", { n });
  const pool = t("Арена идёт {time}: закончив партию, игрок возвращается в пул и сразу получает нового свободного соперника — но не того же, с кем только что играл, пока есть другие.", { time: minutes });
  const streak = t("Победа — 2 очка, ничья — 1, поражение — 0. После двух побед подряд каждая следующая победа считается вдвойне (серия, 🔥), пока серия не прервётся.");
  const last = t("Партии, начатые до конца времени, доигрываются и засчитываются.");
  return [pool, streak, last].join(" ");
}

/** Points as the table shows them: 2½, 3, ½. */
export function points(value) {
  const whole = Math.floor(value);
  const half = value - whole >= 0.5;
  if (!half) return String(whole);
  return whole === 0 ? "½" : `${whole}½`;
}

/** A board's result from the first seat's side: "1-0", "0-1", "½-½", "+/-", "-/+", "-/-", "bye", or "…". */
export function resultText(pairing) {
  if (pairing.result === null || pairing.result === undefined) return pairing.seats[1] === null ? t("отдых") : "…";
  if (pairing.result === "bye") return t("отдых");
  return pairing.result;
}

/** The page's default name: «Круговой турнир — Дві вежі». */
export function tournamentTitle(tr, gameTitle) {
  if (tr.name) return tr.name;
  return t("{format}: {game}", { format: formatName(tr.format), game: gameTitle || tr.game });
}
