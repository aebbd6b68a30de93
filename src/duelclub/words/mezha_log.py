"""Межа's match log in words (rules/mezha.md; event shapes in ``games/mezha/events.py``): one line per event
from one reader's side, ``{"text", "cls"}`` with ``cls`` one of the page's styles (``log-me``, ``log-opp``,
``log-sys``, ``log-season``, ``log-bad``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, assert_never

from duelclub.games.contract import JSON, Seat
from duelclub.games.mezha.cards import CARD_INDEX, CARDS, OMENS
from duelclub.games.mezha.events import (
    BuffEvent,
    BurnEvent,
    ClearEvent,
    DrawEvent,
    DrawSkippedEvent,
    Event,
    LightningEvent,
    MatchEndEvent,
    PassEvent,
    PlayEvent,
    PodzhogHitEvent,
    RallyEvent,
    RevealEvent,
    SeasonScoredEvent,
    SeasonStartEvent,
    SeatEvent,
    ShotEvent,
    TacticEvent,
)
from duelclub.i18n import N_
from duelclub.i18n import gettext as _
from duelclub.words.base import event_kinds

_FIELDS = (N_("Луг"), N_("Брод"), N_("Холм"))
_FIELDS_AT = (N_("на Лугу"), N_("на Броду"), N_("на Холме"))  # prepositional: «на Лугу / на Броду / на Холме»
_OMEN_NAMES = dict(OMENS)  # proper names, the same in every language
_FEMININE = frozenset({"ten_v_listve", "sova", "khozyayka_roshchi", "vedunya", "liteyshchitsa"})
# «щит Щитоносца»: Russian declines these two names; the Ukrainian catalog keeps the name as it is.
_GENITIVE = {"shchitonosets": N_("Щитоносца"), "golem": N_("Голема-наковальни")}
_ABILITY = {"loner": N_("одиночка"), "sprout": N_("росток"), "rally": N_("клич"), "messenger": N_("гонец")}
_HIT = {"rosa": "rosa_buff", "podzhog": "podzhog_hit"}
_KINDS = event_kinds(Event)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _lc(s: str) -> str:
    return s[:1].lower() + s[1:]


def _name(card: str) -> str:
    k = CARD_INDEX.get(card)
    return CARDS[k].name if k is not None else card


def _field(f: int) -> str:
    return _(_FIELDS[f]) if 0 <= f < 3 else "?"


def _field_at(f: int) -> str:
    return _(_FIELDS_AT[f]) if 0 <= f < 3 else "?"


class MezhaLog:
    """The log from the side of ``you`` (a seat, or None: a spectator, who reads «игрок N»)."""

    def __init__(self, you: Seat | None) -> None:
        self.you = you

    # -- the reader's words for a seat ----------------------------------------------------------
    def who(self, seat: int) -> str:
        """The subject: «Вы», «Соперник», «Игрок N»."""
        if seat == self.you:
            return _("Вы")
        return _("Игрок %(n)s", n=seat + 1) if self.you is None else _("Соперник")

    def other(self, seat: int) -> str:
        return _("игрок %(n)s", n=seat + 1) if self.you is None else _("соперник")

    def other_gen(self, seat: int) -> str:
        return _("игрока %(n)s", n=seat + 1) if self.you is None else _("соперника")

    def holder(self, seat: int) -> str:
        return _("вы") if seat == self.you else self.other(seat)

    def starts(self, seat: int) -> str:
        if seat == self.you:
            return _("начинаете вы")
        if self.you is None:
            return _("начинает игрок %(n)s", n=seat + 1)
        return _("начинает соперник")

    def side(self, seat: int) -> str:
        return "log-me" if seat == self.you else "log-opp"

    def unit(self, ev: Mapping[str, Any]) -> str:
        """The unit's name, or «ваша карта» / «скрытая карта соперника» when its card is hidden."""
        if "card" in ev:
            return _name(ev["card"])
        if ev["seat"] == self.you:
            return _("ваша карта")
        return _("скрытая карта %(whose)s", whose=self.other_gen(ev["seat"]))

    def shield_of(self, ev: Mapping[str, Any]) -> str:
        genitive = _GENITIVE.get(ev["target_card"])
        return _(genitive) if genitive is not None else _name(ev["target_card"])

    # -- one line per event ---------------------------------------------------------------------
    def line(self, ev: Event, i: int, batch: Sequence[Event]) -> JSON | None:
        """``ev`` (``batch[i]``) in words, or None for a kind unknown here."""
        if ev.get("kind") not in _KINDS:
            return None
        text, cls = self._words(ev, i, batch)
        return {"text": text, "cls": cls}

    def _words(self, ev: Event, i: int, batch: Sequence[Event]) -> tuple[str, str]:
        """Every kind has a case: a missing one is a mypy error."""
        match ev["kind"]:
            case "play":
                return self._play(ev)
            case "thaw":
                return self._thaw(ev)
            case "loner":
                return self._loner(ev)
            case "sprout":
                return self._sprout(ev)
            case "rosa_buff":
                return self._rosa_buff(ev)
            case "rally":
                return self._rally(ev)
            case "shot":
                return self._shot(ev)
            case "burn":
                return self._burn(ev)
            case "rosa":
                return self._tactic(ev, i, batch)
            case "podzhog":
                return self._tactic(ev, i, batch)
            case "podzhog_hit":
                return self._podzhog_hit(ev)
            case "draw":
                return self._draw(ev)
            case "draw_skipped":
                return self._draw_skipped(ev)
            case "pass":
                return self._pass(ev)
            case "reveal":
                return self._reveal(ev)
            case "lightning":
                return self._lightning(ev)
            case "season_scored":
                return self._season_scored(ev)
            case "match_end":
                return self._match_end(ev, i, batch)
            case "resign":
                return self._resign(ev)
            case "next_season":
                return self._next_season(ev)
            case "clear":
                return self._clear(ev)
            case "season_start":
                return self._season_start(ev)
            case other:
                assert_never(other)

    def _play(self, ev: PlayEvent) -> tuple[str, str]:
        s = ev["seat"]
        if "card" not in ev:
            text = _(
                "%(who)s кладёт скрытую карту на поле %(field)s",
                who=_cap(self.other(s)),
                field=_field(ev["field"]),
            )
            return text, self.side(s)
        fd = _(" — рубашкой вверх") if ev["face_down"] else ""
        return (
            f"{self.who(s)} → {_field(ev['field'])}: {_name(ev['card'])} ({ev['strength']}){fd}",
            self.side(s),
        )

    def _plus(self, ev: BuffEvent, fallback: str) -> str:
        return f"+{ev['amount']}" if ev.get("amount") else _(fallback)

    def _thaw(self, ev: BuffEvent) -> tuple[str, str]:
        return f"{_OMEN_NAMES['thaw']}: {self.unit(ev)} {self._plus(ev, N_('получает бонус'))}", self.side(
            ev["seat"]
        )

    def _loner(self, ev: BuffEvent) -> tuple[str, str]:
        return f"{_cap(_(_ABILITY['loner']))}: {self.unit(ev)} +{ev.get('amount', 3)}", self.side(ev["seat"])

    def _sprout(self, ev: BuffEvent) -> tuple[str, str]:
        text = f"{_cap(_(_ABILITY['sprout']))}: {self.unit(ev)} {self._plus(ev, N_('растёт'))}"
        return text, self.side(ev["seat"])

    def _rosa_buff(self, ev: BuffEvent) -> tuple[str, str]:
        return f"{_name('rosa')}: {self.unit(ev)} {self._plus(ev, N_('усиливается'))}", self.side(ev["seat"])

    def _rally(self, ev: RallyEvent) -> tuple[str, str]:
        targets = [_name(t["card"]) for t in ev.get("targets", [])]
        what = f"+1 {', '.join(targets)}" if targets else _("рядом никого, без эффекта")
        return f"{_cap(_(_ABILITY['rally']))}: {_name(ev['card'])} — {what}", self.side(ev["seat"])

    def _shot(self, ev: ShotEvent) -> tuple[str, str]:
        card = _name(ev["card"])
        if ev["shield_absorbed"]:
            text = _("%(card)s стреляет: щит %(target)s поглощает урон", card=card, target=self.shield_of(ev))
        else:
            target = _name(ev["target_card"])
            text = _("%(card)s стреляет: %(target)s −%(n)s", card=card, target=target, n=ev["damage"])
        return text, self.side(ev["seat"])

    def _tactic(self, ev: TacticEvent, i: int, batch: Sequence[Event]) -> tuple[str, str]:
        s = ev["seat"]
        p = {"who": self.who(s), "card": _name(ev["card"]), "field": _field(ev["field"])}
        if s == self.you:
            text = _("%(who)s разыгрываете «%(card)s» на поле %(field)s", **p)
        else:
            text = _("%(who)s разыгрывает «%(card)s» на поле %(field)s", **p)
        # Its rosa_buff / podzhog_hit events follow it at once, in the same action (seq): none, no effect.
        nxt = batch[i + 1] if i + 1 < len(batch) else None
        if nxt is None or nxt.get("kind") != _HIT[ev["kind"]] or nxt.get("seq") != ev.get("seq"):
            text += _(" — без эффекта")
        return text, self.side(s)

    def _podzhog_hit(self, ev: PodzhogHitEvent) -> tuple[str, str]:
        if ev["shield_absorbed"]:
            text = _("Поджог: щит %(target)s поглощает урон", target=self.shield_of(ev))
        else:
            text = f"{_name('podzhog')}: {_name(ev['target_card'])} −{ev['damage']}"
        return text, self.side(ev["seat"])

    def _burn(self, ev: BurnEvent) -> tuple[str, str]:
        s, card = ev["seat"], _name(ev["card"])
        burnt = (
            _("%(card)s сгорела", card=card) if ev["card"] in _FEMININE else _("%(card)s сгорел", card=card)
        )
        whose = _(" (ваш отряд)") if s == self.you else _(" (отряд %(whose)s)", whose=self.other_gen(s))
        return burnt + whose, self.side(s)

    def _lightning(self, ev: LightningEvent) -> tuple[str, str]:
        card = _name(ev["card"])
        if ev["shield_absorbed"]:
            text = _(
                "Молния бьёт %(card)s %(where)s: щит поглощает урон", card=card, where=_field_at(ev["field"])
            )
        else:
            text = _("Молния бьёт %(card)s −%(n)s", card=card, n=ev.get("damage", 3))
        return text, "log-sys"

    def _reveal(self, ev: RevealEvent) -> tuple[str, str]:
        s = ev["seat"]
        text = _(
            "Открывается %(where)s: %(card)s (%(n)s)",
            where=_field_at(ev["field"]),
            card=_name(ev["card"]),
            n=ev["strength"],
        )
        whose = _("— ваш") if s == self.you else f"— {self.other_gen(s)}"
        return f"{text} {whose}", self.side(s)

    def _reason_prefix(self, reason: str) -> str:
        if reason == "fair":
            return f"{_OMEN_NAMES['fair']}: "
        if reason == "messenger":
            return f"{_cap(_(_ABILITY['messenger']))}: "
        return ""

    def _draw(self, ev: DrawEvent) -> tuple[str, str]:
        s = ev["seat"]
        # The opponent's card is named only once it is public (after the end, rules §What each player sees).
        what = f": {_name(ev['card'])}" if "card" in ev else ""
        base = (_("вы тянете карту") if s == self.you else _("%(who)s тянет карту", who=self.other(s))) + what
        pre = self._reason_prefix(ev["reason"])
        return (f"{pre}{base}" if pre else _cap(base)), self.side(s)

    def _draw_skipped(self, ev: DrawSkippedEvent) -> tuple[str, str]:
        s = ev["seat"]
        why = _("в руке уже 10 карт") if ev["cause"] == "hand_full" else _("колода пуста")
        whom = _("вы не берёте карту") if s == self.you else _("%(who)s не берёт карту", who=self.other(s))
        return f"{self._reason_prefix(ev['reason'])}{whom} — {why}", self.side(s)

    def _pass(self, ev: PassEvent) -> tuple[str, str]:
        s = ev["seat"]
        text = (
            _("%(who)s пасуете", who=self.who(s)) if s == self.you else _("%(who)s пасует", who=self.who(s))
        )
        return text + (_(" (автоматически)") if ev["automatic"] else ""), self.side(s)

    def _season_scored(self, ev: SeasonScoredEvent) -> tuple[str, str]:
        w = ev["winner"]
        bad = w is not None and self.you is not None and w != self.you
        return self.season_line(ev), "log-season log-bad" if bad else "log-season"

    def _match_end(self, ev: MatchEndEvent, i: int, batch: Sequence[Event]) -> tuple[str, str]:
        wins: list[int] | None = None
        for e in batch[:i]:
            if e["kind"] == "season_scored":
                wins = e["wins"]
        w = ev["winner"]
        title, reason = self.outcome(w, ev["reason"], wins)
        result = _("ваша победа") if w is not None and w == self.you else title.lower()
        text = _("Партия окончена: %(result)s", result=result) + (f" — {_lc(reason)}" if reason else "")
        bad = w is not None and self.you is not None and w != self.you
        return text, "log-season log-bad" if bad else "log-season"

    def _resign(self, ev: SeatEvent) -> tuple[str, str]:
        s = ev["seat"]
        if s == self.you:
            text = _("Вы сдались")
        else:  # a name has no gender in the present tense: «Игрок 2 сдаётся»
            text = (
                _("Соперник сдался")
                if self.you is not None
                else _("%(who)s сдаётся", who=_cap(self.other(s)))
            )
        return text, "log-season"

    def _next_season(self, ev: SeatEvent) -> tuple[str, str]:
        s = ev["seat"]
        if s == self.you:
            return _("Вы начали следующий сезон"), "log-sys"
        return _("%(who)s начал следующий сезон", who=_cap(self.other(s))), "log-sys"

    def _clear(self, ev: ClearEvent) -> tuple[str, str]:
        carried = [
            f"{_name(c['card'])} {_field_at(c['field'])} "
            f"({_('ваш') if c['seat'] == self.you else self.other_gen(c['seat'])})"
            for c in ev.get("carried", [])
        ]
        if carried:
            return _("Поля очищены; с корнями остаются: %(cards)s", cards=", ".join(carried)), "log-sys"
        return _("Поля очищены"), "log-sys"

    def _season_start(self, ev: SeasonStartEvent) -> tuple[str, str]:
        text = _(
            "Сезон %(season)s. Примета: %(omen)s. %(starts)s",
            season=ev["season"],
            omen=_OMEN_NAMES.get(ev["omen"], ev["omen"]),
            starts=_cap(self.starts(ev["starter"])),
        )
        return text, "log-season"

    # -- seasons and the result -----------------------------------------------------------------
    def season_line(self, r: SeasonScoredEvent) -> str:
        """«Сезон 1 — победа соперника: поля 1:1 (Луг — соперник, Брод — никому, Холм — вы), решила общая
        сила 14:15»; numbers read «yours : the opponent's» (a spectator: «игрок 1 : игрок 2»)."""
        me = 0 if self.you is None else self.you
        fields: list[int | None] = r["fields"]
        per = ", ".join(
            f"{_field(f)} — {_('никому') if w is None else self.holder(w)}" for f, w in enumerate(fields)
        )
        text = _(
            "Сезон %(season)s — %(verdict)s: поля %(score)s (%(per)s)",
            season=r["season"],
            verdict=self.verdict(r["winner"]),
            score=f"{fields.count(me)}:{fields.count(1 - me)}",
            per=per,
        )
        if fields.count(0) == fields.count(1):
            score = f"{r['strength'][me]}:{r['strength'][1 - me]}"
            if r["winner"] is None:
                text += _(", общая сила тоже поровну — %(score)s", score=score)
            else:
                text += _(", решила общая сила %(score)s", score=score)
        return text

    def verdict(self, w: int | None) -> str:
        if w is None:
            return _("ничья")
        if w == self.you:
            return _("ваша победа")
        return _("победа игрока %(n)s", n=w + 1) if self.you is None else _("победа соперника")

    def outcome(self, w: int | None, reason: str, wins: list[int] | None) -> tuple[str, str]:
        """The result's title and why (D10: two_seasons, more_seasons, draw; resign); seasons read «yours :
        the opponent's» when the season wins are known."""
        me = 0 if self.you is None else self.you
        score = f"{wins[me]}:{wins[1 - me]}" if wins else ""
        if w is None:
            title = _("Ничья")
        elif w == self.you:
            title = _("Победа")
        elif self.you is None:
            title = _("Победа: %(name)s", name=self.who(w))
        else:
            title = _("Поражение")

        def tail(text: str) -> str:
            return f" ({text})" if score else ""

        if reason == "two_seasons" and w is not None:
            won = _("%(who)s выиграли два сезона", who=self.who(w))
            if w != self.you:
                won = _("%(who)s выиграл два сезона", who=self.who(w))
            return title, won + tail(score)
        if reason == "more_seasons" and w is not None:
            won = _("%(who)s выиграли больше сезонов", who=self.who(w))
            if w != self.you:
                won = _("%(who)s выиграл больше сезонов", who=self.who(w))
            return title, won + tail(_("%(score)s при двух ничьих", score=score))
        if reason == "draw":
            if wins and wins[0] == 0:
                why = _("%(score)s: все три сезона — ничьи", score=score)
            else:
                why = _("%(score)s, третий сезон — ничья", score=score)
            return title, _("Поровну выигранных сезонов") + tail(why)
        if reason == "resign" and w is not None:
            loser = 1 - w
            if loser == self.you:
                return title, _("Вы сдались")
            return title, _("Соперник сдался") if self.you is not None else _(
                "%(who)s сдаётся", who=self.who(loser)
            )
        return title, ""
