// Межа's fields and hand (parts of mezha.js's renderer, sharing its state and hub `g`): the units with their
// badges, each half's total, the players' strips, the pause banner, the hand, a selected card's targets and
// previews, the hint and the buttons.

import { el } from "./api.js";
import { t, tn } from "./i18n.js";
import { HOUSE_NAMES } from "./names.js";
import { noSeat } from "./renderbase.js";
import { ABILITY_NAMES, FIELD_NAMES, abilityText, cap1, cardsWord } from "./mezha_words.js";

/** The fields: each unit with its badges, each half's total, the strips of both players. */
export function unitsPart(ctx, st, g) {
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
export function handPart(ctx, st, g) {
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
