"""The eight battlefields (rules/towers.md §2; starting stock per D1, Площа Вітрів 20/10 per D33).

>>> BATTLEFIELDS[BATTLEFIELD_INDEX["wind_square"]].start
(20, 10, 3, 1, 2, 15, 5, 10)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Battlefield:
    """``start`` is the eight counters in ``dsl.ATTRS`` order: tower, wall, mines, monasteries, barracks,
    ore, mana, troops — identical for both players (§2)."""

    id: str
    name: str
    start: tuple[int, int, int, int, int, int, int, int]
    victory_tower: int
    victory_resource: int

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "start": list(self.start),
            "victory_tower": self.victory_tower,
            "victory_resource": self.victory_resource,
        }


BATTLEFIELDS: tuple[Battlefield, ...] = (
    Battlefield("archmage_citadel", "Цитадель Архімага", (20, 5, 2, 2, 2, 5, 5, 5), 50, 150),
    Battlefield("crystal_garden", "Кришталевий Сад", (20, 10, 3, 3, 3, 5, 5, 5), 75, 200),
    Battlefield("seaside_fortress", "Приморська фортеця", (20, 10, 5, 5, 5, 25, 25, 25), 150, 400),
    Battlefield("azure_valley", "Лазурна долина", (20, 50, 1, 1, 5, 5, 5, 25), 100, 300),
    Battlefield("misty_harbour", "Туманна Гавань", (50, 50, 5, 3, 5, 20, 10, 20), 100, 300),
    Battlefield("wind_square", "Площа Вітрів", (20, 10, 3, 1, 2, 15, 5, 10), 125, 350),
    Battlefield("free_steppe", "Вільний степ", (20, 10, 1, 1, 1, 15, 15, 15), 200, 500),
    Battlefield("mirror_labyrinth", "Дзеркальний Лабіринт", (30, 15, 4, 4, 4, 10, 10, 10), 100, 300),
)
BATTLEFIELD_IDS: tuple[str, ...] = tuple(b.id for b in BATTLEFIELDS)
BATTLEFIELD_INDEX: dict[str, int] = {b.id: i for i, b in enumerate(BATTLEFIELDS)}
