// The verify page (/matches/{id}/verify): recomputes a match's commitment, key and deal in the browser with
// fairness.js and compares them with what the server showed (rules/fairness.md §Reveal and verification).
// Data: GET /api/matches/{id} (commitment, client seeds, the server seed once ended), and for an ended match
// GET /api/matches/{id}/log (its players and admins: options, seeds and `initial`, the full view of the deal).
// Test hooks: #verify[data-verdict="ok|fail|partial"] once done; each check li[data-check][data-ok].

import { el, get } from "./api.js";
import { bytesToHex, commitment, hexToBytes, matchKey, mezhaDeal } from "./fairness.js";
import { HOUSE_NAMES, STATUS_NAMES, seatName } from "./names.js";
import { t, tn } from "./i18n.js";

const MEZHA_START_HAND = 8; // rules/mezha.md §Match setup, step 4
const ENDED = new Set(["finished", "aborted"]);
const OMEN_FALLBACK = { thaw: t("Оттепель"), drought: t("Засуха"), fair: t("Ярмарка"), storm: t("Гроза") };

const root = document.getElementById("verify");
const matchId = root.dataset.matchId;
const enc = encodeURIComponent(matchId);
const $ = (id) => document.getElementById(id);
const results = []; // true | false | null (nothing to compare with) per check

// ---- loading ----------------------------------------------------------------------------------

// The full log is open only to the match's players and admins (403 for anyone else).
let logDenied = false;
let dealByCli = false; // the deal of this game is checked by the CLI, not here (the match has ended)
const DENIED_NOTE =
  t("Полный журнал партии с раздачей открыт только её игрокам и администраторам, поэтому здесь сравнить не с чем. ") +
  t("Любой может проверить хеш раздачи и ключ выше.");

/** {info, log, catalog}: log is null when the match has not ended or the caller may not read it. */
async function load() {
  const info = await get(`/api/matches/${enc}`);
  let log = null;
  if (ENDED.has(info.status)) {
    try {
      log = await get(`/api/matches/${enc}/log`);
    } catch (err) {
      if (err.status !== 403) throw err; // not a player: verify from the public summary
      logDenied = true;
    }
  }
  let catalog = null;
  try {
    const games = await get("/api/games");
    const g = (Array.isArray(games) ? games : []).find((x) => x.slug === info.game);
    catalog = g ? g.catalog : null;
  } catch (_err) {
    /* the deal check says it cannot run */
  }
  return { info, log, catalog };
}

// ---- rendering --------------------------------------------------------------------------------

const code = (text) => el("code", { class: "hash" }, text);
const isBotSeat = (seat) => !!(seat && typeof seat === "object" && (seat.bot || seat.kind === "bot" || seat.bot_level));
const seedText = (s, seat) =>
  s ? code(s) : el("span", { class: "muted" }, isBotSeat(seat) ? t("(пусто) — бот не добавляет своё зерно") : t("(пусто)"));

function showValues(info, src) {
  const seeds = src.client_seeds || {};
  const rows = [
    [t("Номер партии"), code(info.id)],
    [t("Статус"), STATUS_NAMES[info.status] || info.status],
    [t("Хеш раздачи (показан с начала партии)"), code(info.commitment)],
    [t("Секрет сервера"), src.server_seed ? code(src.server_seed) : el("span", { class: "muted" }, t("раскроется после партии"))],
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
  const box = $("verdict");
  box.className = `verdict verdict-${verdict}`;
  box.textContent =
    message ||
    (failed
      ? t("✗ Найдены расхождения: данные партии не сходятся с обязательством сервера.")
      : partial
        ? logDenied
          ? t("Хеш раздачи проверен — это может сделать любой. Полный журнал партии открыт только её игрокам и администраторам, поэтому саму раздачу здесь сравнить не с чем.")
          : dealByCli
            ? t("✓ Хеш раздачи и ключ случайности проверены в браузере. Саму раздачу этой игры проверяет команда duelclub verify log.json по журналу партии.")
            : t("Проверено то, что уже можно проверить; остальное — после окончания партии.")
        : t("✓ Все проверки пройдены: раздача получена из показанного заранее хеша и зёрен игроков."));
  root.dataset.verdict = verdict;
}

// ---- Mezha's deal -----------------------------------------------------------------------------

const sameList = (x, y) => Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => v === y[i]);

async function checkMezhaDeal(key, catalog, src, info) {
  const names = new Map(catalog.cards.map((c) => [c.id, c.name]));
  const omenNames = new Map((catalog.omens || []).map((o) => [o.id, o.name]));
  const order = new Map(catalog.cards.map((c, i) => [c.id, i]));
  const cards = (ids) => (Array.isArray(ids) ? ids.map((id) => names.get(id) || id).join(", ") || t("пусто") : "—");
  const omens = (ids) => (Array.isArray(ids) ? ids.map((o) => omenNames.get(o) || OMEN_FALLBACK[o] || o).join(" → ") : "—");
  const player = (s) => t("игрок {n} ({name})", { n: s + 1, name: seatName(info.seats[s]) });

  const house0 = (src.options || {}).house;
  const deal = await mezhaDeal(key, catalog, house0);
  const init = src.initial || null;
  const cmp = (same) => (init ? same : null);
  const noLog = init ? "" : DENIED_NOTE;
  // With the log: the logged value when it differs, «совпадает» when it does not.
  const logged = (label, text, same) =>
    !init ? [] : same ? [[t("в журнале"), t("совпадает")]] : [[`в журнале: ${label}`, text]];

  const houses = deal.houses.map((h) => HOUSE_NAMES[h] || h).join(" — ");
  const housesOk = cmp(sameList(deal.houses, init && init.houses));
  addCheck("houses", t("Дома игроков (из настроек партии)"), housesOk, [
    [t("вычислено"), houses],
    ...logged(t("дома"), init ? (init.houses || []).map((h) => HOUSE_NAMES[h] || h).join(" — ") : "", housesOk),
  ], noLog);

  const starterOk = cmp(init ? deal.starter === init.starter : false);
  addCheck("starter", t("Жребий: кто начинает первый сезон"), starterOk, [
    [t("вычислено"), player(deal.starter)],
    ...logged(t("начинает"), init && typeof init.starter === "number" ? player(init.starter) : "—", starterOk),
  ], noLog);

  for (const s of [0, 1]) {
    const deck = deal.decks[s];
    const hand = deck.slice(0, MEZHA_START_HAND).sort((x, y) => order.get(x) - order.get(y));
    const rest = deck.slice(MEZHA_START_HAND);
    const ok = cmp(init ? sameList(hand, (init.hands || [])[s]) && sameList(rest, (init.decks || [])[s]) : false);
    addCheck(`deck${s}`, t("Тасовка колоды: {player}", { player: player(s) }), ok, [
      [t("стартовая рука"), cards(hand)],
      [t("колода сверху вниз"), cards(rest)],
      ...(ok
        ? logged("", "", true)
        : [
            ...logged(t("рука"), init ? cards((init.hands || [])[s]) : "", false),
            ...logged(t("колода"), init ? cards((init.decks || [])[s]) : "", false),
          ]),
    ], noLog);
  }

  const omensOk = cmp(init ? sameList(deal.omens, init.omens) : false);
  addCheck("omens", t("Приметы по сезонам: четыре приметы перетасованы"), omensOk, [
    [t("вычислено"), omens(deal.omens)],
    ...logged(t("приметы"), init ? omens(init.omens) : "", omensOk),
  ], t("Сезоны 1, 2 и 3 берут первые три приметы.") + (noLog ? " " + noLog : ""));
}

// ---- the checks -------------------------------------------------------------------------------

async function verify(info, log, catalog) {
  const src = log || info;
  if (!src.server_seed) {
    addCheck("commitment", t("Хеш раздачи"), null, [[t("показан"), code(info.commitment)]],
      t("Секрет сервера раскроется, когда партия закончится: тогда здесь можно будет проверить, что раздача была определена этим хешем."));
    return finish();
  }
  let seed;
  try {
    seed = hexToBytes(src.server_seed);
    if (seed.length !== 32) throw new Error("length");
  } catch (_err) {
    addCheck("commitment", t("Хеш раздачи"), false, [[t("секрет сервера"), code(String(src.server_seed))]], t("Секрет сервера — не 32 байта в hex."));
    return finish();
  }
  const computed = await commitment(seed, info.id);
  const same = computed === info.commitment;
  addCheck("commitment", t("Хеш раздачи: секрет сервера и номер партии дают тот же хеш, что был показан до начала"), same, [
    [t("вычислено"), code(computed)],
    [t("показано"), code(info.commitment)],
  ]);

  const seeds = src.client_seeds || {};
  let key;
  try {
    key = await matchKey(seed, info.id, seeds.a || "", seeds.b || "");
  } catch (err) {
    addCheck("key", t("Ключ случайности"), false, [], `Не удалось вычислить: ${err.message}.`);
    return finish();
  }
  addCheck("key", t("Ключ случайности: вычислен из секрета сервера, номера партии и зёрен игроков"), true, [[t("ключ"), code(bytesToHex(key))]],
    t("Из этого ключа — и только из него — берутся жребий, тасовки и приметы."));

  if (info.game === "mezha" && catalog && Array.isArray(catalog.cards)) {
    if (log && !log.initial) {
      addCheck("deal", t("Раздача"), null, [], t("Партию прервали до раздачи: сравнивать нечего."));
    } else {
      await checkMezhaDeal(key, catalog, src, info);
    }
  } else {
    dealByCli = true;
    addCheck("deal", t("Раздача"), null, [], t("Для этой игры раздачу проверяет команда duelclub verify log.json."));
  }
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
  showValues(data.info, data.log || data.info);
  try {
    await verify(data.info, data.log, data.catalog);
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
