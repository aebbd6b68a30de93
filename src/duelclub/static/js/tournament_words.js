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
    const played = tr.status !== "open" && typeof tr.total_rounds === "number"; // a Swiss cut at its start plays fewer
    const n = (played ? tr.total_rounds : asked(tr) ?? tr.total_rounds) || 0;
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

/** A board's result from the first seat's side: "1-0", "0-1", "½-½", "+/-", "-/+", "-/-", "…" while in play;
 * a bye "+1" (its point: the row already says who sits out, byeText). */
export function resultText(pairing) {
  if (pairing.seats[1] === null || pairing.result === "bye") return "+1";
  if (pairing.result === null || pairing.result === undefined) return "…";
  return pairing.result;
}

/** What a bye row says after the player's name: «отдыхает в этом туре». */
export function byeText() {
  return t("отдыхает в этом туре");
}

/** A Swiss plays fewer rounds than asked (the server started it at its time with fewer players than the rounds
 * need): the sentence that says so, or "" when it plays them all. */
export function roundsCutText(tr) {
  const rounds = asked(tr);
  if (tr.format !== "swiss" || tr.status === "open" || typeof rounds !== "number") return "";
  if (typeof tr.total_rounds !== "number" || tr.total_rounds >= rounds) return "";
  const players = tn(tr.players.length, "{n} участник", "{n} участника", "{n} участников"); // not nested: babel sees it
  return t("Туров будет {total}, а не {rounds}: к началу записалось {players}, а больше туров без повторных встреч не сыграть.", {
    total: tr.total_rounds,
    rounds,
    players,
  });
}

/** A tournament the server cancelled at its start time (fewer than 2 players then): the sentence, or "". An
 * organiser's cancel before the start time says nothing (it was cancelled before `starts_at`). */
export function cancelledText(tr) {
  if (tr.status !== "cancelled" || tr.started_at || !tr.starts_at || !tr.finished_at) return "";
  if (new Date(tr.finished_at) < new Date(tr.starts_at) || tr.players.length >= 2) return "";
  return t("Турнир отменён: к назначенному началу записалось меньше двух участников.");
}

/** An open Swiss with a start time and, so far, fewer players than its rounds need: the warning, or "". */
export function roundsWarningText(tr) {
  const rounds = asked(tr);
  if (tr.format !== "swiss" || tr.status !== "open" || !tr.starts_at || typeof rounds !== "number") return "";
  const most = maxSwissRounds(tr.players.length);
  if (tr.players.length < 2 || most >= rounds) return "";
  return t("Пока участников {players}: если к началу их не прибавится, туров будет {most}, а не {rounds}.", {
    players: tr.players.length,
    most,
    rounds,
  });
}

/** A Swiss's rounds as created: `planned_rounds` of the detail, `rounds` of a list line. */
function asked(tr) {
  if (typeof tr.planned_rounds === "number") return tr.planned_rounds;
  return typeof tr.rounds === "number" ? tr.rounds : null;
}

/** The most Swiss rounds `n` players can play without a rematch (play/tournaments/swiss.py max_rounds). */
export function maxSwissRounds(n) {
  return n < 2 ? 0 : n - 1 + (n % 2);
}

/** A moment in the reader's local time and language: «6 декабря, 18:00» (the year when it is not `now`'s). */
export function localTime(iso, lang = "ru", now = new Date()) {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return "";
  const options = { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" };
  if (d.getFullYear() !== now.getFullYear()) options.year = "numeric";
  return d.toLocaleString(lang === "uk" ? "uk-UA" : "ru-RU", options);
}

/** Time left as the arena's countdown shows it: "1:02:05", "12:34", "0:07"; "0:00" once over. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The page's default name: «Круговой турнир — Дві вежі». */
export function tournamentTitle(tr, gameTitle) {
  if (tr.name) return tr.name;
  return t("{format}: {game}", { format: formatName(tr.format), game: gameTitle || tr.game });
}

/** What a player of a running tournament reads while no match of theirs is in play: they sit out this round
 * (the bye's point), their game of the round is over and the next round waits for the others, or (an arena)
 * the next opponent is being found; "" for anyone else. */
export function waitingText(tr) {
  const you = tr.you || {};
  if (tr.status !== "running" || !you.joined || you.withdrawn || you.match_id) return "";
  if (tr.format === "arena") return t("Подбираем вам соперника: партия начнётся, как только он освободится.");
  const me = (tr.players.find((p) => p.number === you.number) || {}).username;
  const round = (tr.rounds || []).find((r) => r.number === tr.current_round);
  const mine = me && round ? round.pairings.find((p) => p.seats.includes(me)) : null;
  if (!mine) return "";
  const next =
    tr.current_round < tr.total_rounds
      ? t("Следующий тур начнётся, когда закончатся все партии этого тура.")
      : t("Итоги — когда закончатся все партии этого тура.");
  const now = mine.seats[1] === null ? t("В этом туре вы отдыхаете и получаете 1 очко.") : t("Ваша партия этого тура окончена.");
  return `${now} ${next}`;
}

/** The crosstable in the standings' order, as a printed one (and the CSV) is: `{place, username, cells, byes}`
 * per row, `cells[k]` the marks against the player placed k + 1 ("×" on the diagonal), `byes` "+1" per round
 * sat out. So row and column 1 are the standings' first player; rows missing from the standings (none, in
 * practice) follow in the server's seed order. */
export function crosstableRows(tr) {
  const order = (tr.standings || []).map((s) => s.username);
  const rows = [...(tr.crosstable || [])].sort((a, b) => rankOf(order, a.username) - rankOf(order, b.username));
  const names = rows.map((r) => r.username);
  return rows.map((r, i) => ({
    place: i + 1,
    username: r.username,
    cells: names.map((n) => (n === r.username ? "×" : (r.cells[n] || []).join(" "))),
    byes: (r.byes || []).map(() => "+1").join(" "),
  }));
}

function rankOf(order, name) {
  const i = order.indexOf(name);
  return i < 0 ? order.length : i;
}

/** The crosstable's legend: what its marks mean. */
export function crosstableLegend() {
  return t("1 — победа, ½ — ничья, 0 — поражение; + и - — победа и поражение без игры (неявка); * — партия идёт; +1 — отдых в туре.");
}


/** Under the standings, once a point came without a game (a forfeit, a bye): why «Побед» or «Очки» can
 *  exceed «Сыграно» (FIDE counts only games played over the board); "" while every point was played for. */
export function standingsLegend(tr) {
  const unplayed = (tr.rounds || []).some((r) => (r.pairings || []).some((p) => p.forfeit || p.seats[1] === null));
  if (!unplayed) return "";
  return t("«Сыграно» — партии за доской. Победа без игры (соперник не пришёл или выбыл) входит в «Побед», но не в «Сыграно»; отдых в туре даёт очко без партии.");
}
