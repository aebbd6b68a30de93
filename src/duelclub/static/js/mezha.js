// Межа renderer (rules/mezha.md §What each player sees): three fields with both halves, the hand, the omen,
// seasons, passes, decks, discards, past seasons. View shape: src/duelclub/games/mezha/view.py; event shapes:
// src/duelclub/games/mezha/events.py; each event's log line comes worded from src/duelclub/words/mezha.py.

import { el } from "./api.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { createState, makeRenderer, noSeat, takeLock } from "./renderbase.js";
import { handPart, unitsPart } from "./mezha_board.js";
import { FIELD_NAMES, OMENS, SECRET_OMEN_NAMES, cardsWord, seasonWords, wordsPart } from "./mezha_words.js";

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

/** The side panels (the season, the past seasons, the discards), the info bar, and the whole board. */
function sidePart(ctx, st, g) {
  const { cards, name, seatsInfo, opponentName, other, otherGen, omenOf, holder, seasonLine, oppStrip, meStrip, handPanel, sideInfo, sideSeasons, sideDiscards, seasonResult, paintFields, strip, paintPause, paintHand, paintSelection, paintControls } = g;
  /** «Сезон N»: the omen, who starts, the score by seasons, each player's pass, the places on a half. */
  function paintSeason() {
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
  }

  /** «Прошлые сезоны»: each scored season's field totals and winner, from the reader's side. */
  function paintPastSeasons() {
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
  }

  /** «Сброс»: both discard piles, and after the end the hands left. */
  function paintDiscards() {
    const me = st.you ?? 0;
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

  function paintSide() {
    paintSeason();
    paintPastSeasons();
    paintDiscards();
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

/** What only the full view shows (the admins' replay, admin_match.js): both decks top to bottom and the
 *  omens, this season's marked, as {title, rows: [label, content][]}; null for a view without the decks. */
function secretsOf(v, name) {
  if (!v || !Array.isArray(v.decks)) return null;
  const omens = (v.omens || []).map((o, i) =>
    el("li", { class: i === v.season - 1 ? "omen-now" : "" }, (i < 3 ? t("сезон {n}: ", { n: i + 1 }) : t("не выпадет: ")) + (SECRET_OMEN_NAMES[o] || o)),
  );
  const rows = [
    ...[0, 1].map((s) => [`Колода игрока ${s + 1} (сверху вниз)`, v.decks[s].length ? v.decks[s].map(name).join(", ") : t("пусто")]),
    [t("Приметы"), el("ol", { class: "omens-list" }, ...omens)],
  ];
  return { title: t("Колоды и приметы"), rows };
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
    secrets: (v) => secretsOf(v, g.name),
  });
}
