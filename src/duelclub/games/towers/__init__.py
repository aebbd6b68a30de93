"""Дві вежі (towers): the club's tower duel — 102 cards, 8 battlefields, two deck types (rules/towers.md).

``GAME`` is the :class:`~duelclub.games.contract.Game` instance the registry serves.
"""

from __future__ import annotations

from duelclub.games.towers.game import TowersGame

GAME = TowersGame()

__all__ = ["GAME", "TowersGame"]
