"""Межа's levels on trial (issue 27): parameters that :func:`duelclub.bots.mezha.build` turns into bots but
that no lobby or ``make_bot`` offers, measured by ``benchmarks/level_duel.py mezha NEW OLD [OLD ...]``.

They live outside ``levels.toml`` and the package's code because the ladder's fingerprint
(``benchmarks/bot_ladder.py`` ``UNRATED_MODULES``) hashes the parameters and the bot code that ladder levels
run: a new trial here restarts nothing, a change to one level's table in ``levels.toml`` restarts that
level's pairs, a change to the package's code all of Межа's ladder.

Names: ``ismcts_N`` — SO-ISMCTS with the heuristic rollouts and ``N`` iterations (``medium``'s kind);
``wideN`` — the wide paired rollouts of ``bots/mezha/wide.py`` with ``N`` playouts and at most ``20 N``
rollout actions (``strong``'s and ``master``'s kind); ``lightB`` — the heuristic with ``B`` % random moves
(``light``'s and ``novice``'s kind). ``levels.toml`` says what each level has today.

Duels of 2026-12-07 (100 matches a pair unless said, untimed, the ladder's keys for each pair; score of the
first, Wilson 95 % of the score):

| pair | score |
|---|---|
| wide150 vs medium | 0.533 over 92 |
| wide200 vs medium | 0.600 (0.502–0.691) |
| wide200 vs ismcts_60 | 0.750 (0.657–0.825) |
| wide200 vs ismcts_80 | 0.647 over 75 |
| ismcts_60 vs light15 | 0.746 over 65 |
| wide150 vs ismcts_60 | 0.625 (0.522–0.709) |
| wide100 vs ismcts_60 | 0.685 (0.583–0.763) |
| master vs wide100 | 0.695 over 41 (0.530–0.804) |
| ismcts_60 vs light | 0.520 (0.423–0.615) |
| ismcts_80 vs light | 0.555 (0.462–0.653) |
| ismcts_80 vs light10 | 0.640 (0.542–0.727) |
| ismcts_80 vs light15 | 0.675 (0.583–0.763) |
| light10 vs novice | 0.680 (0.583–0.763) |
| light15 vs light50 | 0.700 (0.604–0.781) |
| light50 vs random | 0.820 (0.733–0.883) |

The complete ladder under these levels (the same day): every step passes but ``strong`` vs ``medium``, 0.610
over 200 (Wilson 0.541–0.675). Duels for a lower ``medium`` (later the same day; ``strong`` = ``wide100``,
``light`` = ``light15``, ``novice`` = ``light50``; score of the first):

| pair | score |
|---|---|
| ismcts_50 vs strong / light / light20 | 0.280 / 0.625 / 0.500 |
| ismcts_45 vs strong / light20 | 0.205 / 0.610 |
| ismcts_40 vs strong / light | 0.270 / 0.585 |
| ismcts_30 vs strong / light | 0.185 / 0.425 |
| light20 vs novice | 0.625 |

Below 60 iterations ISMCTS falls to the heuristic's level fast, and the figures are ±0.1 at 100 matches: the
band between ``light`` and ``master`` (~0.69 + ~0.61–0.69 + ~0.70 in three steps) has little room to spare.
``medium`` went to 55 iterations, between 60 and 50, with 200 ladder matches against each neighbour: light
scored 0.363 against it, strong 0.662 (``levels.toml``). A wider band needs a stronger ``master``.

On the ladder ``master`` scored only 0.604 over 163 against ``wide300`` (the old ``strong``, stop 41) and
0.613 over 120 against ``wide200`` (this sitting's first spacing): the wide search flattens out above ~150
playouts, so ``strong`` went down to ``wide100`` and everything below it one notch (``ismcts_60``,
``light15``, ``light50``). The Межа bots are noisy in this range (wide150 scored lower than wide100 against
``ismcts_60``); the ladder's 300 matches of ``master`` against ``strong`` decide.
"""

from __future__ import annotations

from duelclub.bots.levels import Params
from duelclub.bots.mezha import LEVEL_PARAMS

SAFETY_THINK_SECONDS: float = LEVEL_PARAMS["master"]["think"]
MEDIUM_THINK_SECONDS: float = LEVEL_PARAMS["medium"]["think"]

EXPERIMENTAL_PARAMS: dict[str, Params] = {
    "ismcts_300": {"kind": "search", "think": SAFETY_THINK_SECONDS, "iterations": 300},
    **{f"wide{n}": {"kind": "wide", "think": SAFETY_THINK_SECONDS, "playouts": n, "max_steps": 20 * n}
       for n in (100, 150, 200, 250)},
    **{f"ismcts_{n}": {"kind": "search", "think": MEDIUM_THINK_SECONDS, "iterations": n}
       for n in (30, 40, 45, 50, 60, 70, 80)},
    **{f"light{b}": {"kind": "heuristic", "blunder": b / 100} for b in (5, 10, 15, 20, 25, 45, 50, 55)},
}  # fmt: skip
"""Level on trial → its parameters (the shapes of ``LEVEL_PARAMS``). ``ismcts_300`` is SO-ISMCTS with three
times ``medium``'s iterations (does more ISMCTS work buy strength, next to the wide rollouts?)."""
