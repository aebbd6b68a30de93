"""The bot interface (DESIGN.md §Layers: bots only use the game contract).

A bot is any object with a ``level`` string and a ``choose`` method::

    bot = make_bot("mezha", "easy")
    action = bot.choose(game, state, seat, random.Random(7))
    game.apply(state, seat, action)

Bots draw their randomness from the ``rng`` they are given, never from the match stream, and must not
mutate ``state``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from duelclub.games.contract import AnyGame as AnyGame  # re-exported: bots/ holds games as this
from duelclub.games.contract import Seat


@runtime_checkable
class Bot(Protocol):
    """Chooses one legal action for a seat that is to move.

    ``level`` is the bot level shown in the lobby (``"random"``, ``"easy"``, ``"hard"``, …).
    """

    level: str

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """One element of ``game.legal_actions(state, seat)``; ``state`` is left unchanged.

        Raises ValueError if ``seat`` is not among ``game.to_move(state)`` (nothing to choose).
        """
        ...


def legal_or_raise(game: AnyGame, state: Any, seat: Seat) -> list[Any]:
    """``game.legal_actions(state, seat)``, or ValueError if ``seat`` may not act now or has no action."""
    if seat not in game.to_move(state):
        raise ValueError(f"seat {seat} is not to move")
    actions = game.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    return actions


LevelFactory = Callable[[float | None], Bot]
"""One bot level of one game: ``think_seconds -> Bot`` (None: the level's own default budget).

Each game lists its levels as ``LEVELS: dict[str, LevelFactory]`` in ``duelclub.bots.<slug>``."""

GameLookup = Callable[[str], AnyGame]
"""``game slug -> game``; KeyError for an unknown slug."""


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """One game's budget for the post-game analysis (``bots/analysis.py``), declared as ``ANALYSIS`` in the
    module ``duelclub.bots.<slug>.analysis`` (read by ``bots.registry.analysis_settings``).

    - ``iterations``: search iterations per decision at ``ANALYSIS_EFFORT`` 1;
    - ``playout_cut``: actions after which a playout stops (None: played to the end, up to
      ``analysis.MAX_PLAYOUT_STEPS``);
    - ``cut_value``: ``(game, state, seat) -> seat's win chance in [0, 1]`` of a playout stopped at the cut
      (None: 0.5);
    - ``rollout``: the playout policy ``(game, state, seat, legal actions, rng) -> action`` of both seats
      (None: the game's ``light`` level, ``analysis.heuristic_rollout``).
    """

    iterations: int
    playout_cut: int | None = None
    cut_value: Callable[[AnyGame, Any, Seat], float] | None = None
    rollout: Callable[[AnyGame, Any, Seat, list[Any], random.Random], Any] | None = None
