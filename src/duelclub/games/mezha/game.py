"""``MezhaGame``: the :class:`~duelclub.games.contract.Game` of Межа (rules/mezha.md), wired from its modules
(``rules``, ``view``, ``determinize``, ``position``: :mod:`duelclub.games.modular`). Its words (title, lobby
and option texts, reasons, the catalog, event lines) live in ``duelclub.words.mezha``.

>>> from duelclub.games.mezha import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"house": "gorn"}))
>>> sorted(GAME.to_move(state)) in ([0], [1])
True
"""

from __future__ import annotations

import typing

from duelclub.games.mezha import determinize, position, rules, view
from duelclub.games.mezha.actions import ACTION_ADAPTER, MezhaAction, MezhaOptions
from duelclub.games.mezha.events import Event, Reason
from duelclub.games.mezha.position_model import MezhaPosition
from duelclub.games.mezha.state import State
from duelclub.games.modular import ModularGame


class MezhaGame(
    ModularGame[State, MezhaAction, MezhaOptions, Event, Reason],
    rules=rules,
    view=view,
    determinize=determinize,
    position=position,
):
    """Межа: a three-field, three-season card duel of two houses (Ольха, Горн). Never rated."""

    slug = "mezha"
    lobby_order = 10
    options_model = MezhaOptions
    action_adapter = ACTION_ADAPTER
    position_model = MezhaPosition
    bot_levels = ("novice", "light", "medium", "strong", "master")
    reason_codes = typing.get_args(Reason)
    # rules/mezha.md D19: turn time is unlimited by default; issue 28 §4: a correspondence clock (1-7 days
    # per move) may be chosen
    clock_mode = "correspondence"
    rated = False  # the club's page: «Рейтинг Межа пока не меняет»
