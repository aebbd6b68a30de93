"""``WarchestGame``: the :class:`~duelclub.games.contract.Game` for Сундук войны (rules/warchest.md), as
declarations: each rule is a module function (``rules.py``, ``view.py``, …). Its words live in
``duelclub.words.warchest``.

>>> from duelclub.games.warchest import GAME
>>> s = GAME.new_match(bytes(32), GAME.parse_options({"expansions": "both"}))
>>> GAME.legal_actions(s, next(iter(GAME.to_move(s))))[0].kind
'pick'
"""

from __future__ import annotations

import typing
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.contract import ClockMode, Game
from duelclub.games.warchest import determinize as _determinize
from duelclub.games.warchest import position as _position
from duelclub.games.warchest import rules
from duelclub.games.warchest import view as _view
from duelclub.games.warchest.actions import ACTION_ADAPTER, Action, WarchestAction, WarchestOptions
from duelclub.games.warchest.events import EVENT_ADAPTER, Event
from duelclub.games.warchest.state import State


class WarchestGame(Game[State, WarchestAction, WarchestOptions]):
    """Сундук войны: bag-building hex duel with the Nobility and Nightfall expansions."""

    slug: ClassVar[str] = "warchest"
    options_model: ClassVar[type[BaseModel]] = WarchestOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    event_adapter: ClassVar[TypeAdapter[list[Event]]] = EVENT_ADAPTER
    reason_codes: ClassVar[tuple[str, ...]] = typing.get_args(rules.Reason)
    bot_levels: ClassVar[tuple[str, ...]] = ("novice", "light", "medium", "strong", "master")
    clock_mode: ClassVar[ClockMode] = "optional"

    new_match = staticmethod(rules.new_match)
    to_move = staticmethod(rules.to_move)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)  # type: ignore[assignment]  # list[Event]: contract says list[JSON]
    action_to_json = staticmethod(rules.action_to_json)
    timeout_action = staticmethod(rules.timeout_action)
    view = staticmethod(_view.view)
    full_view = staticmethod(_view.full_view)
    event_view = staticmethod(_view.event_view)
    determinize = staticmethod(_determinize.determinize)
    to_position = staticmethod(_position.to_position)
    from_position = staticmethod(_position.from_position)


__all__ = ["Action", "WarchestGame"]
