"""The 102 cards of Дві вежі, loaded once from ``cards.csv`` (a verbatim copy of rules/towers-cards.csv).

Each row's ``effect_dsl`` is parsed and compiled at import (rules/towers.md §12, D43); a row that does not
parse, or whose id/colour/resource/cost disagree with §3, raises :class:`CardDataError`: the engine does not
start.
Card ids are 1..102 (D34); the per-id tuples below are indexed by id (index 0 is unused).

    >>> CARDS[11].name, CARDS[11].cost, RESOURCE[11]
    ('Фундамент', 3, 0)
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

from duelclub.games.towers.dsl import (
    ORE,
    RESOURCES,
    DslError,
    Effect,
    Resolve,
    Statement,
    compile_effect,
    compile_resolve,
    parse,
)

N_CARDS = 102
HAND_SIZE = 6  # §4 step 5, §5 step 4
COLOURS: tuple[str, str, str] = ("red", "blue", "green")
"""Colour by resource index: red pays ore, blue mana, green troops (§3)."""


class CardDataError(ValueError):
    """The card table is not the one rules/towers.md describes (the engine refuses to start)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One row of the card table. ``resource`` is 0 ore / 1 mana / 2 troops."""

    id: int
    colour: str
    resource: int
    name: str
    cost: int
    text: str
    dsl: str
    english: str
    effect: Effect

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "colour": self.colour,
            "resource": RESOURCES[self.resource],
            "name": self.name,
            "cost": self.cost,
            "text": self.text,
            "play_again": self.effect.play_again,
            "draw_discard": self.effect.draw_discard,
        }


def _row(n: int, row: dict[str, str]) -> Card:
    try:
        cid, cost = int(row["id"]), int(row["cost"])
    except (KeyError, ValueError):
        raise CardDataError(f"row {n}: id and cost must be integers") from None
    if cid != n:
        raise CardDataError(f"row {n}: id {cid} out of order (ids are 1..102 in seed order, D34)")
    colour_index = (cid - 1) // 34  # §3: 1-34 red, 35-68 blue, 69-102 green
    if row["colour"] != COLOURS[colour_index] or row["resource"] != RESOURCES[colour_index]:
        raise CardDataError(f"card {cid}: colour/resource {row['colour']}/{row['resource']} disagree with §3")
    if not 0 <= cost <= 25:
        raise CardDataError(f"card {cid}: cost {cost} outside 0..25 (§3)")
    try:
        effect = parse(row["effect_dsl"])
    except DslError as exc:
        raise CardDataError(f"card {cid}: {exc}") from None
    return Card(
        cid, row["colour"], colour_index, row["name_uk"], cost, row["effect_uk"], row["effect_dsl"],
        row["english_name"], effect,
    )  # fmt: skip


def load_cards(text: str) -> tuple[Card, ...]:
    """Parse the CSV ``text`` into the 102 cards (in id order); raises CardDataError on any data error."""
    rows = list(csv.DictReader(io.StringIO(text)))
    if len(rows) != N_CARDS:
        raise CardDataError(f"the table must have {N_CARDS} cards, not {len(rows)}")
    return tuple(_row(n, row) for n, row in enumerate(rows, start=1))


_TABLE: tuple[Card, ...] = load_cards(
    resources.files("duelclub.games.towers").joinpath("cards.csv").read_text(encoding="utf-8")
)

CARDS: dict[int, Card] = {c.id: c for c in _TABLE}
"""Card id → card."""
IDS: tuple[int, ...] = tuple(range(1, N_CARDS + 1))

# Hot-path tuples indexed by card id (index 0 unused).
COST: tuple[int, ...] = (0, *(c.cost for c in _TABLE))
RESOURCE: tuple[int, ...] = (0, *(c.resource for c in _TABLE))
STOCK: tuple[int, ...] = (0, *(ORE + c.resource for c in _TABLE))
"""The counter index (``dsl.ORE``, ``MANA`` or ``TROOPS``) that pays for each card."""
RUN: tuple[Statement, ...] = (lambda me, en: None, *(compile_effect(c.effect) for c in _TABLE))
RESOLVE: tuple[Resolve, ...] = (
    lambda me, en: [[0] * 8, [0] * 8],
    *(compile_resolve(c.effect) for c in _TABLE),
)
"""``RUN`` returning the change it made, ``[self delta, enemy delta]`` (the ``play`` event's ``delta``)."""
PLAY_AGAIN: tuple[bool, ...] = (False, *(c.effect.play_again for c in _TABLE))
DRAW_DISCARD: tuple[bool, ...] = (False, *(c.effect.draw_discard for c in _TABLE))
