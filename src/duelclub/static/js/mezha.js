// Межа renderer (rules/mezha.md §What each player sees): three fields with both halves, the hand, the omen,
// seasons, passes, decks, discards, past seasons. View shape: src/duelclub/games/mezha/view.py; event shapes:
// src/duelclub/games/mezha/events.py; each event's log line comes worded from src/duelclub/words/mezha.py.

import { el } from "./api.js";
import { t, tn } from "./i18n.js";
import { HOUSE_NAMES, seatName } from "./names.js";
import { actionLine, createState, fillSeat, makeRenderer, markNode, noSeat, resultHead, resultOf, seatWords, takeLock, whoseTurn } from "./renderbase.js";

const FIELD_NAMES = [t("Луг"), t("Брод"), t("Холм")];

// Omen and card names are proper names, the same in every language (as the seed gives them); texts are translated.
const OMENS = {
  thaw: {
    name: "Оттепель",
    text: t("Первый ваш отряд на каждом поле получает +2."),
    // A spectator (seat null) reads it without «ваш».
    neutral: t("Первый отряд каждого игрока на каждом поле получает +2."),
  },
  drought: { name: "Засуха", text: t("На половине поля помещаются три отряда, а не четыре.") },
  fair: { name: "Ярмарка", text: t("Кто спасует первым, берёт карту из колоды.") },
  storm: { name: "Гроза", text: t("Перед подсчётом молния бьёт в самую сильную карту каждого поля: −3.") },
};


const ABILITY_NAMES = {
  cache: t("тайник"),
  roots: t("корни"),
  sprout: t("росток"),
  loner: t("одиночка"),
  rally: t("клич"),
  shot: t("выстрел"),
  shield: t("щит"),
  messenger: t("гонец"),
  tactic: t("приём"),
};

function abilityText(card, ability) {
  switch (ability) {
    case "cache":
      return t("ложится рубашкой вверх; соперник не видит карту, выстрелы и поджог её не задевают");
    case "roots":
      return t("остаётся на поле ещё на один сезон");
    case "sprout":
      return t("+1, когда на это поле выходит другой ваш отряд");
    case "loner":
      return t("+3, если на этом поле нет других ваших отрядов");
    case "rally":
      return t("+1 остальным вашим отрядам на этом поле");
    case "shot":
      return t("{n} урона самому сильному открытому отряду соперника на этом поле", { n: card.shot || 2 });
    case "shield":
      return t("первый урон по карте пропадает");
    case "messenger":
      return t("возьмите карту из колоды");
    case "tactic":
      return card.id === "rosa"
        ? t("+1 каждому вашему отряду на выбранном поле, росткам +2")
        : t("2 урона каждому открытому отряду соперника на выбранном поле");
    default:
      return "";
  }
}

const cardsWord = (n) => tn(n, "{n} карта", "{n} карты", "{n} карт");

/** The catalog and the words from the viewer's side: the seat words, the omens, each season in words. */
export function seasonWords(ctx, st, g) {
  const cards = new Map();
  const list = ctx.catalog && Array.isArray(ctx.catalog.cards) ? ctx.catalog.cards : [];
  for (const c of list) cards.set(c.id, c);
  const card = (id) => cards.get(id) || { id, name: id, strength: null, abilities: [], house: "" };
  const name = (id) => card(id).name;

  const seatsInfo = ctx.info && Array.isArray(ctx.info.seats) ? ctx.info.seats : [];
  const opponentName = () => (st.you === null ? t("Игрок {n}", { n: 2 }) : seatName(seatsInfo[1 - st.you]));
  // A spectator (or an admin) reads the players' names where a player reads «вы» and «соперник».
  const seatW = seatWords(st, seatsInfo, ctx.username);
  const nameOf = seatW.nameOf;
  const who = seatW.who;
  // A spectator (you === null, e.g. the admins' replay) reads «игрок N» where a player reads «соперник».
  const other = (seat) => (st.you === null ? t("игрок {n}", { n: seat + 1 }) : t("соперник"));
  const otherGen = (seat) => (st.you === null ? t("игрока {n}", { n: seat + 1 }) : t("соперника"));
  const starts = (seat) =>
    seat === st.you ? t("начинаете вы") : st.you === null ? t("начинает игрок {n}", { n: seat + 1 }) : t("начинает соперник");
  const isBot = (seat) => {
    const s = seatsInfo[seat];
    return !!(s && typeof s === "object" && s.bot);
  };

  /** {name, text} of an omen, its description from the viewer's side (neutral for a spectator). */
  const omenOf = (id) => {
    const o = OMENS[id] || { name: id, text: "" };
    return { name: o.name, text: st.you === null && o.neutral ? o.neutral : o.text };
  };

  // ---- seasons in words, always from the viewer's side ----------------------------------------
  // Numbers read «ваша : соперника» (as the «Прошлые сезоны» table); a spectator reads «игрок 1 : игрок 2».
  const mine = () => (st.you === null ? 0 : st.you);
  const pairText = (arr) => `${arr[mine()]}:${arr[1 - mine()]}`;
  const holder = (seat) => (seat === st.you ? t("вы") : st.you === null ? t("игрок {n}", { n: seat + 1 }) : t("соперник"));

  function seasonVerdict(w) {
    if (noSeat(w)) return t("ничья");
    if (w === st.you) return t("ваша победа");
    return st.you === null ? t("победа игрока {n}", { n: w + 1 }) : t("победа соперника");
  }

  /** «Сезон 1 — победа соперника: поля 1:1 (Луг — соперник, Брод — никому, Холм — вы), решила общая сила 14:15».
   *  `r`: a season result or a season_scored event ({season, fields, strength, winner}). */
  function seasonLine(r) {
    const me = mine();
    const fields = Array.isArray(r.fields) ? r.fields : [];
    const count = (seat) => fields.filter((w) => w === seat).length;
    const nobody = t("никому");
    const per = fields.map((w, f) => `${FIELD_NAMES[f]} — ${noSeat(w) ? nobody : holder(w)}`).join(", ");
    let text = t("Сезон {season} — {verdict}: поля {score} ({per})", {
      season: r.season,
      verdict: seasonVerdict(r.winner),
      score: `${count(me)}:${count(1 - me)}`,
      per,
    });
    if (count(0) === count(1) && Array.isArray(r.strength)) {
      text += noSeat(r.winner)
        ? t(", общая сила тоже поровну — {score}", { score: pairText(r.strength) })
        : t(", решила общая сила {score}", { score: pairText(r.strength) });
    }
    return text;
  }

  /** In the pause: who starts the next season (§Between seasons) and why. */
  function nextStarterText(r) {
    const w = r.winner;
    const seat = noSeat(w) ? 1 - st.view.starter : w;
    const verb = seat === st.you ? t("начнёте вы") : st.you === null ? t("начнёт игрок {n}", { n: seat + 1 }) : t("начнёт соперник");
    let why;
    if (!noSeat(w)) {
      const season = r.season;
      why =
        seat === st.you
          ? t("вы выиграли сезон {season}", { season })
          : st.you === null
            ? t("он выиграл сезон {season}", { season })
            : t("соперник выиграл сезон {season}", { season });
    } else {
      const prev = st.view.starter === st.you ? t("начинали его вы") : t("начинал его {who}", { who: holder(st.view.starter) });
      why = t("сезон {season} сыгран вничью, а {prev}", { season: r.season, prev });
    }
    return t("Сезон {season} {verb} — {why}.", { season: r.season + 1, verb, why });
  }

  function pressText() {
    if (st.you !== null && isBot(1 - st.you)) {
      return t("«Следующий сезон» может нажать любой из игроков; бот не нажимает за вас — нажмите, когда будете готовы.");
    }
    return t("«Следующий сезон» может нажать любой из игроков — кто первым нажмёт, тот и откроет сезон.");
  }

  return { cards, list, card, name, seatsInfo, opponentName, seatW, nameOf, who, other, otherGen, starts, isBot, omenOf, mine, pairText, holder, seasonVerdict, seasonLine, nextStarterText, pressText };
}

/** The page's boxes in ctx.root and ctx.side, the three fields' halves, and the player's clicks and keys. */
function skeletonPart(ctx, st, g) {
  const paintSelection = (...args) => g.paintSelection(...args);
  const paintControls = (...args) => g.paintControls(...args);
  // ---- static skeleton ----------------------------------------------------------------------
  const oppStrip = el("div", { class: "player-strip player-strip-opp", id: "opp-strip" });
  const meStrip = el("div", { class: "player-strip player-strip-me", id: "me-strip" });
  // The pause between seasons (D17): how the season went and who starts the next one.
  const pauseBox = el("section", { class: "pause-banner", id: "pause-banner", hidden: true, "aria-live": "polite" });
  const fieldsBox = el("div", { class: "fields", id: "fields" });
  const handBox = el("div", { class: "hand", id: "hand", role: "group", "aria-label": t("Ваша рука") });
  const handCount = el("span", { class: "muted small", id: "hand-count" });
  const passBtn = el("button", { type: "button", class: "btn btn-secondary", id: "pass" }, t("Пас"));
  const nextBtn = el("button", { type: "button", class: "btn btn-gold", id: "next-season", hidden: true }, t("Следующий сезон"));
  const hint = el("p", { class: "hint-line", id: "hint", "aria-live": "polite" });
  const offlineNote = el(
    "p",
    { class: "offline-note", id: "offline-note", role: "status", hidden: true },
    t("Нет связи с сервером — переподключение… Ходить можно будет, когда связь вернётся."),
  );
  // On a narrow screen the hand panel is a sticky bar at the bottom (app.css), its cards in one scrolling row.
  const handPanel = el(
    "section",
    { class: "panel hand-panel", id: "hand-panel", "aria-labelledby": "hand-title" },
    el(
      "div",
      { class: "hand-head" },
      el("h2", { id: "hand-title" }, t("Ваша рука")),
      handCount,
      el("div", { class: "controls" }, passBtn, nextBtn),
    ),
    offlineNote,
    handBox,
    hint,
  );
  ctx.root.replaceChildren(pauseBox, oppStrip, fieldsBox, meStrip, handPanel);

  const sideInfo = el("section", { class: "panel", "aria-labelledby": "season-title" });
  const sideSeasons = el("section", { class: "panel", "aria-labelledby": "past-title" });
  const sideDiscards = el("section", { class: "panel", "aria-labelledby": "discard-title" });
  ctx.side.replaceChildren(sideInfo, sideSeasons, sideDiscards);

  const fieldEls = [0, 1, 2].map((f) => {
    const cap = el("span", { class: "field-col__cap" });
    const won = el("span", { class: "field-col__won", hidden: true });
    const oppUnits = el("div", { class: "units" });
    const oppTotal = el("div", { class: "half__total" });
    const meUnits = el("div", { class: "units" });
    const meTotal = el("div", { class: "half__total" });
    // What the selected tactic would do here (item: «без эффекта» before the card is wasted; D6 still allows it).
    const preview = el("div", { class: "half__preview", hidden: true });
    const meHalf = el(
      "div",
      { class: "half half-me", dataset: { field: String(f) }, "aria-label": t("Ваша половина: {field}", { field: FIELD_NAMES[f] }) },
      preview,
      meUnits,
      meTotal,
    );
    const col = el(
      "section",
      { class: "field-col", "aria-label": t("Поле {field}", { field: FIELD_NAMES[f] }) },
      el("div", { class: "field-col__head" }, el("span", { class: "field-col__name" }, FIELD_NAMES[f]), won, cap),
      el("div", { class: "half half-opp", "aria-label": t("Половина соперника: {field}", { field: FIELD_NAMES[f] }) }, oppTotal, oppUnits),
      meHalf,
    );
    meHalf.addEventListener("click", () => dropOn(f));
    meHalf.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        dropOn(f);
      }
    });
    fieldsBox.append(col);
    return { col, cap, won, oppUnits, oppTotal, meUnits, meTotal, meHalf, preview };
  });

  passBtn.addEventListener("click", () => send({ kind: "pass" }));
  nextBtn.addEventListener("click", () => send({ kind: "next_season" }));
  handBox.addEventListener("click", (ev) => {
    const btn = ev.target.closest("[data-card]");
    if (!btn || btn.disabled || st.offline) return;
    const id = btn.dataset.card;
    st.selected = st.selected === id ? null : id;
    paintSelection();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && st.selected) {
      st.selected = null;
      paintSelection();
    }
  });

  // ---- actions ------------------------------------------------------------------------------
  const legalPlay = (id, f) => st.legal.find((a) => a.kind === "play" && a.card === id && a.field === f);
  const legalOf = (kind) => st.legal.find((a) => a.kind === kind);

  function send(action) {
    const verbatim = action.kind === "play" ? legalPlay(action.card, action.field) : legalOf(action.kind);
    if (!verbatim || !takeLock(st)) return;
    st.selected = null;
    paintControls();
    paintSelection();
    ctx.act(verbatim);
  }

  function dropOn(f) {
    if (!st.selected || !legalPlay(st.selected, f)) return;
    send({ kind: "play", card: st.selected, field: f });
  }

  return { oppStrip, meStrip, pauseBox, fieldsBox, handBox, handCount, passBtn, nextBtn, hint, offlineNote, handPanel, sideInfo, sideSeasons, sideDiscards, fieldEls, legalPlay, legalOf, send, dropOn };
}

/** The fields: each unit with its badges, each half's total, the strips of both players. */
function unitsPart(ctx, st, g) {
  const { card, fieldEls } = g;
  // ---- painting -----------------------------------------------------------------------------
  /** Small badges for a unit's abilities and state, each with a tooltip that says what it does or did. */
  function unitBadges(c, u) {
    const out = [];
    const badge = (text, title, extra = "") => out.push(el("span", { class: `unit__tag${extra}`, title }, text));
    for (const a of c.abilities || []) {
      switch (a) {
        case "cache":
          if (u.face_down) {
            badge(
              t("тайник: рубашкой вверх"),
              t("Тайник: лежит рубашкой вверх — соперник не видит карту и силу; выстрелы и поджог её не задевают. Откроется при подсчёте."),
              " unit__tag-fd",
            );
          } else {
            badge(t("тайник"), t("Тайник: карта открыта при подсчёте сезона."));
          }
          break;
        case "roots":
          if (u.carried) {
            badge(
              t("корни: с прошлого сезона"),
              t("Корни: отряд остался с прошлого сезона с прежней силой; в конце этого сезона уйдёт в сброс."),
              " unit__tag-roots",
            );
          } else {
            badge(t("корни"), t("Корни: останется на поле и в следующем сезоне (один раз)."), " unit__tag-roots");
          }
          break;
        case "sprout":
          badge(t("росток"), t("Росток: +1 каждый раз, когда на это поле выходит другой отряд владельца; от Росы +2."));
          break;
        case "loner":
          badge(t("одиночка"), t("Одиночка: +3, если при выходе рядом не было своих отрядов (уже учтено в силе)."));
          break;
        case "rally":
          badge(t("клич"), t("Клич: при выходе дал +1 остальным своим отрядам на этом поле (один раз)."));
          break;
        case "shot":
          badge(
            t("выстрел {n}", { n: c.shot || 2 }),
            t("Выстрел: при выходе нанёс {n} урона самому сильному открытому отряду соперника на этом поле.", { n: c.shot || 2 }),
          );
          break;
        case "shield":
          if (u.shield === "spent") badge(t("щит потрачен"), t("Щит уже поглотил урон; следующий урон пройдёт."), " shield-off");
          else badge(t("щит готов"), t("Щит: первый урон по этому отряду пропадёт целиком."), " shield-on");
          break;
        case "messenger":
          badge(t("гонец"), t("Гонец: при выходе владелец взял карту из колоды."));
          break;
        default:
          break;
      }
    }
    return out;
  }

  function unitEl(u, ownerSeat) {
    if (u.hidden) {
      return el(
        "div",
        {
          class: "unit unit-hidden",
          title: t("Скрытая карта соперника (тайник): карта и сила откроются при подсчёте"),
          dataset: { placement: u.placement },
        },
        el("span", { class: "unit__no" }, `#${u.placement}`),
        el("span", { class: "unit__name" }, t("скрыт")),
        el("span", { class: "unit__str unit__str-hidden", title: t("Сила скрыта") }, "?"),
      );
    }
    const c = card(u.card);
    const house = c.house || (st.view && st.view.houses[ownerSeat]) || "";
    const base = c.strength;
    const known = base !== null && base !== undefined;
    const delta = known ? u.strength - base : 0;
    const cls = delta > 0 ? " unit__str-up" : delta < 0 ? " unit__str-down" : "";
    const calc = delta ? `${base}${delta > 0 ? "+" : "−"}${Math.abs(delta)}` : "";
    const why = delta > 0 ? t("усиления") : t("урон");
    const sign = `${delta > 0 ? "+" : "−"}`;
    const strengthLine = !known
      ? t("{card}: сила {n}", { card: c.name, n: u.strength })
      : delta
        ? t("{card}: сила {n} = печатная {base} {sign} {delta} ({why})", { card: c.name, n: u.strength, base, sign, delta: Math.abs(delta), why })
        : t("{card}: сила {n} (печатная)", { card: c.name, n: u.strength });
    const title = [
      strengthLine,
      ...(c.abilities || []).filter((a) => a !== "tactic").map((a) => `${cap1(ABILITY_NAMES[a] || a)}: ${abilityText(c, a)}`),
    ].join("\n");
    const badges = unitBadges(c, u);
    return el(
      "div",
      {
        class: `unit unit-${house}${u.face_down ? " unit-facedown" : ""}${u.carried ? " unit-carried" : ""}`,
        dataset: { placement: u.placement, unit: u.card, strength: u.strength, base: known ? base : "" },
        title,
      },
      el("span", { class: "unit__no" }, `#${u.placement}`),
      el("span", { class: "unit__name" }, c.name),
      el(
        "span",
        { class: "unit__strbox" },
        el("span", { class: `unit__str${cls}` }, String(u.strength)),
        calc ? el("span", { class: "unit__calc", title: t("печатная сила {base}, {why} {delta}", { base, why, delta: `${sign}${Math.abs(delta)}` }) }, `(${calc})`) : null,
      ),
      badges.length ? el("span", { class: "unit__tags" }, ...badges) : null,
    );
  }

  function seasonResult() {
    if (!st.view || !st.view.results || !st.view.results.length) return null;
    const r = st.view.results[st.view.results.length - 1];
    return r.season === st.view.season && st.view.phase !== "season" ? r : null;
  }

  function paintFields() {
    const opp = st.you === null ? 1 : 1 - st.you;
    const me = st.you === null ? 0 : st.you;
    const scored = seasonResult();
    st.view.fields.forEach((halves, f) => {
      const F = fieldEls[f];
      const oh = halves[opp];
      const mh = halves[me];
      F.cap.textContent =
        st.view.capacity === 3 ? t("3 места (Засуха)") : tn(st.view.capacity, "{n} место", "{n} места", "{n} мест");
      F.oppUnits.replaceChildren(...oh.units.map((u) => unitEl(u, opp)));
      F.meUnits.replaceChildren(...mh.units.map((u) => unitEl(u, me)));
      const hiddenTxt = oh.hidden ? " " + tn(oh.hidden, "+ {n} скрытый", "+ {n} скрытых", "+ {n} скрытых") : "";
      F.oppTotal.replaceChildren(
        el("span", {}, st.you === null ? t("Игрок {n}: ", { n: 2 }) : t("Соперник: "), el("b", { class: "total" }, String(oh.total)), hiddenTxt),
        el("span", { class: "half__slots" }, `${oh.units.length}/${st.view.capacity}`),
      );
      F.meTotal.replaceChildren(
        el("span", {}, st.you === null ? t("Игрок {n}: ", { n: 1 }) : t("Вы: "), el("b", { class: "total" }, String(mh.total))),
        el("span", { class: "half__slots" }, `${mh.units.length}/${st.view.capacity}`),
      );
      if (scored) {
        const w = scored.fields[f];
        F.won.hidden = false;
        F.won.className = `field-col__won ${w === null ? "won-none" : w === me ? "won-me" : "won-opp"}`;
        F.won.textContent =
          w === null ? t("ничья") : st.you === null ? t("игрока {n}", { n: w + 1 }) : w === me ? t("ваше") : t("соперника");
      } else {
        F.won.hidden = true;
      }
    });
  }

  function stars(n) {
    return el("span", { class: "stars", title: t("Выиграно сезонов: {n}", { n }) }, n ? "★".repeat(n) : "☆");
  }

  function strip(box, seat, label) {
    const house = st.view.houses[seat];
    const passed = st.view.passed[seat] && st.view.phase === "season";
    const moving = st.view.phase === "season" && st.view.turn === seat;
    const parts = [
      moving ? el("span", { class: "to-move-dot", title: t("Ходит") }) : null,
      el("span", {}, label),
      el("span", { class: `badge badge-${house}` }, HOUSE_NAMES[house] || house),
      stars(st.view.wins[seat]),
      passed
        ? el("span", { class: "passed-tag" }, st.view.auto_passed[seat] ? t("пас (автоматически)") : t("пас"))
        : null,
      st.view.phase === "season" && st.view.starter === seat ? el("span", { class: "passed-tag" }, t("начинает сезон")) : null,
    ];
    const stats = [
      seat !== st.you ? el("span", {}, t("В руке: "), el("b", {}, String(st.view.hand_sizes[seat]))) : null,
      el("span", {}, t("Колода: "), el("b", {}, String(st.view.deck_sizes[seat]))),
      el("span", {}, t("Сброс: "), el("b", {}, String(st.view.discards[seat].length))),
      el("span", {}, t("Сезонов: "), el("b", {}, String(st.view.wins[seat]))),
    ];
    box.replaceChildren(
      el("div", { class: "player-strip__who" }, ...parts),
      el("div", { class: "player-strip__stats" }, ...stats),
    );
  }

  return { unitBadges, unitEl, seasonResult, paintFields, stars, strip };
}

/** The pause banner, the hand, the selected card's targets and previews, the hint and the buttons. */
function handPart(ctx, st, g) {
  const { card, isBot, mine, seasonLine, nextStarterText, pressText, pauseBox, handBox, handCount, passBtn, nextBtn, hint, offlineNote, handPanel, fieldEls, legalPlay, legalOf, seasonResult } = g;
  function paintPause() {
    const r = seasonResult();
    if (!r || st.view.phase !== "pause") {
      pauseBox.hidden = true;
      pauseBox.replaceChildren();
      return;
    }
    pauseBox.hidden = false;
    const cls = noSeat(r.winner) ? "pause-draw" : r.winner === st.you ? "pause-win" : st.you === null ? "pause-draw" : "pause-loss";
    pauseBox.className = `pause-banner ${cls}`;
    pauseBox.replaceChildren(
      el("p", { class: "pause-banner__title" }, t("Сезон {season} подсчитан", { season: r.season })),
      el("p", { class: "pause-banner__line", id: "season-line" }, seasonLine(r)),
      el("p", { class: "pause-banner__next", id: "next-starter" }, nextStarterText(r)),
      el("p", { class: "pause-banner__press small" }, pressText()),
    );
  }

  const isTactic = (id) => {
    const c = card(id);
    return c.strength === null || c.strength === undefined;
  };

  /** A card's abilities in full, one line each: «Тайник: ложится рубашкой вверх…». */
  const abilityLines = (c) =>
    (c.abilities || []).filter(Boolean).map((a) => `${cap1(ABILITY_NAMES[a] || a)}: ${abilityText(c, a)}`);

  function handCard(id, count) {
    const c = card(id);
    const abilities = (c.abilities || []).filter(Boolean);
    const playable = st.legal.some((a) => a.kind === "play" && a.card === id);
    const tactic = isTactic(id);
    const chips = abilities
      .filter((a) => a !== "tactic")
      .map((a) => el("span", { class: "hand-card__chip" }, a === "shot" ? t("выстрел {n}", { n: c.shot || 2 }) : ABILITY_NAMES[a] || a));
    const desc = abilities.length
      ? abilities.map((a) =>
          el("span", { class: "hand-card__abil" }, el("b", {}, `${cap1(ABILITY_NAMES[a] || a)}:`), ` ${abilityText(c, a)}`),
        )
      : [el("span", { class: "hand-card__abil muted" }, t("Без свойств"))];
    const head = tactic ? t("{card} — приём", { card: c.name }) : t("{card} — сила {n}", { card: c.name, n: c.strength });
    const full = [head, ...abilityLines(c)].join("\n");
    return el(
      "button",
      {
        type: "button",
        class: `hand-card hand-card-${c.house}${tactic ? " hand-card-tactic" : ""}`,
        dataset: { card: id },
        "aria-pressed": st.selected === id ? "true" : "false",
        disabled: !playable || st.locked || st.offline,
        title: playable ? full + "\n\n" + t("Выберите карту, затем поле") : full,
      },
      el("span", { class: "hand-card__name" }, c.name),
      el(
        "span",
        { class: "hand-card__meta" },
        el("span", { class: "hand-card__str", title: tactic ? t("Приём") : t("Сила") }, tactic ? t("приём") : String(c.strength)),
        ...chips,
      ),
      ...desc,
      count > 1 ? el("span", { class: "hand-card__count" }, `×${count}`) : null,
    );
  }

  function paintHand() {
    const hand = st.view.hand || [];
    const counts = new Map();
    for (const id of hand) counts.set(id, (counts.get(id) || 0) + 1);
    handCount.textContent = cardsWord(hand.length);
    if (!hand.length) {
      handBox.replaceChildren(el("p", { class: "empty" }, t("Рука пуста.")));
      return;
    }
    handBox.replaceChildren(...[...counts].map(([id, n]) => handCard(id, n)));
  }

  /** What tactic `id` would do on field `f` now: {n: units affected, text}. Роса: own units (росток +2);
   *  Поджог: the opponent's face-up units (shields absorb; face-down ones are out of reach). */
  function tacticEffect(id, f) {
    const me = mine();
    if (id === "rosa") {
      const units = st.view.fields[f][me].units.filter((u) => !u.hidden);
      const sprouts = units.filter((u) => (card(u.card).abilities || []).includes("sprout")).length;
      if (!units.length) return { n: 0, text: t("Без эффекта: здесь нет ваших отрядов") };
      const parts = [];
      if (units.length - sprouts) parts.push(`+1 ×${units.length - sprouts}`);
      if (sprouts) parts.push(t("+2 ×{n} (росток)", { n: sprouts }));
      return { n: units.length, text: `Роса: ${parts.join(", ")}` };
    }
    if (id === "podzhog") {
      const half = st.view.fields[f][1 - me];
      const open = half.units.filter((u) => !u.hidden && !u.face_down);
      const hidden = half.units.length - open.length;
      if (!open.length) {
        return {
          n: 0,
          text: hidden ? t("Без эффекта: скрытые карты поджог не задевает") : t("Без эффекта: здесь нет отрядов соперника"),
        };
      }
      const shields = open.filter((u) => u.shield === "ready").length;
      const burns = open.filter((u) => u.shield !== "ready" && u.strength <= 2).length;
      let text = `Поджог: −2 ×${open.length}`;
      if (shields) text += t(", щит поглотит ×{n}", { n: shields });
      if (burns) text += t(", сгорит ×{n}", { n: burns });
      if (hidden) text += t("; скрытые не заденет");
      return { n: open.length, text };
    }
    return null;
  }

  function paintSelection() {
    for (const b of handBox.querySelectorAll("[data-card]")) {
      b.setAttribute("aria-pressed", b.dataset.card === st.selected ? "true" : "false");
    }
    const tactic = !!(st.selected && isTactic(st.selected));
    fieldEls.forEach((F, f) => {
      const ok = !!(st.selected && !st.locked && !st.offline && legalPlay(st.selected, f));
      const effect = ok && tactic ? tacticEffect(st.selected, f) : null;
      F.meHalf.classList.toggle("droppable", ok);
      F.meHalf.classList.toggle("droppable-tactic", ok && tactic);
      F.meHalf.classList.toggle("droppable-effect", !!(effect && effect.n));
      F.meHalf.classList.toggle("droppable-noeffect", !!(effect && !effect.n));
      F.col.classList.toggle("tactic-target", !!(effect && effect.n && st.selected === "podzhog"));
      F.meHalf.dataset.effect = effect ? (effect.n ? "yes" : "no") : "";
      F.preview.hidden = !effect;
      F.preview.textContent = effect ? effect.text : "";
      F.preview.className = `half__preview${effect && !effect.n ? " half__preview-none" : ""}`;
      if (ok) {
        F.meHalf.setAttribute("role", "button");
        F.meHalf.setAttribute("tabindex", "0");
        F.meHalf.setAttribute("aria-disabled", "false");
        F.meHalf.setAttribute(
          "aria-label",
          `${t("Ваша половина: {field}", { field: FIELD_NAMES[f] })}${effect ? ` — ${effect.text}` : ""}`,
        );
      } else {
        F.meHalf.removeAttribute("role");
        F.meHalf.removeAttribute("tabindex");
        F.meHalf.removeAttribute("aria-disabled");
        F.meHalf.setAttribute("aria-label", t("Ваша половина: {field}", { field: FIELD_NAMES[f] }));
      }
    });
    paintHint();
  }

  function paintHint() {
    if (!st.view) return;
    let text = "";
    if (st.offline && st.view.phase !== "over") {
      text = t("Переподключение… Ход можно будет сделать, когда связь восстановится.");
    } else if (st.view.phase === "season" && st.view.turn === st.you && st.legal.length) {
      if (st.selected) {
        const c = card(st.selected);
        const about = abilityLines(c).join(" ");
        if (isTactic(st.selected)) {
          const useful = fieldEls.filter((_F, f) => {
            const e = legalPlay(st.selected, f) && tacticEffect(st.selected, f);
            return e && e.n;
          }).length;
          const where = useful
            ? t("поля, где он подействует, выделены")
            : t("сейчас он ни на одном поле ничего не сделает (сыграть всё равно можно)");
          text = t("{card}: {effect}. Выберите поле — {where}. Esc — отмена.", {
            card: c.name,
            effect: abilityText(c, "tactic"),
            where,
          });
        } else {
          const what = `${c.name} (${c.strength})${about ? ` — ${about}` : ""}`;
          text = t("{card}. Выберите подсвеченное поле на своей половине. Esc — отмена.", { card: what });
        }
      } else {
        text = t("Выберите карту в руке, затем поле — или нажмите «Пас».");
      }
    } else if (st.view.phase === "pause") {
      const r = seasonResult();
      const press =
        st.you !== null && isBot(1 - st.you)
          ? t("Нажмите «Следующий сезон», когда будете готовы.")
          : t("Нажмите «Следующий сезон» — или дождитесь, пока нажмёт соперник.");
      text = r ? `${nextStarterText(r)} ${press}` : press;
    } else if (st.view.phase === "season" && st.view.passed[st.you]) {
      text = t("Вы спасовали: соперник доигрывает сезон.");
    } else if (st.view.phase === "season") {
      text = t("Ждём ход соперника…");
    }
    hint.textContent = text;
  }

  function paintControls() {
    const canPass = !!legalOf("pass") && !st.locked && !st.offline;
    const pause = st.view.phase === "pause";
    passBtn.hidden = pause || st.view.phase === "over";
    passBtn.disabled = !canPass;
    nextBtn.hidden = !pause;
    nextBtn.disabled = !legalOf("next_season") || st.locked || st.offline;
    offlineNote.hidden = !st.offline || st.view.phase === "over";
    handPanel.classList.toggle("is-offline", st.offline && st.view.phase !== "over");
    for (const b of handBox.querySelectorAll("[data-card]")) {
      const playable = st.legal.some((a) => a.kind === "play" && a.card === b.dataset.card);
      b.disabled = !playable || st.locked || st.offline;
    }
  }

  return { paintPause, isTactic, abilityLines, handCard, paintHand, tacticEffect, paintSelection, paintHint, paintControls };
}

/** The side panels (the season, the past seasons, the discards), the info bar, and the whole board. */
function sidePart(ctx, st, g) {
  const { cards, name, seatsInfo, opponentName, other, otherGen, omenOf, holder, seasonLine, oppStrip, meStrip, handPanel, sideInfo, sideSeasons, sideDiscards, seasonResult, paintFields, strip, paintPause, paintHand, paintSelection, paintControls } = g;
  function paintSide() {
    const omen = omenOf(st.view.omen);
    const starter = st.view.starter === st.you ? t("вы") : other(st.view.starter);
    const passTxt = (s) =>
      st.view.passed[s]
        ? st.view.auto_passed[s]
          ? t("пас (автоматически)")
          : t("пас")
        : st.view.phase === "season"
          ? t("играет")
          : "—";
    const rows = [
      [t("Сезон"), t("{season} из 3", { season: st.view.season })],
      [t("Начинает сезон"), starter],
      st.you === null
        ? [t("Счёт по сезонам"), t("игрок 1 {a} — {b} игрок 2", { a: st.view.wins[0], b: st.view.wins[1] })]
        : [t("Счёт по сезонам"), t("вы {a} — {b} соперник", { a: st.view.wins[st.you], b: st.view.wins[1 - st.you] })],
      [st.you === null ? t("Игрок {n}", { n: 1 }) : t("Вы"), passTxt(st.you ?? 0)],
      [st.you === null ? t("Игрок {n}", { n: 2 }) : t("Соперник"), passTxt(st.you === null ? 1 : 1 - st.you)],
      [t("Мест на половине"), String(st.view.capacity)],
    ];
    const scored = seasonResult();
    if (scored && st.view.phase === "pause") {
      const w = scored.winner;
      const seat = noSeat(w) ? 1 - st.view.starter : w;
      rows.splice(2, 0, [t("Начнёт сезон {season}", { season: scored.season + 1 }), seat === st.you ? t("вы") : holder(seat)]);
    }
    sideInfo.replaceChildren(
      el("h2", { id: "season-title" }, t("Сезон {season}", { season: st.view.season })),
      el("p", { class: "omen", id: "omen" }, el("b", {}, t("Примета: {omen}", { omen: omen.name }))),
      el("p", { class: "omen-desc", id: "omen-desc" }, omen.text),
      el("dl", { class: "kv" }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
    );

    const me = st.you ?? 0;
    const results = st.view.results || [];
    const table = results.length
      ? el(
          "table",
          { class: "seasons-table", id: "past-seasons" },
          el(
            "thead",
            {},
            el("tr", {}, ...["", t("Примета"), ...FIELD_NAMES, t("Итог")].map((h) => el("th", { scope: "col" }, h))),
          ),
          el(
            "tbody",
            {},
            ...results.map((r) =>
              el(
                "tr",
                { title: seasonLine(r) },
                el("th", { scope: "row" }, String(r.season)),
                el("td", {}, (OMENS[r.omen] || { name: r.omen }).name),
                ...r.totals.map((tot, f) => {
                  const w = r.fields[f];
                  const cls = w === null ? "cell-draw" : w === me ? "cell-win" : "cell-loss";
                  const label = w === null ? t("ничья") : w === me && st.you !== null ? t("ваше") : otherGen(w);
                  return el("td", { class: cls, title: `${FIELD_NAMES[f]}: ${label}` }, `${tot[me]}:${tot[1 - me]}`);
                }),
                el(
                  "td",
                  { class: r.winner === null ? "cell-draw" : r.winner === me ? "cell-win" : "cell-loss" },
                  r.winner === null ? t("ничья") : r.winner === me && st.you !== null ? t("вы") : other(r.winner),
                ),
              ),
            ),
          ),
        )
      : el("p", { class: "empty small" }, t("Пока ни один сезон не сыгран."));
    sideSeasons.replaceChildren(
      ...[
        el("h2", { id: "past-title" }, t("Прошлые сезоны")),
        el("div", { class: "seasons-wrap" }, table),
        results.length
          ? el(
              "p",
              { class: "seasons-note" },
              st.you === null
                ? t("В клетках — сила на поле: игрока 1 : игрока 2.")
                : t("В клетках — сила на поле: ваша : соперника."),
            )
          : null,
      ].filter(Boolean),
    );

    const pile = (seat) => {
      const ids = st.view.discards[seat];
      return el(
        "details",
        {},
        el(
          "summary",
          {},
          seat === me && st.you !== null
            ? t("Ваш сброс: {cards}", { cards: cardsWord(ids.length) })
            : t("Сброс {whose}: {cards}", { whose: otherGen(seat), cards: cardsWord(ids.length) }),
        ),
        el("p", { class: "discard-list" }, ids.length ? ids.map(name).join(", ") : t("пусто")),
      );
    };
    // After the end every view is the full view: the opponent's last hand is public too (a spectator with
    // the full view — the admins' replay — sees both hands).
    const handOf = (seat) =>
      el(
        "details",
        { open: st.you === null },
        el(
          "summary",
          {},
          handTitle(seat, cardsWord(st.view.hands[seat].length)),
        ),
        el("p", { class: "discard-list" }, st.view.hands[seat].length ? st.view.hands[seat].map(name).join(", ") : t("пусто")),
      );
    const handTitle = (seat, cards) => {
      if (st.you === null) return t("Рука {whose}: {cards}", { whose: otherGen(seat), cards });
      return seat === st.you ? t("Ваша рука в конце: {cards}", { cards }) : t("Рука {whose} в конце: {cards}", { whose: otherGen(seat), cards });
    };
    const shownHands = !Array.isArray(st.view.hands) ? [] : st.you === null ? [0, 1] : [me, 1 - me];
    sideDiscards.replaceChildren(
      ...[
      el("h2", { id: "discard-title" }, t("Сброс")),
      pile(me),
      pile(1 - me),
      ...shownHands.map(handOf),
      ].filter(Boolean),
    );
  }

  function paintInfoBar() {
    if (!ctx.infoBar) return;
    const omen = omenOf(st.view.omen);
    const me = st.you ?? 0;
    ctx.infoBar.replaceChildren(
      el("span", { class: "chip", id: "season-chip" }, t("Сезон {season} из 3", { season: st.view.season })),
      el("span", { class: "chip chip-omen", title: omen.text || "" }, t("Примета: {omen}", { omen: omen.name })),
      el(
        "span",
        { class: "chip", title: t("Выигранные сезоны: вы — соперник") },
        t("Сезоны {a} : {b}", { a: st.view.wins[me], b: st.view.wins[1 - me] }),
      ),
    );
  }

  function paintAll() {
    if (st.selected && !st.legal.some((a) => a.kind === "play" && a.card === st.selected)) st.selected = null;
    const me = st.you ?? 0;
    strip(oppStrip, 1 - me, st.you === null ? seatName(seatsInfo[1]) : t("Соперник: {name}", { name: opponentName() }));
    strip(meStrip, me, st.you === null ? seatName(seatsInfo[0]) : t("Вы: {name}", { name: ctx.username }));
    paintFields();
    paintHand();
    paintControls();
    paintSelection();
    paintSide();
    paintInfoBar();
    paintPause();
    handPanel.hidden = st.you === null || st.view.phase === "over";
  }

  return { paintSide, paintInfoBar, paintAll };
}

/** The words: the turn line, the result, the first log line, the admins' action log and the last move. */
export function wordsPart(ctx, st, g) {
  const { name, nameOf, who, starts, pairText, fieldsBox } = g;
  /** The turn line after the common cases (renderbase.js turnLine). */
  function turnOwn(_msg, v) {
    if (v.phase === "pause") return { text: t("Сезон {season} подсчитан", { season: v.season }), cls: "turn-pause" };
    return whoseTurn(st.you, v.turn, nameOf);
  }
  /** The match result from the viewer's side: {kind: "win"|"loss"|"draw", title, reason} — who won and why
   *  (D10: two_seasons, more_seasons, draw; the platform's resign). Seasons read «ваши : соперника». */
  function outcomeWords(result, wins) {
    const w = result.winner;
    const score = Array.isArray(wins) && wins.length === 2 ? pairText(wins) : "";
    const { kind, text: title } = resultHead(w, st.you, nameOf);
    const subject = who;
    const tail = (text) => (score ? ` (${text})` : "");
    let reason;
    switch (result.reason) {
      case "two_seasons":
        reason =
          (w === st.you ? t("{who} выиграли два сезона", { who: subject(w) }) : t("{who} выиграл два сезона", { who: subject(w) })) +
          tail(score);
        break;
      case "more_seasons":
        reason =
          (w === st.you
            ? t("{who} выиграли больше сезонов", { who: subject(w) })
            : t("{who} выиграл больше сезонов", { who: subject(w) })) + tail(t("{score} при двух ничьих", { score }));
        break;
      case "draw": {
        const why =
          score && wins[0] === 0
            ? t("{score}: все три сезона — ничьи", { score })
            : t("{score}, третий сезон — ничья", { score });
        reason = t("Поровну выигранных сезонов") + tail(why);
        break;
      }
      case "resign": {
        const loser = noSeat(w) ? null : 1 - w;
        reason =
          loser === null ? t("Сдача") : loser === st.you ? t("Вы сдались") : t("{who} сдался", { who: subject(loser) });
        break;
      }
      case "abort":
      case "aborted":
        reason = t("Партию остановил администратор");
        break;
      case "tournament_cancelled":
        reason = t("Турнир отменён");
        break;
      default:
        reason = result.reason ? String(result.reason) : "";
    }
    return { kind, title, reason };
  }

  /** For match.js's result banner: {kind, text, reason} once the match has a result, else null. */
  function outcome(msg) {
    const v = msg.view || st.view;
    const result = resultOf(msg, st.view);
    if (!result) return null;
    fillSeat(st, msg.seat);
    const o = outcomeWords(result, v && v.wins);
    return { kind: o.kind, text: o.title, reason: o.reason };
  }

  /** The first log line: season 1's omen and who starts it (decided by lot; no event carries it). */
  function intro(v) {
    fillSeat(st, v.you);
    const first = v.results && v.results.length ? v.results[0] : v.season === 1 ? v : null;
    if (!first) return { text: t("Партия началась"), cls: "log-season" };
    const omen = OMENS[first.omen] || { name: first.omen };
    return {
      text: t("Сезон 1. Примета: {omen}. По жребию {starts}", { omen: omen.name, starts: starts(first.starter) }),
      cls: "log-season",
    };
  }

  /** A logged action in words (the admins' action log): play {card, field}, pass, next_season, resign. */
  const ACTION_WORDS = {
    play: (actor, action) => `${actor}: ${name(action.card)} → ${FIELD_NAMES[action.field] || "?"}`,
    pass: (actor) => actor + ": " + t("пас"),
    next_season: (actor) => actor + ": " + t("следующий сезон"),
  };
  const actionText = (action, seat) => actionLine(ACTION_WORDS, who, action, seat);

  /** The opponent's last action on the board (lastmove.js): the unit they put down (a face-down one too), or
   *  the field their tactic hit; `fresh` animates it once. */
  function markLast(events, fresh) {
    const mark = (node) => markNode(node, fresh);
    for (const ev of events) {
      if (ev.kind !== "play") continue;
      if (typeof ev.placement === "number") mark(fieldsBox.querySelector(`.unit[data-placement="${ev.placement}"]`));
      else if (typeof ev.field === "number") mark(fieldsBox.querySelectorAll(".field-col")[ev.field]);
    }
  }

  return { turnOwn, outcomeWords, outcome, intro, actionText, markLast };
}

export function createRenderer(ctx) {
  const st = createState();
  st.selected = null; // card id chosen in hand
  const g = {};
  for (const part of [seasonWords, skeletonPart, unitsPart, handPart, sidePart, wordsPart]) Object.assign(g, part(ctx, st, g));
  return makeRenderer(ctx, st, {
    paint: g.paintAll,
    repaint: () => {
      g.paintControls();
      g.paintSelection();
    },
    // The live connection went down: nothing can be sent meanwhile, and the selection is dropped.
    onOffline: (off) => {
      if (off) st.selected = null;
    },
    turn: g.turnOwn,
    outcome: g.outcome,
    intro: g.intro,
    actionText: g.actionText,
    markLast: g.markLast,
  });
}

function cap1(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
