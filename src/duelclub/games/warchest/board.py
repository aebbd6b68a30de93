"""The 37-hex two-player board (rules/warchest.md §4): hex ids, neighbour and distance tables.

Hexes are small ints ``0..36`` numbered row by row (r = −3 … 3, q ascending inside a row), so the
engine never builds coordinate tuples in its hot loops. Every table here is computed once at import.

>>> HEX_ID[(0, 0)], HEXES[HEX_ID[(1, -3)]]
(18, (1, -3))
>>> DIST[HEX_ID[(0, 0)]][HEX_ID[(3, -3)]]
3
"""

from __future__ import annotations

RADIUS = 3
HEXES: tuple[tuple[int, int], ...] = tuple(
    (q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if abs(q) <= RADIUS and abs(q + r) <= RADIUS
)
HEX_ID: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(HEXES)}
N_HEXES = len(HEXES)

# §4.1 directions: E, W, SE, SW, NE, NW (index order used by the Lancer tactic).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (-1, 1), (1, -1), (0, -1))


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


DIST: tuple[tuple[int, ...], ...] = tuple(tuple(_dist(a, b) for b in HEXES) for a in HEXES)

STEP: tuple[tuple[int, ...], ...] = tuple(
    tuple(HEX_ID.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in HEXES
)
"""``STEP[h][d]``: the hex one step from ``h`` in direction ``d``, or −1 off the board."""

NEIGH: tuple[tuple[int, ...], ...] = tuple(tuple(n for n in STEP[h] if n >= 0) for h in range(N_HEXES))
RING2: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(N_HEXES) if DIST[a][b] == 2) for a in range(N_HEXES)
)
WITHIN2: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(N_HEXES) if 1 <= DIST[a][b] <= 2) for a in range(N_HEXES)
)


def _line2(h: int) -> tuple[tuple[int, int], ...]:
    out = []
    for d in range(6):
        mid = STEP[h][d]
        if mid >= 0 and STEP[mid][d] >= 0:
            out.append((STEP[mid][d], mid))
    return tuple(out)


LINE2: tuple[tuple[tuple[int, int], ...], ...] = tuple(_line2(h) for h in range(N_HEXES))
"""``LINE2[h]``: ``(target, middle)`` for every hex at distance 2 on a straight line from ``h`` (§4.1)."""

WOLF, RAVEN = 0, 1
SIDE_NAMES = ("wolf", "raven")
START_LOCATIONS: tuple[tuple[int, ...], tuple[int, ...]] = (
    (HEX_ID[(1, -3)], HEX_ID[(3, -2)]),
    (HEX_ID[(-1, 3)], HEX_ID[(-3, 2)]),
)
NEUTRAL_LOCATIONS: tuple[int, ...] = tuple(
    HEX_ID[qr] for qr in ((-1, -2), (0, -1), (2, 0), (-2, 0), (0, 1), (1, 2))
)
LOCATIONS: frozenset[int] = frozenset(START_LOCATIONS[0] + START_LOCATIONS[1] + NEUTRAL_LOCATIONS)
IS_LOCATION: tuple[bool, ...] = tuple(h in LOCATIONS for h in range(N_HEXES))
LOCATION_HEXES: tuple[int, ...] = tuple(sorted(LOCATIONS))
"""The locations in ascending order: the only hexes a control marker can be on (``State.control``)."""
