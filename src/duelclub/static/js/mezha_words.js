// Межа's words from the viewer's side (mezha.js draws the board): field, omen and ability names, each season
// in words, the turn line, the result, the first log line and the admins' action log. DOM-free (tests/js).

import { t, tn } from "./i18n.js";
import { seatName } from "./names.js";
import { actionLine, fillSeat, markNode, noSeat, resultHead, resultOf, seatWords, whoseTurn } from "./renderbase.js";

export const FIELD_NAMES = [t("Луг"), t("Брод"), t("Холм")];

// Omen and card names are proper names, the same in every language (as the seed gives them); texts are translated.
export const OMENS = {
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

// The omens as the admins' replay names them (secrets(): translated, unlike the board's proper names above).
export const SECRET_OMEN_NAMES = { thaw: t("Оттепель"), drought: t("Засуха"), fair: t("Ярмарка"), storm: t("Гроза") };

export const ABILITY_NAMES = {
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

export function abilityText(card, ability) {
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

export const cardsWord = (n) => tn(n, "{n} карта", "{n} карты", "{n} карт");

export function cap1(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

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
          loser === null
            ? t("Сдача")
            : loser === st.you
              ? t("Вы сдались")
              : st.you !== null && st.you !== undefined
                ? t("Соперник сдался")
                : t("{who} сдаётся", { who: subject(loser) }); // a name: no gender in the present tense
        break;
      }
      case "abort":
      case "aborted":
        reason = t("Партию остановил администратор");
        break;
      case "tournament_cancelled":
        reason = t("Турнир отменён");
        break;
      default: // the platform's ends (abandonment, the clock): match.js words them (names.js outcomeReason)
        reason = "";
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
