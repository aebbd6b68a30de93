"""``ArtaniaGame``: the :class:`~duelclub.games.contract.Game` of Артания и Куявия (rules/artania.md), as
declarations: each rule is a module function (``rules.py``, ``view.py``, …). Its words live in
``duelclub.words.artania``.

>>> from duelclub.games.artania import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"deck": "kuyavia"}))
>>> sorted(GAME.to_move(state)) in ([0], [1])
True
"""

from __future__ import annotations

import typing
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.artania import determinize as _determinize
from duelclub.games.artania import position as _position
from duelclub.games.artania import rules
from duelclub.games.artania import view as _view
from duelclub.games.artania.actions import ACTION_ADAPTER, ArtaniaAction, ArtaniaOptions
from duelclub.games.artania.events import EVENT_ADAPTER, Event, Reason
from duelclub.games.artania.state import State
from duelclub.games.contract import ClockMode, Game


class ArtaniaGame(Game[State, ArtaniaAction, ArtaniaOptions]):
    """Артания и Куявия: two decks of warriors meet in three facing slots per turn; five tokens win.

    ``timeout_action`` (D34): ``pass`` in an equipment window; in a placement step the first warriors of the
    hand in canonical order (D32), one per slot of the step in slot order — always an ordinary legal action.
    """

    slug: ClassVar[str] = "artania"
    options_model: ClassVar[type[BaseModel]] = ArtaniaOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    event_adapter: ClassVar[TypeAdapter[list[Event]]] = EVENT_ADAPTER
    reason_codes: ClassVar[tuple[str, ...]] = typing.get_args(Reason)
    bot_levels: ClassVar[tuple[str, ...]] = ("novice", "light", "medium", "strong", "master")
    clock_mode: ClassVar[ClockMode] = "optional"  # D34: the seed has no clock; the opener may set one

    new_match = staticmethod(rules.new_match)
    to_move = staticmethod(rules.to_move)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)  # type: ignore[assignment]  # list[Event]: contract says list[JSON]
    timeout_action = staticmethod(rules.timeout_action)
    view = staticmethod(_view.view)
    full_view = staticmethod(_view.full_view)
    event_view = staticmethod(_view.event_view)
    determinize = staticmethod(_determinize.determinize)
    to_position = staticmethod(_position.to_position)
    from_position = staticmethod(_position.from_position)
