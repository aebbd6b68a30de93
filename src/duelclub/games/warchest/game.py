"""``WarchestGame``: the :class:`~duelclub.games.contract.Game` for Сундук войны (rules/warchest.md), wired
from its modules (``rules`` — with ``action_to_json`` —, ``view``, ``determinize``, ``position``:
:mod:`duelclub.games.modular`). Its words live in ``duelclub.words.warchest``.

>>> from duelclub.games.warchest import GAME
>>> s = GAME.new_match(bytes(32), GAME.parse_options({"expansions": "both"}))
>>> GAME.legal_actions(s, next(iter(GAME.to_move(s))))[0].kind
'pick'
"""

from __future__ import annotations

import typing

from duelclub.games.modular import ModularGame
from duelclub.games.warchest import determinize, position, rules, view
from duelclub.games.warchest.actions import ACTION_ADAPTER, Action, WarchestAction, WarchestOptions
from duelclub.games.warchest.events import Event, Reason
from duelclub.games.warchest.position_model import WarchestPosition
from duelclub.games.warchest.state import State


class WarchestGame(
    ModularGame[State, WarchestAction, WarchestOptions, Event, Reason],
    rules=rules,
    view=view,
    determinize=determinize,
    position=position,
):
    """Сундук войны: bag-building hex duel with the Nobility and Nightfall expansions."""

    slug = "warchest"
    lobby_order = 30
    options_model = WarchestOptions
    action_adapter = ACTION_ADAPTER
    position_model = WarchestPosition
    reason_codes = typing.get_args(Reason)
    bot_levels = ("novice", "light", "medium", "strong", "master")
    clock_mode = "optional"


__all__ = ["Action", "WarchestGame"]
