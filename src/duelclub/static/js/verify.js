// The verify page (/matches/{id}/verify): recomputes a match's commitment, key and every random draw in the
// browser with fairness.js — the same way for all four games (rules/fairness.md §Reveal and verification).
// Data: GET /api/matches/{id} (commitment, client seeds, the server seed once ended) and, once ended,
// GET /api/matches/{id}/draws (every draw of the stream in order, for members). The server gives no verdict.
// Test hooks: #verify[data-verdict="ok|fail|partial"] once done; each check li[data-check][data-ok].

import { el, get } from "./api.js";
import { bytesToHex, commitment, hexToBytes, matchKey, redraw } from "./fairness.js";
import { STATUS_NAMES, seatName } from "./names.js";
import { t, tn } from "./i18n.js";

const ENDED = new Set(["finished", "aborted"]);
const SHOWN_DRAWS = 12; // the first draws listed under the check

const root = document.getElementById("verify");
const matchId = root.dataset.matchId;
const enc = encodeURIComponent(matchId);
const $ = (id) => document.getElementById(id);
const results = []; // true | false | null (nothing to compare with) per check

// ---- loading ----------------------------------------------------------------------------------

let noDeal = false; // aborted before the deal: nothing was drawn

/** {info, draws}: draws (GET …/draws, for any member once the match has ended) is null while it is live. */
async function load() {
  const info = await get(`/api/matches/${enc}`);
  const draws = ENDED.has(info.status) ? await get(`/api/matches/${enc}/draws`) : null;
  return { info, draws };
}

// ---- rendering --------------------------------------------------------------------------------

const code = (text) => el("code", { class: "hash" }, text);
const isBotSeat = (seat) => !!(seat && typeof seat === "object" && (seat.bot || seat.kind === "bot" || seat.bot_level));
const seedText = (s, seat) =>
  s ? code(s) : el("span", { class: "muted" }, isBotSeat(seat) ? t("(пусто) — бот не добавляет своё зерно") : t("(пусто)"));

function showValues(info) {
  const seeds = info.client_seeds || {};
  const rows = [
    [t("Номер партии"), code(info.id)],
    [t("Статус"), STATUS_NAMES[info.status] || info.status],
    [t("Хеш раздачи (показан с начала партии)"), code(info.commitment)],
    [t("Секрет сервера"), info.server_seed ? code(info.server_seed) : el("span", { class: "muted" }, t("раскроется после партии"))],
    [t("Зерно игрока {n} ({name})", { n: 1, name: seatName(info.seats[0]) }), seedText(seeds.a, info.seats[0])],
    [t("Зерно игрока {n} ({name})", { n: 2, name: seatName(info.seats[1]) }), seedText(seeds.b, info.seats[1])],
  ];
  $("values").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  if (ENDED.has(info.status)) $("log-link").href = `/api/matches/${enc}/log`;
}

/** One check: ok true (✓), false (✗) or null (— nothing to compare with). rows: [label, Node | string]. */
function addCheck(key, title, ok, rows = [], note = "") {
  results.push(ok);
  const mark = ok === true ? "✓" : ok === false ? "✗" : "—";
  const state = ok === true ? "ok" : ok === false ? "fail" : "na";
  const spoken = ok === true ? t("пройдена") : ok === false ? t("не пройдена") : t("нет данных");
  $("checks").append(
    el(
      "li",
      { class: `check check-${state}`, dataset: { check: key, ok: ok === null ? "na" : String(ok) } },
      el("span", { class: "check__mark", "aria-hidden": "true" }, mark),
      el(
        "div",
        { class: "check__body" },
        el("p", { class: "check__title" }, title, el("span", { class: "visually-hidden" }, ` — ${spoken}`)),
        rows.length ? el("dl", { class: "kv kv-wide" }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])) : null,
        note ? el("p", { class: "check__note small" }, note) : null,
      ),
    ),
  );
}

function finish(message) {
  const failed = results.some((r) => r === false);
  const partial = !failed && results.some((r) => r === null);
  const verdict = failed ? "fail" : partial ? "partial" : "ok";
  const count = tn(checkedDraws, "{n} выбор", "{n} выбора", "{n} выборов");
  const box = $("verdict");
  box.className = `verdict verdict-${verdict}`;
  box.textContent =
    message ||
    (failed
      ? t("✗ Найдены расхождения: данные партии не сходятся с обязательством сервера.")
      : partial
        ? noDeal
          ? t("✓ Хеш раздачи и ключ проверены. Партию прервали до раздачи, поэтому случайных выборов не было.")
          : t("Проверено то, что уже можно проверить; остальное — после окончания партии.")
        : t("✓ Проверено: хеш раздачи совпал, и каждый случайный выбор партии ({count}) получен из раскрытого секрета сервера и зёрен игроков.", { count }));
  root.dataset.verdict = verdict;
}

// ---- the draws --------------------------------------------------------------------------------

let checkedDraws = 0;

/** Every draw of the match recomputed from K (fairness.js `redraw`) and compared with the published list. */
async function checkDraws(key, info, payload) {
  const draws = payload && Array.isArray(payload.draws) ? payload.draws : null;
  if (draws !== null && draws.length === 0 && info.status === "aborted") {
    noDeal = true;
    return addCheck("draws", t("Случайные выборы"), null, [], t("Партию прервали до раздачи: случайных выборов не было."));
  }
  const got = await redraw(key, draws);
  checkedDraws = got.checked;
  const total = draws ? draws.length : 0;
  const pick = (d) => (d && typeof d === "object" ? `${d.value} / ${d.bound}` : "?");
  const rows = [
    [t("совпало"), t("{checked} из {total}", { checked: got.checked, total })],
    [t("прочитано 32-битных слов потока"), String(got.words)],
  ];
  if (got.ok && total) {
    const first = draws.slice(0, SHOWN_DRAWS).map(pick).join(", ");
    rows.push([t("первые выборы (значение / из скольких)"), first + (total > SHOWN_DRAWS ? ", …" : "")]);
  }
  if (!got.ok && got.at !== null) {
    const wrote = got.computed === null ? "—" : `${got.computed} / ${draws[got.at].bound}`;
    rows.push([t("выбор №{n} в списке", { n: got.at + 1 }), pick(draws[got.at])], [t("вычислено"), wrote]);
  }
  addCheck("draws", t("Случайные выборы партии: каждый пересчитан из ключа тем же алгоритмом"), got.ok, rows,
    t("Жребий, каждый шаг тасовки и каждое вытягивание — это randint(n) из потока; сервер записал их по порядку, переиграв партию по журналу."));
}

// ---- the checks -------------------------------------------------------------------------------

async function verify(info, draws) {
  if (!info.server_seed) {
    addCheck("commitment", t("Хеш раздачи"), null, [[t("показан"), code(info.commitment)]],
      t("Секрет сервера раскроется, когда партия закончится: тогда здесь можно будет проверить, что раздача была определена этим хешем."));
    return finish();
  }
  let seed;
  try {
    seed = hexToBytes(info.server_seed);
    if (seed.length !== 32) throw new Error("length");
  } catch (_err) {
    addCheck("commitment", t("Хеш раздачи"), false, [[t("секрет сервера"), code(String(info.server_seed))]], t("Секрет сервера — не 32 байта в hex."));
    return finish();
  }
  const computed = await commitment(seed, info.id);
  const same = computed === info.commitment;
  addCheck("commitment", t("Хеш раздачи: секрет сервера и идентификатор партии дают тот же хеш, что был показан до начала"), same, [
    [t("вычислено"), code(computed)],
    [t("показано"), code(info.commitment)],
  ]);

  const seeds = info.client_seeds || {};
  let key;
  try {
    key = await matchKey(seed, info.id, seeds.a || "", seeds.b || "");
  } catch (err) {
    addCheck("key", t("Ключ случайности"), false, [], t("Не удалось вычислить: {error}.", { error: err.message }));
    return finish();
  }
  addCheck("key", t("Ключ случайности: вычислен из секрета сервера, номера партии и зёрен игроков"), true, [[t("ключ"), code(bytesToHex(key))]],
    t("Из этого ключа — и только из него — берутся жребий, тасовки и вытягивания."));

  await checkDraws(key, info, draws);
  return finish();
}

async function main() {
  let data;
  try {
    data = await load();
  } catch (err) {
    results.push(false);
    return finish(t("Не удалось загрузить партию: {error}", { error: err.message }));
  }
  showValues(data.info);
  try {
    await verify(data.info, data.draws);
  } catch (err) {
    results.push(false);
    finish(
      err.code === "no_subtle"
        ? t("Браузер не даёт посчитать SHA-256 на этой странице (нужен HTTPS). Проверьте журнал командой duelclub verify log.json.")
        : t("Проверка прервалась: {error}", { error: err.message }),
    );
  }
}

main();
