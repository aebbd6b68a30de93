"""``TowersGame``: the :class:`~duelclub.games.contract.Game` of Дві вежі (rules/towers.md), wired from its
modules (``rules`` — with ``clock_only`` —, ``view``, ``determinize``, ``position``:
:mod:`duelclub.games.modular`). Its words (title, lobby and option texts, card texts, reasons, event lines)
live in ``duelclub.words.towers``.

>>> from duelclub.games.towers import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"battlefield": "wind_square"}))
>>> GAME.view(state, 0)["players"][0]["tower"], len(GAME.view(state, 0)["hand"])
(20, 6)
"""

from __future__ import annotations

import typing

from duelclub.games.modular import ModularGame
from duelclub.games.towers import determinize, position, rules, view
from duelclub.games.towers.actions import ACTION_ADAPTER, TowersAction, TowersOptions
from duelclub.games.towers.events import Event, Reason
from duelclub.games.towers.position_model import TowersPosition
from duelclub.games.towers.state import State


class TowersGame(
    ModularGame[State, TowersAction, TowersOptions, Event, Reason],
    rules=rules,
    view=view,
    determinize=determinize,
    position=position,
):
    """Дві вежі: build your tower or destroy the other one; 102 cards, 8 battlefields, two deck types."""

    slug = "towers"
    lobby_order = 20
    options_model = TowersOptions
    action_adapter = ACTION_ADAPTER
    position_model = TowersPosition
    bot_levels = ("novice", "light", "medium", "strong", "master")
    reason_codes = typing.get_args(Reason)
    clock_mode = "required"  # §9, D39: every game between members is a duel


__all__ = ["TowersGame"]
