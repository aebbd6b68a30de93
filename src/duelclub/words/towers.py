"""Дві вежі's words (issue 15 §2): lobby and option texts, end reasons, the UI catalog with the card texts,
and the match log's line for every event (``games/towers/events.py``), in the current language.

Card and battlefield names are proper names and stay as the seed (``cards.csv``) gives them, in Ukrainian, in
both languages; the card *texts* are Russian msgids here (:data:`CARD_TEXT`) and the Ukrainian catalog
carries the seed's ``effect_uk`` word for word (tests/words/test_towers_words.py checks that).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, assert_never, get_args

from pydantic import BaseModel

from duelclub.games.contract import JSON, Seat
from duelclub.games.towers.actions import TowersOptions
from duelclub.games.towers.battlefields import BATTLEFIELD_INDEX, BATTLEFIELDS
from duelclub.games.towers.cards import CARDS, HAND_SIZE
from duelclub.games.towers.dsl import ATTRS, RESOURCES
from duelclub.games.towers.events import (
    DiscardEvent,
    DrawEvent,
    Event,
    MatchEndEvent,
    PlayEvent,
    Reason,
    ReshuffleEvent,
    SeatEvent,
    TimeoutEvent,
    TurnEvent,
)
from duelclub.i18n import N_, ngettext
from duelclub.i18n import gettext as _
from duelclub.words.base import NO_NAMES, GameWords, Names, RulesPage, event_kinds, reason_table
from duelclub.words.towers_cards import CARD_TEXT

DECK_NAMES: dict[str, str] = {"normal": N_("обычная"), "infinite": N_("бесконечная")}
"""Deck type → its name inside a sentence («колода: обычная»), a msgid."""
DECK_LABELS: dict[str, str] = {"normal": N_("Обычная"), "infinite": N_("Бесконечная")}
_ATTR_WORDS: dict[str, str] = {
    "tower": N_("башня"),
    "wall": N_("стена"),
    "mines": N_("шахты"),
    "monasteries": N_("монастыри"),
    "barracks": N_("казармы"),
    "ore": N_("руда"),
    "mana": N_("мана"),
    "troops": N_("отряды"),
}
_KINDS = event_kinds(Event)
_PLAY_AGAIN = N_("Играем снова")
_DRAW_DISCARD = N_("Возьмите карту, сбросьте карту")


def _amount(resource: str, n: int) -> str:
    """``n`` of ``resource`` (``ore``, ``mana``, ``troops``) in words: «5 руды», «1 отряд», «3 отряда»."""
    if resource == "ore":
        return _("%(n)s руды", n=n)
    if resource == "mana":
        return _("%(n)s маны", n=n)
    return ngettext("%(n)s отряд", "%(n)s отряда", "%(n)s отрядов", n)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}"


def _card(card: int) -> str:
    """«Name» of a card id (the seed's proper name)."""
    c = CARDS.get(card)
    return f"«{c.name}»" if c is not None else _("Карта %(id)s", id=card)


class _Reader:
    """The log from the side of ``you`` (a seat, or None for a spectator, who reads «Игрок N»)."""

    def __init__(self, you: Seat | None) -> None:
        self.you = you

    def who(self, seat: int) -> str:
        """«Вы», «Соперник», or «Игрок N» for a spectator (the subject of a sentence)."""
        if seat == self.you:
            return _("Вы")
        return _("Игрок %(n)s", n=seat + 1) if self.you is None else _("Соперник")

    def who_lc(self, seat: int) -> str:
        if seat == self.you:
            return _("вы")
        return _("Игрок %(n)s", n=seat + 1) if self.you is None else _("соперник")

    def whose(self, seat: int) -> str:
        """«у вас», «у соперника», «у игрока N»."""
        if seat == self.you:
            return _("у %(whom)s", whom=_("вас"))
        if self.you is None:
            return _("у %(whom)s", whom=_("игрока %(n)s", n=seat + 1))
        return _("у %(whom)s", whom=_("соперника"))

    def side(self, seat: int) -> str:
        return "log-me" if seat == self.you else "log-opp"

    def changes(self, delta: list[list[int]]) -> str:
        """« — у вас: башня +3; у соперника: стена −2» or « — без изменений»."""
        parts = []
        for seat in (0, 1):
            d = delta[seat] if seat < len(delta) else []
            bits = [f"{_(_ATTR_WORDS[a])} {_signed(x)}" for a, x in zip(ATTRS, d, strict=False) if x]
            if bits:
                parts.append(f"{self.whose(seat)}: {', '.join(bits)}")
        return f" — {'; '.join(parts)}" if parts else _(" — без изменений")

    def line(self, ev: Event) -> JSON | None:
        """``ev`` in words, or None for the opponent's hidden draw and a kind with no line."""
        if ev.get("kind") not in _KINDS:
            return None
        seat = ev.get("seat")  # reshuffle and match_end have none
        s = seat if isinstance(seat, int) else -1
        out = self._words(ev, s, s == self.you)
        return None if out is None else {"text": out[0], "cls": out[1]}

    def _words(self, ev: Event, s: int, me: bool) -> tuple[str, str] | None:
        """Every kind has a case: a missing one is a mypy error."""
        match ev["kind"]:
            case "turn":
                return self._turn(ev, s, me)
            case "play":
                return self._play(ev, s, me)
            case "draw":
                return self._draw(ev, s, me)
            case "reshuffle":
                return self._reshuffle(ev, s, me)
            case "again":
                return self._again(ev, s, me)
            case "forced":
                return self._forced(ev, s, me)
            case "timeout":
                return self._timeout(ev, s, me)
            case "resign":
                return self._resign(ev, s, me)
            case "match_end":
                return self._match_end(ev, s, me)
            case "discard":
                return self._discard(ev, s, me)
            case other:
                assert_never(other)

    def _turn(self, ev: TurnEvent, s: int, me: bool) -> tuple[str, str]:
        income = ", ".join(f"+{_amount(r, n)}" for r, n in zip(RESOURCES, ev["produced"], strict=True))
        if me:
            return _("Ход %(turn)s, ходите вы (доход: %(income)s)", turn=ev["turn"], income=income), "log-sys"
        text = _(
            "Ход %(turn)s, ходит %(who)s (доход: %(income)s)",
            turn=ev["turn"],
            who=self.who_lc(s),
            income=income,
        )
        return text, "log-sys"

    def _play(self, ev: PlayEvent, s: int, me: bool) -> tuple[str, str]:
        c = CARDS.get(ev["card"])
        cost = _amount(RESOURCES[c.resource], c.cost) if c is not None else "?"
        p = {"who": self.who(s), "card": _card(ev["card"]), "cost": cost}
        played = (
            _("%(who)s играете %(card)s (%(cost)s)", **p)
            if me
            else _("%(who)s играет %(card)s (%(cost)s)", **p)
        )
        return played + self.changes(ev["delta"]), self.side(s)

    def _draw(self, ev: DrawEvent, s: int, me: bool) -> tuple[str, str] | None:
        if "card" not in ev:
            return None  # the opponent's hidden draws would only fill the log
        p = {"who": self.who(s), "card": _card(ev["card"])}
        text = _("%(who)s тянете %(card)s", **p) if me else _("%(who)s тянет %(card)s", **p)
        return text, self.side(s)

    def _reshuffle(self, ev: ReshuffleEvent, s: int, me: bool) -> tuple[str, str]:
        text = ngettext(
            "Колода кончилась: сброс перемешан (%(n)s карта)",
            "Колода кончилась: сброс перемешан (%(n)s карты)",
            "Колода кончилась: сброс перемешан (%(n)s карт)",
            ev["cards"],
        )
        return text, "log-sys"

    def _again(self, ev: SeatEvent, s: int, me: bool) -> tuple[str, str]:
        effect = _(_PLAY_AGAIN)
        if me:
            return _("«%(effect)s»: у вас ещё одно действие", effect=effect), self.side(s)
        whom = _("игрока %(n)s", n=s + 1) if self.you is None else _("соперника")
        return _("«%(effect)s»: у %(whom)s ещё одно действие", effect=effect, whom=whom), self.side(s)

    def _forced(self, ev: SeatEvent, s: int, me: bool) -> tuple[str, str]:
        effect = _(_DRAW_DISCARD)
        if me:
            return _("«%(effect)s»: выберите карту для сброса", effect=effect), self.side(s)
        text = _("«%(effect)s»: %(who)s выбирает карту для сброса", effect=effect, who=self.who_lc(s))
        return text, self.side(s)

    def _timeout(self, ev: TimeoutEvent, s: int, me: bool) -> tuple[str, str]:
        p = {"who": self.who(s), "n": ev["count"]}
        if ev["count"] >= 3:
            return _("%(who)s: время хода вышло (%(n)s-й раз подряд — поражение)", **p), "log-season log-bad"
        return _("%(who)s: время хода вышло (%(n)s-й раз подряд)", **p), "log-season log-bad"

    def _resign(self, ev: SeatEvent, s: int, me: bool) -> tuple[str, str]:
        if me:
            return _("Вы сдались"), "log-season"
        # a member's name has no gender here: the present tense has none («alice сдаётся»)
        return (
            _("Соперник сдался") if self.you is not None else _("%(who)s сдаётся", who=self.who(s))
        ), "log-season"

    def _match_end(self, ev: MatchEndEvent, s: int, me: bool) -> tuple[str, str]:
        title, reason = self.result(ev)
        text = _("Партия окончена — %(result)s.", result=title) + (f" {reason}." if reason else "")
        return text, "log-season"

    def _discard(self, ev: DiscardEvent, s: int, me: bool) -> tuple[str, str]:
        return self._discarded(ev, me), self.side(s)

    def _discarded(self, ev: DiscardEvent, me: bool) -> str:
        s = ev["seat"]
        p = {"who": self.who(s), "card": _card(ev["card"])}
        if ev.get("tag") == "timeout_discard":
            if me:
                return _("Время вышло: вы сбрасываете %(card)s", **p)
            return _("Время вышло: %(who)s сбрасывает %(card)s", who=self.who(s).lower(), card=p["card"])
        if ev.get("tag") == "forced_discard":
            if me:
                return _("%(who)s сбрасываете %(card)s (взять и сбросить)", **p)
            return _("%(who)s сбрасывает %(card)s (взять и сбросить)", **p)
        return _("%(who)s сбрасываете %(card)s", **p) if me else _("%(who)s сбрасывает %(card)s", **p)

    def result(self, ev: MatchEndEvent) -> tuple[str, str]:
        """The title («Победа», «Поражение», «Ничья», «Победа: Игрок 1») and a sentence saying why."""
        w = ev.get("winner")
        if w is None:
            title = _("Ничья")
        elif w == self.you:
            title = _("Победа")
        elif self.you is None:
            title = _("Победа: %(name)s", name=_("Игрок %(n)s", n=w + 1))
        else:
            title = _("Поражение")
        field = ev.get("battlefield")
        bf = BATTLEFIELDS[BATTLEFIELD_INDEX[field]] if field in BATTLEFIELD_INDEX else None
        goal, stock = (bf.victory_tower, bf.victory_resource) if bf is not None else ("?", "?")
        reason = ev.get("reason")
        if w is None:
            draws = {
                "draw": N_("Оба игрока выполнили условие победы одновременно"),
                "turn_limit": N_("Сыграно 500 ходов без результата"),
            }
            return title, _(draws[reason]) if reason in draws else ""
        loser = 1 - w
        sentences: dict[str, tuple[int, str, str, str, dict[str, Any]]] = {
            "destruction": (
                loser,
                N_("Ваша башня разрушена"),
                N_("Башня соперника разрушена"),
                N_("Башня игрока %(name)s разрушена"),
                {},
            ),
            "tower": (
                w,
                N_("Ваша башня достигла цели (%(n)s)"),
                N_("Башня соперника достигла цели (%(n)s)"),
                N_("Башня игрока %(name)s достигла цели (%(n)s)"),
                {"n": goal},
            ),
            "resource": (
                w,
                N_("Вы собрали запас ресурса %(n)s"),
                N_("Соперник собрал запас ресурса %(n)s"),
                N_("Игрок %(name)s собрал запас ресурса %(n)s"),
                {"n": stock},
            ),
            "timeout": (
                loser,
                N_("Вы трижды подряд не успели сходить"),
                N_("Соперник трижды подряд не успел сходить"),
                N_("Игрок %(name)s трижды подряд не успел сходить"),
                {},
            ),
            "resign": (loser, N_("Вы сдались"), N_("Соперник сдался"), N_("Игрок %(name)s сдался"), {}),
        }
        if reason not in sentences:
            return title, ""
        seat, mine, theirs, named, params = sentences[reason]
        if seat == self.you:
            return title, _(mine, **params)
        if self.you is None:
            return title, _(named, name=seat + 1, **params)
        return title, _(theirs, **params)


def _reason_msgid(code: Reason) -> str:
    """The msgid of each end reason of the rules (``Reason``); a missing one is a mypy error."""
    match code:
        case "destruction":
            return N_("башня разрушена")
        case "tower":
            return N_("башня достроена до цели")
        case "resource":
            return N_("собран запас ресурса")
        case "draw":
            return N_("оба выполнили условие победы разом")
        case "turn_limit":
            return N_("500 ходов без результата")
        case "timeout":
            return N_("три хода подряд без ответа")
        case "resign":
            return N_("сдача")
        case other:
            assert_never(other)


class TowersWords(GameWords[Event]):
    """Дві вежі's words."""

    slug: ClassVar[str] = "towers"
    title: ClassVar[str] = N_("Дві вежі")
    tagline: ClassVar[str] = N_("дуэль башен · 102 карты · 8 полей битвы")
    summary: ClassVar[str] = N_(
        "Каждый ход ваши шахты, монастыри и казармы дают руду, ману и отряды; на них вы разыгрываете карты: "
        "строите башню и стену, бьёте по противнику, отнимаете его ресурсы. Побеждает тот, кто первым "
        "достроит башню до цели поля, соберёт нужный запас ресурса или разрушит башню соперника."
    )
    reasons: ClassVar[dict[str, str]] = reason_table(get_args(Reason), _reason_msgid)
    rules: ClassVar[RulesPage] = RulesPage(
        ("goal", "setup", "turn", "damage", "end", "decks", "battlefields", "cards", "online")
    )
    """The rules page's sections; the «Правила» panel's part by phase."""
    level_hints: ClassVar[dict[str, str]] = {
        "medium": N_("иногда ходит наугад"),
        "strong": N_("выбирает лучшую карту хода"),
    }
    """«Средний» is the greedy heuristic with a random move one time in four, «Сильный» the same without
    random moves and without lookahead (bots/towers ``LEVEL_PARAMS``): the shared «немного думает наперёд»
    and «думает над каждым ходом» would not be true."""

    def catalog(self) -> JSON:
        """Cards (with their effect texts in the current language), battlefields, deck types, hand size."""
        return {
            "cards": [{**CARDS[c].to_json(), "text": _(CARD_TEXT[c])} for c in sorted(CARDS)],
            "battlefields": [b.to_json() for b in BATTLEFIELDS],
            "decks": [{"id": k, "name": _(DECK_LABELS[k])} for k in DECK_NAMES],
            "hand_size": HAND_SIZE,
        }

    def options_form(self, first_seat: bool = False) -> list[JSON]:
        """Two fields: the battlefield (§2: start and goals as the hint) and the deck type (§8); both seats
        share them, so ``first_seat`` changes no label."""
        fields = [
            {
                "value": b.id,
                "label": b.name,
                "hint": _(
                    "башня %(tower)s, стена %(wall)s · цель: башня %(goal)s или %(resource)s ресурса",
                    tower=b.start[0],
                    wall=b.start[1],
                    goal=b.victory_tower,
                    resource=b.victory_resource,
                ),
            }
            for b in BATTLEFIELDS
        ]
        hints = {
            "normal": _("102 карты по одной, сброс перемешивается заново"),
            "infinite": _("каждая карта с равной вероятностью, повторы"),
        }
        decks = [{"value": k, "label": _(label), "hint": hints[k]} for k, label in DECK_LABELS.items()]
        return [
            {
                "name": "battlefield",
                "label": _("Поле битвы"),
                "choices": fields,
                "default": "archmage_citadel",
            },
            {"name": "deck", "label": _("Колода"), "choices": decks, "default": "normal"},
        ]

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        """«Поле: Вільний степ, колода: бесконечная» (the same for every reader)."""
        assert isinstance(options, TowersOptions)
        name = BATTLEFIELDS[BATTLEFIELD_INDEX[options.battlefield]].name
        return _("Поле: %(field)s, колода: %(deck)s", field=name, deck=_(DECK_NAMES[options.deck]))

    def event_lines(
        self, events: Sequence[Event], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        """One log line per event from ``seat``'s side (None for a hidden draw or a kind with no line)."""
        reader = _Reader(seat)
        return [reader.line(ev) for ev in events]


WORDS = TowersWords()
