"""Межа's words (issue 15 §2): lobby and option texts, end reasons, the UI catalog, and the match log's line
for every event (``games/mezha/events.py``), in the current language.

Card and omen names are proper names, the same in both languages; field names, houses and every sentence are
Russian msgids. The log reads from the reader's side: «Вы»/«соперник» for a seat, «игрок N» for a spectator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, assert_never, get_args

from pydantic import BaseModel

from duelclub.games.contract import JSON, Seat
from duelclub.games.mezha.actions import MezhaOptions
from duelclub.games.mezha.cards import HOUSE_NAMES, catalog
from duelclub.games.mezha.events import Event, Reason
from duelclub.i18n import N_
from duelclub.i18n import gettext as _
from duelclub.words.base import NO_NAMES, GameWords, Names, RulesPage, reason_table
from duelclub.words.mezha_log import MezhaLog

_HOUSES: dict[str, str] = {h: N_(name) for h, name in HOUSE_NAMES.items()}
"""House id → its name, a msgid (§Houses and decks)."""
_FIELDS = (N_("Луг"), N_("Брод"), N_("Холм"))


def _reason_msgid(code: Reason) -> str:
    """The msgid of each end reason of the rules (``Reason``); a missing one is a mypy error."""
    match code:
        case "two_seasons":
            return N_("два выигранных сезона")
        case "more_seasons":
            return N_("больше выигранных сезонов после трёх")
        case "draw":
            return N_("выигранных сезонов поровну")
        case "resign":
            return N_("сдача")
        case other:
            assert_never(other)


class MezhaWords(GameWords[Event]):
    """Межа's words."""

    slug: ClassVar[str] = "mezha"
    title: ClassVar[str] = N_("Межа")
    tagline: ClassVar[str] = N_("карточная дуэль · до трёх сезонов · рейтинг не меняется")
    summary: ClassVar[str] = N_(
        "Два дома делят три поля — Луг, Брод и Холм. Сезон берёт тот, кто возьмёт больше полей; "
        "матч — тот, кто первым выиграет два сезона."
    )
    reasons: ClassVar[dict[str, str]] = reason_table(get_args(Reason), _reason_msgid)
    rules: ClassVar[RulesPage] = RulesPage(
        ("goal", "setup", "turn", "scoring", "omens", "abilities", "cards", "end", "online"),
        panel_by_phase={"pause": "scoring"},  # a season just scored
    )
    """The rules page's sections; the «Правила» panel's part by phase."""

    def catalog(self) -> JSON:
        """Houses (names in the current language), cards (table order), omens, fields, the hand limit."""
        out = catalog()
        out["houses"] = [{"id": h, "name": _(name)} for h, name in _HOUSES.items()]
        out["fields"] = [_(f) for f in _FIELDS]
        return out

    def options_form(self, first_seat: bool = False) -> list[JSON]:
        """One field, the opener's house (§Houses and decks); the other seat gets the other house."""
        hints = {"olkha": _("прячется, растёт, остаётся"), "gorn": _("бьёт, держит строй, зовёт подмогу")}
        choices = [{"value": h, "label": _(name), "hint": hints[h]} for h, name in _HOUSES.items()]
        label = _("Дом первого игрока") if first_seat else _("Ваш дом")
        return [{"name": "house", "label": label, "choices": choices, "default": "olkha"}]

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        """«Ваш дом: Дом Горна» for a seat, «Дом Ольхи у игрока 1» for a third party."""
        assert isinstance(options, MezhaOptions)
        house0 = options.house
        if seat is None:
            return _("%(house)s у игрока 1", house=_(_HOUSES[house0]))
        mine = house0 if seat == 0 else ("gorn" if house0 == "olkha" else "olkha")
        return _("Ваш дом: %(house)s", house=_(_HOUSES[mine]))

    def event_lines(
        self, events: Sequence[Event], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        """One log line per event from ``seat``'s side; a tactic looks at the event after it (same ``seq``)
        to say «без эффекта» when it changed nothing."""
        log = MezhaLog(seat)
        return [log.line(ev, i, events) for i, ev in enumerate(events)]


WORDS = MezhaWords()
