"""Артания и Куявия's bot levels (rules/artania.md).

- ``easy`` — the heuristic of ``games/artania/bot.py``;
- ``hard`` — SO-ISMCTS (``bots/ismcts.py``) over ``determinize``, searching to the end of the current turn:
  a simulation ends when the turn is scored; its reward is ``(1 - KEEP_WEIGHT)`` × the turn's token (1 taken,
  0.5 nobody, 0 lost) + ``KEEP_WEIGHT`` × a logistic of the swords kept in hand over the opponent's (so a lost
  turn is lost cheaply); the match's own result when the turn ends it. Playouts and a progressive-bias prior
  use the *economical* policy of ``games/artania/bot.py`` (cheapest placement that keeps a safe lead, weakest
  warriors into a lost turn); placement steps are searched over the heuristic's best ``PLACE_WIDTH`` options.
"""

from __future__ import annotations

import math
import random
from typing import Any

from duelclub.bots.base import AnyGame, Bot, LevelFactory
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.random_bot import RandomBot
from duelclub.games.artania.actions import place_action
from duelclub.games.artania.cards import SWORDS, WARRIOR_MASK, mask_indexes
from duelclub.games.artania.game import ArtaniaGame
from duelclub.games.contract import JSON, Outcome, Seat

HARD_THINK_SECONDS = 0.8
"""Default wall-clock budget of a ``hard`` decision, in seconds (the target is <= 1.5 s on one core)."""

HARD_MAX_ITERATIONS = 200
"""Iteration cap of a ``hard`` decision (determinizations searched)."""


def _easy(think_seconds: float | None) -> Bot:
    from duelclub.games.artania.bot import EasyBot

    return EasyBot("easy")


class TurnHorizon(ArtaniaGame):
    """The game as ``hard`` searches it: over once turn ``turn`` is scored, won by that turn's token."""

    def __init__(self, turn: int) -> None:
        self.turn = turn
        self.kept = 0.0

    def apply(self, state: Any, seat: Seat, action: Any) -> list[JSON]:
        """Apply; while the turn goes on, remember seat 0's kept-hand lead (before the next draw step)."""
        events = super().apply(state, seat, action)
        if state.turn == self.turn:
            self.kept = _hand_worth(state, 0) - _hand_worth(state, 1)
        return events

    def legal_actions(self, state: Any, seat: Seat) -> list[Any]:
        """The full list in a window; in a placement step the heuristic's best PLACE_WIDTH placements."""
        if seat != state.to_act() or state.step % 2 == 0:
            return super().legal_actions(state, seat)
        from duelclub.games.artania.bot import ranked_placements

        return [place_action(cards) for _, cards in ranked_placements(state, seat)[:PLACE_WIDTH]]

    def outcome(self, state: Any) -> Outcome | None:
        if state.turn == self.turn and state.outcome is None:
            return None
        for record in reversed(state.results):
            if record["turn"] == self.turn:
                return Outcome(record["winner"], "turn")
        result: Outcome | None = state.outcome
        return result  # a resignation inside the search (never generated: resign is not legal)


BIAS_WEIGHT = 10.0
"""Progressive bias towards the economical policy's choice (games/artania/bot.py ``economical_prior``)."""

PLACE_WIDTH = 6
"""Placements the search considers per step (the heuristic's best ones): fewer, deeper-searched branches."""

KEEP_WEIGHT = 0.3
"""Share of a simulation's reward that values the cards kept in hand, against the turn's token."""

EQUIPMENT_SWORDS = 2.5
"""What an equipment card in hand is worth, in swords, to the kept-cards term."""


def _hand_worth(state: Any, seat: Seat) -> float:
    hand = state.hands[seat]
    warriors = hand & WARRIOR_MASK
    worth = float(sum(SWORDS[c] for c in mask_indexes(warriors)))
    return worth + EQUIPMENT_SWORDS * int(hand & ~WARRIOR_MASK).bit_count()


class _TurnSearch(IsmctsBot):
    """SO-ISMCTS whose simulation reward is the turn's token plus the kept cards (see KEEP_WEIGHT)."""

    def _playout(self, game: AnyGame, det: Any, rng: random.Random) -> dict[Seat, float]:
        token = super()._playout(game, det, rng)[0]
        if det.outcome is not None:  # the match itself ended: only its result counts
            return {0: token, 1: 1.0 - token}
        kept = game.kept if isinstance(game, TurnHorizon) else 0.0
        keep = 1.0 / (1.0 + math.exp(-kept / 4.0))
        r0 = (1.0 - KEEP_WEIGHT) * token + KEEP_WEIGHT * keep
        return {0: r0, 1: 1.0 - r0}


class TurnSearchBot:
    """``hard``: SO-ISMCTS run on :class:`TurnHorizon` for the current turn."""

    def __init__(self, level: str, config: SearchConfig) -> None:
        from duelclub.games.artania.bot import economical_action, economical_prior

        self.level = level
        self.search = _TurnSearch(level, config, rollout=economical_action, prior=economical_prior)

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The searched action; ValueError if ``seat`` is not to move."""
        horizon = TurnHorizon(state.turn)
        horizon.kept = _hand_worth(state, seat) - _hand_worth(state, 1 - seat)  # never read: each
        return self.search.choose(horizon, state, seat, rng)  # simulation applies actions first


def _hard(think_seconds: float | None) -> Bot:
    budget = HARD_THINK_SECONDS if think_seconds is None else think_seconds
    config = SearchConfig(time_budget=budget, max_iterations=HARD_MAX_ITERATIONS, bias_weight=BIAS_WEIGHT)
    return TurnSearchBot("hard", config)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {"random": _random, "easy": _easy, "hard": _hard}
"""Level → factory; the lobby offers the game's ``bot_levels`` (easy, hard)."""
