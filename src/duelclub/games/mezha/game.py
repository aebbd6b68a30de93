"""``MezhaGame``: the :class:`~duelclub.games.contract.Game` implementation for Межа (rules/mezha.md), as
declarations: every rule is a module function (``rules``, ``view``, ``determinize``, ``position``). Its words
(title, lobby and option texts, reasons, the catalog, event lines) live in ``duelclub.words.mezha``.

>>> from duelclub.games.mezha import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"house": "gorn"}))
>>> sorted(GAME.to_move(state)) in ([0], [1])
True
"""

from __future__ import annotations

import typing
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.contract import ClockMode, Game
from duelclub.games.mezha import determinize as _determinize
from duelclub.games.mezha import position as _position
from duelclub.games.mezha import rules
from duelclub.games.mezha import view as _view
from duelclub.games.mezha.actions import ACTION_ADAPTER, MezhaAction, MezhaOptions
from duelclub.games.mezha.events import Reason
from duelclub.games.mezha.state import State


class MezhaGame(Game[State, MezhaAction, MezhaOptions]):
    """Межа: a three-field, three-season card duel of two houses (Ольха, Горн). Never rated."""

    slug: ClassVar[str] = "mezha"
    options_model: ClassVar[type[BaseModel]] = MezhaOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    bot_levels: ClassVar[tuple[str, ...]] = ("novice", "light", "medium", "strong", "master")
    reason_codes: ClassVar[tuple[str, ...]] = typing.get_args(Reason)
    clock_mode: ClassVar[ClockMode] = "none"  # rules/mezha.md D19: turn time is unlimited
    rated: ClassVar[bool] = False  # the club's page: «Рейтинг Межа пока не меняет»

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
