"""The ladder of bot levels every game offers (issue 17): ids, lobby words, old ids, shared pieces.

Levels, weakest first: ``novice`` «Новичок», ``light`` «Лёгкий», ``medium`` «Средний», ``strong`` «Сильный»,
``master`` «Мастер». The ids ``easy`` and ``hard`` of the two levels every game had before are aliases of
``light`` and ``strong`` (the same bots, the same strength): stored matches and API clients may keep
sending them. A game's levels are *data*: ``LEVEL_PARAMS`` in ``duelclub.bots.<slug>`` (search kind,
think budget, iteration/sample caps, blunder rate) turned into bots by that module's ``build``.
"""

from __future__ import annotations

import random
from typing import Any

from duelclub.bots.base import AnyGame, Bot, legal_or_raise
from duelclub.games.contract import Seat
from duelclub.i18n import N_, gettext

LEVEL_IDS: tuple[str, ...] = ("novice", "light", "medium", "strong", "master")
"""The lobby's levels, weakest first (every game offers all of them)."""

DEFAULT_LEVEL = "light"
"""The level of a bot match that names none (and the lobby's preselected one)."""

ALIASES: dict[str, str] = {"easy": "light", "hard": "strong"}
"""Old level id → its level now (the same bot)."""

LEVEL_WORDS: dict[str, tuple[str, str]] = {
    "novice": (N_("Новичок"), N_("часто ошибается")),
    "light": (N_("Лёгкий"), N_("для знакомства с игрой")),
    "medium": (N_("Средний"), N_("немного думает наперёд")),
    "strong": (N_("Сильный"), N_("думает над каждым ходом")),
    "master": (N_("Мастер"), N_("думает дольше всех")),
}
"""Level → (name, hint) for the lobby's buttons."""


def bot_name(level: str | None) -> str:
    """A bot's name as the pages write it (static/js/names.js ``seatName``), in the current language:
    «Бот (новичок)» for ``novice`` (an old level id reads as its level now), «Бот» for an unknown one."""
    words = LEVEL_WORDS.get(ALIASES.get(level or "", level or ""))
    if words is None:
        return gettext("Бот")
    return gettext("Бот (%(level)s)", level=gettext(words[0]).lower())


EFFORT_KEYS: tuple[str, ...] = ("iterations", "samples", "rounds")
"""Level parameters that count search work (scaled by :func:`scaled`)."""

Params = dict[str, Any]


def canonical(level: str) -> str:
    """The level id ``level`` stands for: an alias's level, else ``level`` itself.

    >>> canonical("hard"), canonical("master")
    ('strong', 'master')
    """
    return ALIASES.get(level, level)


def middle_level() -> str:
    """The middle of the ladder (``medium``): the level for a member without a rating."""
    return LEVEL_IDS[len(LEVEL_IDS) // 2]


def scaled(params: Params, effort: float) -> Params:
    """``params`` with every search-work count (:data:`EFFORT_KEYS`) times ``effort`` (at least 1).

    >>> scaled({"kind": "search", "iterations": 400, "think": 0.5}, 0.01)
    {'kind': 'search', 'iterations': 4, 'think': 0.5}
    """
    return {k: max(1, round(v * effort)) if k in EFFORT_KEYS else v for k, v in params.items()}


def think_budget(params: Params, think_seconds: float | None, timed: bool) -> float | None:
    """Wall-clock seconds per decision: ``think_seconds`` if given, else the level's ``think``; None (no
    clock, only the work caps: deterministic for a given rng) when ``timed`` is False."""
    if not timed:
        return None
    return float(params["think"]) if think_seconds is None else think_seconds


class BlunderBot:
    """Plays ``inner``'s choice, except that with probability ``rate`` it plays a uniformly random legal
    action instead (the «Новичок» level: the heuristic with frequent mistakes).

    The coin and the random action come from the ``rng`` the bot is given, so a fixed rng fixes the choice.
    """

    def __init__(self, level: str, inner: Bot, rate: float) -> None:
        self.level = level
        self.inner = inner
        self.rate = rate

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """A legal action; ValueError if ``seat`` is not to move."""
        legal = legal_or_raise(game, state, seat)
        if rng.random() < self.rate:
            return rng.choice(legal)
        return self.inner.choose(game, state, seat, rng)
