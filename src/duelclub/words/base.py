"""The shape every game's words module has (issue 15 §2): :class:`GameWords`.

Every method answers in the *current* language (:func:`duelclub.i18n.current_lang`, set per request and per
socket), so a module holds Russian msgids marked with ``N_`` and translates where it speaks. Nothing here
reads or changes a state: the inputs are the data the rules emit (options, outcome codes, event dicts as
``Game.event_view`` gives them to one seat).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from pydantic import BaseModel

from duelclub.games.contract import JSON, PlatformReason, Seat
from duelclub.i18n import N_
from duelclub.i18n import gettext as _

Names = tuple[str | None, str | None]
"""The seats' usernames (None: a bot or nobody)."""
NO_NAMES: Names = (None, None)

PLATFORM_REASONS: dict[PlatformReason, str] = {
    "resign": N_("сдача"),
    "timeout": N_("время вышло"),
    "aborted": N_("партия прервана"),
    "abort": N_("партия прервана"),
    "cancelled": N_("приглашение отменено"),
    "player_abort": N_("отменена до первых ходов"),
    "no_first_move": N_("не было первого хода"),
    "unplayed": N_("закончилась до первых ходов — не в счёт"),
    "abandoned": N_("соперник покинул партию"),
    "tournament_cancelled": N_("турнир отменён"),
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


class GameWords(ABC):
    """One game's words. Subclasses set the class attributes and implement the abstract methods.

    - ``slug``: the game's slug (``games.registry``).
    - ``title``: the game's name as a msgid («Дві вежі»).
    - ``tagline``: one line under the title in the lobby; ``summary``: two or three sentences for a
      newcomer (msgids).
    - ``reasons``: each outcome reason code the game's rules emit (its ``Reason`` ``Literal``) → a msgid.
      A test checks it covers the ``Literal`` exactly.
    - ``rules``: the rules page's sections and the «Правила» panel's phase hook (:class:`RulesPage`); None
      for a game without a rules page.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    tagline: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    reasons: ClassVar[dict[str, str]] = {}
    rules: ClassVar[RulesPage | None] = None

    def game_title(self) -> str:
        """The title in the current language."""
        return _(self.title)

    def tagline_text(self) -> str:
        """The lobby's line under the title in the current language ("" when the game has none)."""
        return _(self.tagline) if self.tagline else ""

    def summary_text(self) -> str:
        """The newcomer's summary in the current language ("" when the game has none)."""
        return _(self.summary) if self.summary else ""

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

    def options_form(self) -> list[JSON]:
        """The lobby's form for the game's options, field by field, labelled for people.

        Each field is ``{"name", "label", "choices": [{"value", "label", "hint"?}], "default"}``: the
        lobby draws one group of radio buttons per field and sends ``{name: value, …}`` as the options, so
        every value must be valid for ``Game.parse_options``. An empty list means the game has no options.
        """
        return []

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        """The options in words for ``seat`` (None: a third party), e.g. «Ваш дом: Дом Горна»; shown in match
        lists, on the invite and challenge tables and to admins. Empty when there is nothing to say."""
        return ""

    @abstractmethod
    def event_lines(
        self, events: list[JSON], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        """One entry per event (as ``Game.event_view`` gave it to ``seat``, in order, one action's batch or
        several): ``{"text": str, "cls"?: str}`` for the match log, or None when the event has no line of
        its own. ``cls`` names a style the page script knows («own», «opp», «score», …). ``names`` are the
        seats' usernames (None for a bot or an empty seat), for a spectator's log («alice берёт 3 карты»)."""

    def describe(self, events: list[JSON], seat: Seat | None, names: Names = NO_NAMES) -> list[JSON]:
        """``events`` with each one's log line added under ``"line"`` where it has one (copies)."""
        lines = self.event_lines(events, seat, names)
        return [ev if line is None else {**ev, "line": line} for ev, line in zip(events, lines, strict=True)]
