"""Артания и Куявия's words (issue 15 §2): lobby texts, options, end reasons, the UI catalog, the match log.

The log speaks to its reader: «Вы берёте 3 карты», «Соперник: пас», «Кругляш: вы (2 : 1)»; a spectator reads
«Игрок 1» and «Игрок 2». Card, deck and class names are proper names (as the rules give them), the same in
every language. Each line has a ``cls`` the page styles: ``log-me`` (the reader's own action), ``log-opp``,
``log-sys`` (automatic steps), ``log-season`` (scoring, tokens, the end).

>>> WORDS.event_lines([{"kind": "pass", "seat": 1, "window": "W2", "automatic": False, "closed": True}], 0)
[{'text': 'Соперник: пас — окно снаряжения 3 из 5 закрыто', 'cls': 'log-opp'}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, assert_never, get_args

from pydantic import BaseModel

from duelclub.games.artania.actions import ArtaniaOptions
from duelclub.games.artania.cards import DECK_NAMES, INDEX, card_name, catalog
from duelclub.games.artania.events import (
    ChasyEvent,
    DrawEvent,
    Event,
    IdolEvent,
    MatchEndEvent,
    NektarEvent,
    PassEvent,
    PlaceEvent,
    Reason,
    ResignEvent,
    TiebreakEvent,
    TokenEvent,
    TurnScoredEvent,
    TurnStartEvent,
)
from duelclub.games.contract import JSON, Seat
from duelclub.i18n import N_, ngettext
from duelclub.i18n import gettext as _
from duelclub.words.base import NO_NAMES, GameWords, Names, RulesPage, event_kinds, reason_table

EQUIPMENT_TEXTS: dict[str, str] = {
    "nektar": N_("+2 меча одному воину класса на поле боя (любой стороны) до конца хода"),
    "idol": N_("соперник сбрасывает своего воина с поля боя — по вашему выбору"),
    "chasy": N_("сбросьте их вместе с другой картой из руки и возьмите 3 карты из колоды"),
}
"""What each equipment card does (rules/artania.md §Equipment), msgids."""


def name(card: str) -> str:
    """A card by name: «Витязь-десятник», «Нектар могущества»."""
    return card_name(INDEX[card])


def step_word(code: str) -> str:
    """The engine's step code (W0…W4 windows, P1…P4 placements) in words: «окно снаряжения 2 из 5»."""
    if code == "W4":
        return _("последнее окно снаряжения")
    if len(code) == 2 and code[0] == "W" and code[1] in "0123":
        return _("окно снаряжения %(n)s из 5", n=int(code[1]) + 1)
    if len(code) == 2 and code[0] == "P" and code[1] in "1234":
        return _("выставление %(n)s из 4", n=int(code[1]))
    return _("окно снаряжения")


class _Reader:
    """Who reads the log (a seat, or None for a spectator) and how players are named for them."""

    def __init__(self, seat: Seat | None, names: Names = NO_NAMES) -> None:
        self.you = seat
        self.me = seat if seat is not None else 0  # whose numbers come first
        self.names = names

    def name_of(self, seat: int) -> str:
        """A spectator's name for ``seat``: the member's username, else «Игрок N» (a bot)."""
        return self.names[seat] or _("Игрок %(n)s", n=seat + 1)

    def who(self, seat: int) -> str:
        """«Вы», «Соперник», or a spectator's «Игрок 2»."""
        if seat == self.you:
            return _("Вы")
        return self.name_of(seat) if self.you is None else _("Соперник")

    def who_lc(self, seat: int) -> str:
        """The same inside a sentence: «вы», «соперник»."""
        if seat == self.you:
            return _("вы")
        return self.name_of(seat) if self.you is None else _("соперник")

    def whose(self, seat: int) -> str:
        """«ваш», «соперника», «игрока Игрок 2»."""
        if seat == self.you:
            return _("ваш")
        return _("игрока %(name)s", name=self.name_of(seat)) if self.you is None else _("соперника")

    def cls(self, seat: int) -> str:
        return "log-me" if seat == self.you else "log-opp"

    def by(self, seat: int, mine: str, theirs: str, named: str, **params: object) -> str:
        """One of three phrasings (msgids) of a sentence about ``seat``: the reader's own, the opponent's, a
        named player's (``named`` with ``%(name)s``); ``params`` fill the other placeholders."""
        if seat == self.you:
            return _(mine, **params)
        return _(named, name=self.name_of(seat), **params) if self.you is None else _(theirs, **params)


Line = tuple[str, str]
"""(text, cls)."""


def _place(e: PlaceEvent, r: _Reader) -> Line:
    s = e["seat"]
    slots = ", ".join(str(x) for x in e["empty"])
    if not e["cards"]:
        return _("%(who)s: нет воинов — слоты %(slots)s пусты", who=r.who(s), slots=slots), r.cls(s)
    put = ", ".join(_("%(card)s в слот %(n)s", card=name(c["card"]), n=c["slot"]) for c in e["cards"])
    empty = _("; слот %(slots)s пуст (воинов больше нет)", slots=slots) if e["empty"] else ""
    return f"{r.who(s)}: {put}{empty}", r.cls(s)


def _pass(e: PassEvent, r: _Reader) -> Line:
    s = e["seat"]
    if e["automatic"]:
        closed = _("; %(step)s закрыто", step=step_word(e["window"])) if e["closed"] else ""
        return _("%(who)s: рука пуста — пас", who=r.who(s)) + closed, "log-sys"
    closed = _(" — %(step)s закрыто", step=step_word(e["window"])) if e["closed"] else ""
    return _("%(who)s: пас", who=r.who(s)) + closed, r.cls(s)


def _nektar(e: NektarEvent, r: _Reader) -> Line:
    s = e["seat"]
    text = _(
        "%(who)s: Нектар могущества на %(card)s (%(whose)s слот %(n)s) — +2 меча",
        who=r.who(s),
        card=name(e["card"]),
        whose=r.whose(e["target_seat"]),
        n=e["slot"],
    )
    return text, r.cls(s)


def _idol(e: IdolEvent, r: _Reader) -> Line:
    s = e["seat"]
    text = _(
        "%(who)s: Идол гнева — %(card)s из слота %(n)s уходит в сброс",
        who=r.who(s),
        card=name(e["card"]),
        n=e["slot"],
    )
    return text, r.cls(s)


def _chasy(e: ChasyEvent, r: _Reader) -> Line:
    s = e["seat"]
    return _(
        "%(who)s: Часы Базилевса, сброшена карта %(card)s", who=r.who(s), card=name(e["discard"])
    ), r.cls(s)


def _draw(e: DrawEvent, r: _Reader) -> Line:
    s, n = e["seat"], e["count"]
    cards = e.get("cards") or []
    what = ": " + ", ".join(name(c) for c in cards) if cards else ""
    reason = _(" (Часы)") if e["reason"] == "chasy" else ""
    if s == r.you:
        took = ngettext(
            "%(who)s берёте %(n)s карту",
            "%(who)s берёте %(n)s карты",
            "%(who)s берёте %(n)s карт",
            n,
            who=r.who(s),
        )
    else:
        took = ngettext(
            "%(who)s берёт %(n)s карту",
            "%(who)s берёт %(n)s карты",
            "%(who)s берёт %(n)s карт",
            n,
            who=r.who(s),
        )
    return took + reason + what, r.cls(s)


def _turn_scored(e: TurnScoredEvent, r: _Reader) -> Line:
    me, tot = r.me, e["totals"]
    text = _(
        "Ход %(turn)s: мечи — %(x)s %(a)s, %(y)s %(b)s",
        turn=e["turn"],
        x=r.who_lc(me),
        a=tot[me],
        y=r.who_lc(1 - me),
        b=tot[1 - me],
    )
    return text, "log-season"


def _tiebreak(e: TiebreakEvent, r: _Reader) -> Line:
    def flip(x: int) -> str:
        card = e["cards"][x]
        return f"{name(card) if card else _('колода пуста')} ({e['values'][x]})"

    return _(
        "Ничья — вскрытие %(n)s: %(a)s против %(b)s", n=e["round"], a=flip(r.me), b=flip(1 - r.me)
    ), "log-season"


def _token(e: TokenEvent, r: _Reader) -> Line:
    if e["seat"] is None:
        return _("Кругляш никто не взял"), "log-season"
    a, b = e["tokens"][r.me], e["tokens"][1 - r.me]
    return _("Кругляш: %(who)s (%(a)s : %(b)s)", who=r.who_lc(e["seat"]), a=a, b=b), "log-season"


def _turn_start(e: TurnStartEvent, r: _Reader) -> Line:
    turn, first = e["turn"], e["first"]
    if first == r.you:
        return _("Ход %(turn)s: первым действуете вы", turn=turn), "log-sys"
    if r.you is None:
        return _("Ход %(turn)s: первым действует %(name)s", turn=turn, name=r.name_of(first)), "log-sys"
    return _("Ход %(turn)s: первым действует соперник", turn=turn), "log-sys"


def _resign(e: ResignEvent, r: _Reader) -> Line:
    s = e["seat"]
    if s == r.you:
        return _("Вы сдались"), "log-season"
    # a member's name has no gender here: the present tense has none («alice сдаётся»)
    return (_("Соперник сдался") if r.you is not None else _("%(who)s сдаётся", who=r.who(s))), "log-season"


def _match_end(e: MatchEndEvent, r: _Reader) -> Line:
    w = e["winner"]
    if w is None:
        title = _("Ничья")
    elif r.you is None:
        title = _("Победа: %(name)s", name=r.name_of(w))
    else:
        title = _("Победа") if w == r.you else _("Поражение")
    score = {"a": e["tokens"][r.me], "b": e["tokens"][1 - r.me]}
    reason = ""
    if e["reason"] == "five_tokens" and w is not None:
        reason = r.by(
            w,
            N_("Вы первыми собрали пять кругляшей"),
            N_("Соперник первым собрал пять кругляшей"),
            N_("%(name)s первым собрал пять кругляшей"),
        )
    elif e["reason"] == "deck_exhausted" and w is None:
        reason = _("Колода закончилась, кругляшей поровну (%(a)s : %(b)s)", **score)
    elif e["reason"] == "deck_exhausted" and w is not None:
        reason = r.by(
            w,
            N_("Колода закончилась, у вас больше кругляшей (%(a)s : %(b)s)"),
            N_("Колода закончилась, у соперника больше кругляшей (%(a)s : %(b)s)"),
            N_("Колода закончилась, больше кругляшей у игрока %(name)s (%(a)s : %(b)s)"),
            **score,
        )
    elif e["reason"] == "resign" and w is not None:
        reason = r.by(1 - w, N_("Вы сдались"), N_("Соперник сдался"), N_("%(name)s сдаётся"))
    text = _("Партия окончена — %(result)s.", result=title) + (f" {reason}." if reason else "")
    return text, "log-season"


_KINDS = event_kinds(Event)


def _line(e: Event, r: _Reader) -> Line | None:
    """``e`` in words, or None for ``cleanup`` (the scoring lines say it all). Every kind has a case: a
    missing one is a mypy error."""
    match e["kind"]:
        case "place":
            return _place(e, r)
        case "pass":
            return _pass(e, r)
        case "nektar":
            return _nektar(e, r)
        case "idol":
            return _idol(e, r)
        case "chasy":
            return _chasy(e, r)
        case "draw":
            return _draw(e, r)
        case "turn_scored":
            return _turn_scored(e, r)
        case "tiebreak":
            return _tiebreak(e, r)
        case "token":
            return _token(e, r)
        case "turn_start":
            return _turn_start(e, r)
        case "resign":
            return _resign(e, r)
        case "match_end":
            return _match_end(e, r)
        case "cleanup":
            return None
        case other:
            assert_never(other)


def _reason_msgid(code: Reason) -> str:
    """The msgid of each end reason of the rules (``Reason``); a missing one is a mypy error."""
    match code:
        case "five_tokens":
            return N_("пять кругляшей")
        case "deck_exhausted":
            return N_("колода закончилась")
        case "resign":
            return N_("сдача")
        case other:
            assert_never(other)


class ArtaniaWords(GameWords[Event]):
    """Артания и Куявия in words."""

    slug: ClassVar[str] = "artania"
    title: ClassVar[str] = N_("Артания и Куявия")
    tagline: ClassVar[str] = N_("дуэль воинов · противоклассы · до пяти кругляшей")
    summary: ClassVar[str] = N_(
        "Каждый ход стороны выставляют по три воина друг напротив друга; противокласс даёт лишние мечи, "
        "снаряжение — Нектар, Идол и Часы — меняет расклад. Кто больше мечей — берёт кругляш; "
        "пять кругляшей — победа."
    )
    reasons: ClassVar[dict[str, str]] = reason_table(get_args(Reason), _reason_msgid)
    rules: ClassVar[RulesPage] = RulesPage(
        ("goal", "setup", "turn", "counter", "equipment", "scoring", "cards", "end", "online"),
        panel_by_phase={"window": "equipment"},
    )
    """The rules page's sections; the «Правила» panel's part by phase."""

    def catalog(self) -> JSON:
        """The rules' catalog (``cards.catalog``) with each equipment card's text in the current language."""
        data = catalog()
        cards = data["cards"]
        assert isinstance(cards, list)
        data["cards"] = [
            {**c, "text": _(EQUIPMENT_TEXTS.get(str(c["id"]), ""))} if c["id"] in EQUIPMENT_TEXTS else c
            for c in cards
        ]
        return data

    def options_form(self, first_seat: bool = False) -> list[JSON]:
        """One field, the opener's deck (D29); the other seat gets the other deck. The decks are identical."""
        return [
            {
                "name": "deck",
                "label": _("Колода первого игрока") if first_seat else _("Ваша колода"),
                "choices": [
                    {"value": "artania", "label": "Артания"},
                    {"value": "kuyavia", "label": "Куявия"},
                    {
                        "value": "random",
                        "label": _("Случайно"),
                        "hint": _("Артания у того, кто ходит первым"),
                    },
                ],
                "default": "artania",
            }
        ]

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        """«Ваша колода: Куявия» for a seat, «Артания у игрока 1» for a third party; a random deck is
        «Колода: по жребию» (it is only known once the match is dealt)."""
        assert isinstance(options, ArtaniaOptions)
        deck0 = options.deck
        if deck0 == "random":
            return _("Колода: по жребию")
        if seat is None:
            return _("%(deck)s у игрока 1", deck=DECK_NAMES[deck0])
        mine = deck0 if seat == 0 else ("kuyavia" if deck0 == "artania" else "artania")
        return _("Ваша колода: %(deck)s", deck=DECK_NAMES[mine])

    def event_lines(
        self, events: Sequence[Event], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        reader = _Reader(seat, names)
        out: list[JSON | None] = []
        for e in events:
            line = _line(e, reader) if e.get("kind") in _KINDS else None
            out.append(None if line is None else {"text": line[0], "cls": line[1]})
        return out


WORDS = ArtaniaWords()
