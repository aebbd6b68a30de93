"""The shape every game's words module has (issue 15 §2): :class:`GameWords`.

Every method answers in the *current* language (:func:`duelclub.i18n.current_lang`, set per request and per
socket), so a module holds Russian msgids marked with ``N_`` and translates where it speaks. Nothing here
reads or changes a state: the inputs are the data the rules emit (options, outcome codes, event dicts as
``Game.event_view`` gives them to one seat).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Generic, assert_never, get_args, get_origin, get_type_hints

from pydantic import BaseModel
from typing_extensions import TypeVar

from duelclub.games.contract import JSON, PlatformReason, Seat
from duelclub.i18n import N_
from duelclub.i18n import gettext as _

Names = tuple[str | None, str | None]
"""The seats' usernames (None: a bot or nobody)."""
NO_NAMES: Names = (None, None)

EventT = TypeVar("EventT", bound=Mapping[str, Any], default=Mapping[str, Any])
"""The events a words module words: its game's ``Event`` union (``games/<slug>/events.py``)."""
CodeT = TypeVar("CodeT", bound=str)


def _platform_msgid(code: PlatformReason) -> str:
    """The msgid of one platform end reason; a code missing here is a mypy error (``assert_never``)."""
    match code:
        case "resign":
            return N_("сдача")
        case "timeout":
            return N_("время вышло")
        case "aborted" | "abort":
            return N_("партия прервана")
        case "cancelled":
            return N_("приглашение отменено")
        case "player_abort":
            return N_("отменена до первых ходов")
        case "no_first_move":
            return N_("не было первого хода")
        case "unplayed":
            return N_("закончилась до первых ходов — не в счёт")
        case "abandoned":
            return N_("соперник покинул партию")
        case "tournament_cancelled":
            return N_("турнир отменён")
        case other:
            assert_never(other)


PLATFORM_REASONS: dict[PlatformReason, str] = {
    code: _platform_msgid(code) for code in get_args(PlatformReason)
}
"""End reasons the platform sets, whatever the game (resignation, the clock, aborts, abandonment:
:data:`~duelclub.games.contract.PlatformReason`, every one of them): msgids."""


def platform_reason(code: str) -> str | None:
    """The platform's end reason ``code`` in words, or None when the code is a game's own."""
    msgid = PLATFORM_REASONS.get(code)  # type: ignore[call-overload]  # any code may come: a game's too
    return _(msgid) if msgid is not None else None


@dataclass(frozen=True, slots=True)
class RulesPage:
    """How a game's rules page (``/games/<slug>/rules``, ``templates/rules/<slug>.html``) is cut, and
    which part of it the match page's «Правила» panel opens (static/js/rulespanel.js).

    - ``parts``: the ids of the page's sections in page order (each a ``<section id=…>`` of the template);
    - ``panel_by_phase``: the view's ``phase`` → the part the panel opens in that phase;
    - ``panel_default``: the part it opens in any other phase (``goal`` before the first view).

    >>> RulesPage(("goal", "turn", "units"), panel_by_phase={"draft": "units"}).panel()
    {'default': 'turn', 'by_phase': {'draft': 'units'}}
    """

    parts: tuple[str, ...]
    panel_by_phase: Mapping[str, str] = field(default_factory=dict)
    panel_default: str = "turn"

    def panel(self) -> JSON:
        """The panel's hook as ``GET /api/games`` serves it: ``{"default", "by_phase": {phase: part}}``."""
        return {"default": self.panel_default, "by_phase": dict(self.panel_by_phase)}


class GameWords(ABC, Generic[EventT]):
    """One game's words. Subclasses set the class attributes and implement the abstract methods.

    ``EventT`` is the game's ``Event`` union: :meth:`event_lines` words each kind through a ``match`` that
    ends in ``assert_never``, so a kind the module forgets is a mypy error; ``reasons`` is built the same way
    from the game's ``Reason`` ``Literal`` (:func:`reason_table`).

    - ``slug``: the game's slug (``games.registry``).
    - ``title``: the game's name as a msgid («Дві вежі»).
    - ``tagline``: one line under the title in the lobby; ``summary``: two or three sentences for a
      newcomer (msgids).
    - ``reasons``: each outcome reason code the game's rules emit (its ``Reason`` ``Literal``) → a msgid,
      built by :func:`reason_table` from a total function of the ``Literal``.
    - ``rules``: the rules page's sections and the «Правила» panel's phase hook (:class:`RulesPage`); None
      for a game without a rules page.
    - ``level_hints``: bot level → a hint (msgid) for the lobby's level button where the shared one of
      ``bots/levels.py`` ``LEVEL_WORDS`` is not true of this game's bot (Дві вежі's «Средний» does not
      think ahead: issue 27 spaced its levels by random moves).
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    tagline: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    reasons: ClassVar[dict[str, str]] = {}
    rules: ClassVar[RulesPage | None] = None
    level_hints: ClassVar[dict[str, str]] = {}

    def game_title(self) -> str:
        """The title in the current language."""
        return _(self.title)

    def tagline_text(self) -> str:
        """The lobby's line under the title in the current language ("" when the game has none)."""
        return _(self.tagline) if self.tagline else ""

    def summary_text(self) -> str:
        """The newcomer's summary in the current language ("" when the game has none)."""
        return _(self.summary) if self.summary else ""

    def level_hint(self, level: str, shared: str) -> str:
        """The lobby's hint under bot level ``level`` in the current language: the game's own
        (``level_hints``), else ``shared`` (a msgid of ``LEVEL_WORDS``; "" for none)."""
        msgid = self.level_hints.get(level, shared)
        return _(msgid) if msgid else ""

    def reason(self, code: str) -> str:
        """An end reason (the game's or the platform's) in words; the code itself if nobody knows it."""
        msgid = self.reasons.get(code)
        if msgid is not None:
            return _(msgid)
        return platform_reason(code) or code

    def reason_texts(self) -> dict[str, str]:
        """Every reason this game's matches can end with (its own and the platform's) → words."""
        codes = [*self.reasons, *PLATFORM_REASONS]
        return {code: self.reason(code) for code in codes}

    def catalog(self) -> JSON:
        """Static data the UI needs to draw this game (card names and texts, battlefields, …), worded."""
        return {}

    def options_form(self, first_seat: bool = False) -> list[JSON]:
        """The lobby's form for the game's options, field by field, labelled for people.

        Each field is ``{"name", "label", "choices": [{"value", "label", "hint"?}], "default"}``: the
        lobby draws one group of radio buttons per field and sends ``{name: value, …}`` as the options, so
        every value must be valid for ``Game.parse_options``. An empty list means the game has no options.

        ``first_seat``: label a field that sets one seat's side (a house, a deck, a side) for the first seat,
        «Дом первого игрока», not for the reader, «Ваш дом» — a tournament's options set the first seat of
        every board, whoever created it (issue 26 §Create).
        """
        return []

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        """The options in words for ``seat`` (None: a third party), e.g. «Ваш дом: Дом Горна»; shown in match
        lists, on the invite and challenge tables and to admins. Empty when there is nothing to say."""
        return ""

    @abstractmethod
    def event_lines(
        self, events: Sequence[EventT], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        """One entry per event (as ``Game.event_view`` gave it to ``seat``, in order, one action's batch or
        several): ``{"text": str, "cls"?: str}`` for the match log, or None when the event has no line of
        its own. ``cls`` names a style the page script knows («own», «opp», «score», …). ``names`` are the
        seats' usernames (None for a bot or an empty seat), for a spectator's log («alice берёт 3 карты»)."""

    def describe(self, events: Sequence[EventT], seat: Seat | None, names: Names = NO_NAMES) -> list[JSON]:
        """``events`` with each one's log line added under ``"line"`` where it has one (copies)."""
        lines = self.event_lines(events, seat, names)
        return [
            dict(ev) if line is None else {**ev, "line": line} for ev, line in zip(events, lines, strict=True)
        ]


def event_kinds(event_type: Any) -> frozenset[str]:
    """Every ``kind`` of a game's ``Event`` (an ``Annotated`` union of ``TypedDict``s, or one of them): the
    words modules answer None for any other kind at run time, where their ``match`` is exhaustive."""
    if get_origin(event_type) is Annotated:
        event_type = get_args(event_type)[0]
    members = get_args(event_type) or (event_type,)
    return frozenset(kind for td in members for kind in get_args(get_type_hints(td)["kind"]))


def reason_table(codes: tuple[CodeT, ...], msgid: Callable[[CodeT], str]) -> dict[str, str]:
    """``{code: msgid(code)}`` for every code of a game's ``Reason`` ``Literal`` (``codes``: its
    ``typing.get_args``); ``msgid`` is the words module's total function of that ``Literal`` (a ``match``
    ending in ``assert_never``, so a reason it forgets is a mypy error)."""
    return {code: msgid(code) for code in codes}
