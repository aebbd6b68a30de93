"""``ArtaniaGame``: the :class:`~duelclub.games.contract.Game` of Артания и Куявия (rules/artania.md), wired
from its modules (``rules``, ``view``, ``determinize``, ``position``: :mod:`duelclub.games.modular`). Its
words live in ``duelclub.words.artania``.

>>> from duelclub.games.artania import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"deck": "kuyavia"}))
>>> sorted(GAME.to_move(state)) in ([0], [1])
True
"""

from __future__ import annotations

import typing

from duelclub.games.artania import determinize, position, rules, view
from duelclub.games.artania.actions import ACTION_ADAPTER, ArtaniaAction, ArtaniaOptions
from duelclub.games.artania.events import Event, Reason
from duelclub.games.artania.position_model import ArtaniaPosition
from duelclub.games.artania.state import State
from duelclub.games.modular import ModularGame


class ArtaniaGame(
    ModularGame[State, ArtaniaAction, ArtaniaOptions, Event, Reason],
    rules=rules,
    view=view,
    determinize=determinize,
    position=position,
):
    """Артания и Куявия: two decks of warriors meet in three facing slots per turn; five tokens win.

    ``timeout_action`` (D34): ``pass`` in an equipment window; in a placement step the first warriors of the
    hand in canonical order (D32), one per slot of the step in slot order — always an ordinary legal action.
    """

    slug = "artania"
    lobby_order = 40
    options_model = ArtaniaOptions
    action_adapter = ACTION_ADAPTER
    position_model = ArtaniaPosition
    reason_codes = typing.get_args(Reason)
    bot_levels = ("novice", "light", "medium", "strong", "master")
    clock_mode = "optional"  # D34: the seed has no clock; the opener may set one
