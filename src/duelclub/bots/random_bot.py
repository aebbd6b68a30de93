"""A uniformly random player: the baseline every other bot must beat."""

from __future__ import annotations

import random
from typing import Any

from duelclub.bots.base import AnyGame, legal_or_raise
from duelclub.games.contract import Seat


class RandomBot:
    """Picks uniformly among ``legal_actions`` (resignation is never among them)."""

    def __init__(self, level: str = "random") -> None:
        self.level = level

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """A uniformly random legal action; ValueError if ``seat`` is not to move."""
        return rng.choice(legal_or_raise(game, state, seat))
