"""``TowersGame``: the :class:`~duelclub.games.contract.Game` of Дві вежі (rules/towers.md), as
declarations: every rule is a module function (``rules``, ``view``, ``determinize``, ``position``). Its words
(title, lobby and option texts, card texts, reasons, event lines) live in ``duelclub.words.towers``.

>>> from duelclub.games.towers import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"battlefield": "wind_square"}))
>>> GAME.view(state, 0)["players"][0]["tower"], len(GAME.view(state, 0)["hand"])
(20, 6)
"""

from __future__ import annotations

import typing
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.contract import ClockMode, Game
from duelclub.games.towers import determinize as _determinize
from duelclub.games.towers import position as _position
from duelclub.games.towers import rules
from duelclub.games.towers import view as _view
from duelclub.games.towers.actions import ACTION_ADAPTER, TowersAction, TowersOptions
from duelclub.games.towers.events import Reason
from duelclub.games.towers.state import State


class TowersGame(Game[State, TowersAction, TowersOptions]):
    """Дві вежі: build your tower or destroy the other one; 102 cards, 8 battlefields, two deck types."""

    slug: ClassVar[str] = "towers"
    options_model: ClassVar[type[BaseModel]] = TowersOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    bot_levels: ClassVar[tuple[str, ...]] = ("novice", "light", "medium", "strong", "master")
    reason_codes: ClassVar[tuple[str, ...]] = typing.get_args(Reason)
    clock_mode: ClassVar[ClockMode] = "required"  # §9, D39: every game between members is a duel

    clock_only = staticmethod(rules.clock_only)
    new_match = staticmethod(rules.new_match)
    to_move = staticmethod(rules.to_move)
    legal_actions = staticmethod(rules.legal_actions)
    # The contract still types events as list[JSON]; a list of TypedDicts is not one (lists are invariant).
    apply = staticmethod(rules.apply)  # type: ignore[assignment]
    view = staticmethod(_view.view)
    full_view = staticmethod(_view.full_view)
    event_view = staticmethod(_view.event_view)
    determinize = staticmethod(_determinize.determinize)
    timeout_action = staticmethod(rules.timeout_action)
    to_position = staticmethod(_position.to_position)
    # position.from_position names its argument ``pos`` (the contract: ``position``); same callable otherwise.
    from_position = staticmethod(_position.from_position)  # type: ignore[assignment]


__all__ = ["TowersGame"]
