"""Swiss (issue 26 §Formats): a fixed number of rounds, each paired as one maximum-weight matching.

A round pairs the players still in (not withdrawn) by these rules, in priority order; each is a term of the
edge weights of one :func:`networkx.max_weight_matching` (``maxcardinality=True``), scaled so that a rule
always outweighs every rule below it together:

1. **No rematch** (absolute): two players who have been paired before have no edge. A round with no such
   pairing raises :class:`~.model.PairingError`.
2. **Everyone plays**: the matching has the most boards there can be (``maxcardinality``).
3. **The bye** (an odd count): a bye node joins the graph, linked to every player without a bye yet; it goes
   to the lowest-ranked of them (by score, then seeding) whose bye lets everyone else be paired.
4. **No third seat in a row**: two players who must both have the same seat (they sat in it in their last two
   games, or twice more often than in the other) do not meet if avoidable (FIDE Dutch C.04.3's absolute
   colour criterion).
5. **Score groups**: the smallest sum of squared score differences over the boards (in half points), so a
   player floats out of their score group only when the group cannot pair, and by as little as possible.
6. **Seat preferences**: the fewest boards where a player with one game more in one seat than in the other
   (or, after that, one who would like to alternate) cannot have the other seat.
7. **Dutch order**: within a score group of ``m`` players ranked by seeding, the top half meets the bottom
   half (position ``i`` against ``i + m // 2``); a floater meets the nearest player in the ranking.

Seats: the stronger preference wins (must > more second seats > alternation; then the bigger imbalance);
between equal wishes, the two alternate from the latest game where their seats differed; then the
higher-ranked player has their way. With no wish on either side (round 1) the higher-ranked player has seat
0 on the 1st, 3rd, ... board and seat 1 on the others. A bye does not count as a seat.

The answer is deterministic: boards ordered by the higher score on the board, then the sum of the scores,
then the better-ranked player; the bye last.

Looking ahead (given the tournament's ``rounds``): a Swiss longer than half the field can paint itself into
a corner (6 players, 5 rounds: after round 3 the pairs not yet met may be two triangles). When the remaining
rounds are not surely pairable (Dirac's degree bound), the best matching is kept only if a search finds
that many disjoint pairings of the pairs left after it; else the heaviest matching weighed that passes is
taken (those with one board of the best banned, and up to :data:`LOOK_CANDIDATES` found by search).

Above :data:`DENSE_UP_TO` active players the graph links each player only to their neighbours in the ranking
and to those around their Dutch partner (:data:`NEAR` each way), falling back to all pairs when that graph
cannot pair everyone: a complete graph of 256 players takes seconds in networkx, the near one a fraction.
This is a heuristic: in trials of 120 players its score differences were always the full graph's best, and
a seat preference or two was given up in a few rounds out of fifty.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from .model import Game, Pairing, PairingError, PlayerId, TournamentError, met_pairs, points_by_player

DENSE_UP_TO = 64
"""Up to this many active players every unmet pair is an edge; above it only the near ones (then all)."""
NEAR = 6
"""How many neighbours each way a player is linked to in the near graph (in the ranking, around the Dutch
partner)."""


class _ByeNode:
    """The bye's node in the matching graph (a player id could be any ``int``)."""

    def __repr__(self) -> str:
        return "BYE"


BYE_NODE: Any = _ByeNode()


def max_rounds(player_count: int) -> int:
    """The most rounds ``player_count`` players can play without a rematch: ``n - 1`` for an even count,
    ``n`` for an odd one (each round one bye, one per player); 0 for fewer than 2 players.

    This is a round robin's length. A Swiss that long may still dead-end (after 3 rounds of 6 players the
    unmet pairs can form two triangles): pass ``rounds`` to :func:`pair_round` so that it looks ahead."""
    if player_count < 0:
        raise TournamentError(f"{player_count} players: a count is never negative")
    if player_count < 2:
        return 0
    return player_count - 1 + player_count % 2


def check_rounds(rounds: int, player_count: int) -> None:
    """:class:`TournamentError` unless a Swiss of ``player_count`` players can play ``rounds`` rounds:
    at least 2 players, at least 1 round, at most :func:`max_rounds` (issue 26 §Bad input: "a Swiss whose
    rounds exceed what the players allow")."""
    if player_count < 2:
        raise TournamentError(f"a Swiss needs at least 2 players, not {player_count}")
    if rounds < 1:
        raise TournamentError(f"a Swiss plays at least 1 round, not {rounds}")
    most = max_rounds(player_count)
    if rounds > most:
        raise TournamentError(
            f"{rounds} rounds are too many for {player_count} players: at most {most} rounds can be played "
            "without two players meeting twice"
        )


@dataclass(frozen=True, slots=True)
class SeatWish:
    """A player's wish for their next seat: ``seat`` (0, 1 or None), ``strength`` (0 none, 1 alternation,
    2 one more game in the other seat, 3 must: the same seat twice in a row or two more games in the other
    seat) and ``balance`` (second seats minus first seats so far)."""

    seat: int | None
    strength: int
    balance: int


def seat_wish(seats: Sequence[int]) -> SeatWish:
    """The wish of a player whose seats so far (0 first, 1 second; byes left out) are ``seats``, in order."""
    balance = sum(seats) * 2 - len(seats)
    if len(seats) >= 2 and seats[-1] == seats[-2]:
        return SeatWish(1 - seats[-1], 3, balance)
    if abs(balance) >= 2:
        return SeatWish(0 if balance > 0 else 1, 3, balance)
    if balance:
        return SeatWish(0 if balance > 0 else 1, 2, balance)
    if seats:
        return SeatWish(1 - seats[-1], 1, balance)
    return SeatWish(None, 0, balance)


@dataclass(slots=True)
class _Field:
    """The round's players with what the pairing needs to know about each."""

    ranked: list[PlayerId]  # by score, then seeding
    rank: dict[PlayerId, int]
    score: dict[PlayerId, float]
    seats: dict[PlayerId, list[int]]
    wish: dict[PlayerId, SeatWish]
    group_pos: dict[PlayerId, tuple[int, int]]  # (position in the score group, group size)
    had_bye: set[PlayerId]
    met: set[frozenset[PlayerId]]


def pair_round(
    players: Sequence[PlayerId],
    games: Sequence[Game],
    *,
    withdrawn: Collection[PlayerId] = (),
    rounds: int | None = None,
) -> list[Pairing]:
    """The next round of a Swiss: ``players`` in seeding order (top seed first; withdrawn ones included),
    ``games`` every game of the previous rounds (byes included), ``withdrawn`` those no longer paired.

    Returns the boards (see the module's rules), the bye (``Pairing(p, None)``) last. ``rounds``, the
    tournament's round count, lets the pairing look ahead: near the end of a long Swiss it avoids a round
    after which the remaining rounds could not be paired without a rematch.

    Raises :class:`~.model.PairingError` when fewer than 2 players are still in or when no pairing avoids
    a rematch (and a second bye); :class:`~.model.TournamentError` for a player listed twice or a game with
    a player not in ``players``."""
    field = _field(players, games, withdrawn)
    nodes: list[Any] = list(field.ranked)
    if len(nodes) % 2:
        nodes.append(BYE_NODE)
    big = len(field.ranked) > DENSE_UP_TO
    matching = _match(field, nodes, dense=not big)
    if matching is None and big:
        matching = _match(field, nodes, dense=True)
    if matching is None:
        raise PairingError(_why_not(field))
    if rounds is not None:
        left = rounds - (max((g.round for g in games), default=0) + 1)
        if left > 0 and not _surely_continues(nodes, games, left):
            matching = _look_ahead(field, nodes, matching, left)
    return _boards(field, matching)


def _field(players: Sequence[PlayerId], games: Sequence[Game], withdrawn: Collection[PlayerId]) -> _Field:
    seed = {p: i for i, p in enumerate(players)}
    if len(seed) != len(players):
        raise TournamentError("a player is listed twice")
    for game in games:
        for p in game.players:
            if p not in seed:
                raise TournamentError(f"round {game.round}: player {p} is not in the tournament")
    out = set(withdrawn)
    active = [p for p in players if p not in out]
    if len(active) < 2:
        raise PairingError(f"a Swiss round needs at least 2 players still in, not {len(active)}")
    points = points_by_player(games)
    score = {p: points.get(p, 0.0) for p in active}
    ranked = sorted(active, key=lambda p: (-score[p], seed[p]))
    seats: dict[PlayerId, list[int]] = {p: [] for p in active}
    for game in sorted(games, key=lambda g: g.round):
        if game.second is not None:
            for p in game.players:
                if p in seats:
                    seats[p].append(game.seat(p))
    group_pos: dict[PlayerId, tuple[int, int]] = {}
    by_score: dict[float, list[PlayerId]] = {}
    for p in ranked:
        by_score.setdefault(score[p], []).append(p)
    for group in by_score.values():
        for i, p in enumerate(group):
            group_pos[p] = (i, len(group))
    return _Field(
        ranked=ranked,
        rank={p: i for i, p in enumerate(ranked)},
        score=score,
        seats=seats,
        wish={p: seat_wish(s) for p, s in seats.items()},
        group_pos=group_pos,
        had_bye={g.first for g in games if g.second is None},
        met=met_pairs(games),
    )


# -- the weights ----------------------------------------------------------------------------------------
# An edge's penalties, one per rule from rule 3 down (lower is better); _weights scales them so that each
# rule outweighs all the ones below it over a whole round.
Penalties = tuple[int, int, int, int, int, int]


def _conflict(a: SeatWish, b: SeatWish) -> int:
    """The strength of the wish that must give way on a board of ``a`` and ``b`` (0: none)."""
    if a.seat is None or a.seat != b.seat:
        return 0
    return min(a.strength, b.strength)


def _penalties(field: _Field, a: Any, b: Any) -> Penalties:
    if a is BYE_NODE or b is BYE_NODE:
        player = b if a is BYE_NODE else a
        return (len(field.ranked) - 1 - field.rank[player], 0, 0, 0, 0, 0)
    conflict = _conflict(field.wish[a], field.wish[b])
    diff = round(2 * abs(field.score[a] - field.score[b]))
    (pos_a, size), (pos_b, _) = field.group_pos[a], field.group_pos[b]
    if field.score[a] == field.score[b]:
        order = abs(abs(pos_a - pos_b) - size // 2)
    else:
        order = abs(field.rank[a] - field.rank[b]) - 1
    return (0, int(conflict == 3), diff * diff, int(conflict == 2), int(conflict == 1), order)


def _weights(edges: dict[tuple[Any, Any], Penalties], boards: int) -> dict[tuple[Any, Any], int]:
    """Integer weights ordering matchings of ``boards`` edges lexicographically by their summed penalties."""
    scales: list[int] = []
    scale = 1
    for level in reversed(range(6)):
        scales.append(scale)
        top = max((p[level] for p in edges.values()), default=0)
        scale *= boards * top + 1
    scales.reverse()
    return {e: scale - sum(p * s for p, s in zip(pen, scales, strict=True)) for e, pen in edges.items()}


def _candidates(field: _Field, dense: bool) -> Iterable[tuple[PlayerId, PlayerId]]:
    ranked = field.ranked
    if dense:
        for i, a in enumerate(ranked):
            for b in ranked[i + 1 :]:
                yield a, b
        return
    groups: dict[float, list[PlayerId]] = {}
    for p in ranked:
        groups.setdefault(field.score[p], []).append(p)
    seen: set[tuple[PlayerId, PlayerId]] = set()
    for i, a in enumerate(ranked):
        near = ranked[max(0, i - NEAR) : i + NEAR + 1]
        pos, size = field.group_pos[a]
        group = groups[field.score[a]]
        ideal = pos + size // 2 if pos < size // 2 else pos - size // 2
        near += group[max(0, ideal - NEAR) : ideal + NEAR + 1]
        for b in near:
            if b != a:
                pair = (a, b) if field.rank[a] < field.rank[b] else (b, a)
                if pair not in seen:
                    seen.add(pair)
                    yield pair


def _graph(field: _Field, nodes: list[Any], dense: bool, banned: Collection[frozenset[Any]] = ()) -> Any:
    edges: dict[tuple[Any, Any], Penalties] = {}
    for a, b in _candidates(field, dense):
        if frozenset((a, b)) not in field.met and frozenset((a, b)) not in banned:
            edges[(a, b)] = _penalties(field, a, b)
    if nodes[-1] is BYE_NODE:
        for p in field.ranked:
            if p not in field.had_bye and frozenset((p, BYE_NODE)) not in banned:
                edges[(p, BYE_NODE)] = _penalties(field, p, BYE_NODE)
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for (a, b), weight in sorted(
        _weights(edges, len(nodes) // 2).items(),
        key=lambda e: (_order(field, e[0][0]), _order(field, e[0][1])),
    ):
        graph.add_edge(a, b, weight=weight)
    return graph


def _order(field: _Field, node: Any) -> int:
    return len(field.ranked) if node is BYE_NODE else field.rank[node]


def _match(
    field: _Field, nodes: list[Any], *, dense: bool, banned: Collection[frozenset[Any]] = ()
) -> list[frozenset[Any]] | None:
    """The best perfect matching of the round's graph as a list of boards, or None if there is none."""
    matching = nx.max_weight_matching(_graph(field, nodes, dense, banned), maxcardinality=True)
    if 2 * len(matching) < len(nodes):
        return None
    return [frozenset(edge) for edge in matching]


def _why_not(field: _Field) -> str:
    unmet = {p: 0 for p in field.ranked}
    for i, a in enumerate(field.ranked):
        for b in field.ranked[i + 1 :]:
            if frozenset((a, b)) not in field.met:
                unmet[a] += 1
                unmet[b] += 1
    stuck = [p for p, n in unmet.items() if n == 0]
    detail = f"; player {stuck[0]} has met everyone still in" if stuck else ""
    return f"no pairing of {len(field.ranked)} players avoids a rematch or a second bye{detail}"


# -- looking ahead --------------------------------------------------------------------------------------
LOOK_BUDGET = 5_000
"""Search steps allowed to find out whether the remaining rounds can be paired (beyond it: assumed so)."""
LOOK_CANDIDATES = 200
"""The most matchings of this round weighed when the best one leaves the remaining rounds unpairable."""


def _surely_continues(nodes: list[Any], games: Sequence[Game], left: int) -> bool:
    """A quick sufficient test that ``left`` rounds can follow any pairing of this one (Dirac: a graph of an
    even number of nodes, each linked to at least half of them, has a perfect matching; every round takes
    one partner from each node, and a node has lost at most one per round played)."""
    played = max((g.round for g in games), default=0)
    return len(nodes) - 2 - played - (left - 1) >= len(nodes) / 2


def _look_ahead(
    field: _Field, nodes: list[Any], matching: list[frozenset[Any]], left: int
) -> list[frozenset[Any]]:
    """``matching``, or else the heaviest matching of this round after which ``left`` more rounds can be
    paired without a rematch (or a second bye) among those weighed: the best one with one board banned,
    and up to :data:`LOOK_CANDIDATES` others found by search; ``matching`` itself when none is found."""
    graph = _graph(field, nodes, dense=True)
    base = {n: set(graph[n]) for n in nodes}
    if _can_continue(base, matching, left):
        return matching

    def weight(m: Collection[frozenset[Any]]) -> int:
        return sum(int(graph.edges[tuple(e)]["weight"]) for e in m)

    found: dict[frozenset[frozenset[Any]], int] = {}
    for board in matching:
        other = _match(field, nodes, dense=True, banned=[board])
        if other is not None:
            found[frozenset(other)] = weight(other)
    for pairs in _perfect_matchings(base, [], [LOOK_BUDGET]):
        if pairs is None or len(found) >= LOOK_CANDIDATES + len(matching):
            break
        edges = [frozenset(e) for e in pairs]
        found[frozenset(edges)] = weight(edges)
    ordered = sorted(found.items(), key=lambda item: (-item[1], sorted(_board_key(e) for e in item[0])))
    for candidate, _ in ordered:
        if _can_continue(base, list(candidate), left):
            return list(candidate)
    return matching


def _board_key(edge: frozenset[Any]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(_key(n) for n in edge))


def _can_continue(base: dict[Any, set[Any]], matching: Collection[frozenset[Any]], left: int) -> bool:
    """Whether the allowed pairs ``base`` without ``matching`` hold ``left`` disjoint perfect matchings
    (an exhausted search counts as yes)."""
    rest = {n: set(s) for n, s in base.items()}
    for edge in matching:
        a, b = tuple(edge)
        rest[a].discard(b)
        rest[b].discard(a)
    if min(len(s) for s in rest.values()) - (left - 1) >= len(rest) / 2:
        return True  # Dirac, as in _surely_continues
    return _factors(rest, left, [LOOK_BUDGET]) is not False


def _factors(adjacent: dict[Any, set[Any]], left: int, budget: list[int]) -> bool | None:
    """Whether ``adjacent`` holds ``left`` disjoint perfect matchings (None: the budget ran out)."""
    if left == 0:
        return True
    unknown = False
    for found in _perfect_matchings(adjacent, [], budget):
        if found is None:
            return None
        rest = {n: set(s) for n, s in adjacent.items()}
        for a, b in found:
            rest[a].discard(b)
            rest[b].discard(a)
        answer = _factors(rest, left - 1, budget)
        if answer:
            return True
        unknown = unknown or answer is None
        if budget[0] <= 0:
            return None
    return None if unknown else False


def _perfect_matchings(
    adjacent: dict[Any, set[Any]], chosen: list[tuple[Any, Any]], budget: list[int]
) -> Iterable[list[tuple[Any, Any]] | None]:
    """Every perfect matching of ``adjacent``, branching on the node with the fewest partners; a final
    ``None`` when the budget (one step per branch) runs out."""
    budget[0] -= 1
    if budget[0] <= 0:
        yield None
        return
    if not adjacent:
        yield list(chosen)
        return
    node = min(adjacent, key=lambda n: (len(adjacent[n]), _key(n)))
    for partner in sorted(adjacent[node], key=_key):
        rest = {n: s - {node, partner} for n, s in adjacent.items() if n not in (node, partner)}
        chosen.append((node, partner))
        yield from _perfect_matchings(rest, chosen, budget)
        chosen.pop()
        if budget[0] <= 0:
            return


def _key(node: Any) -> tuple[int, int]:
    return (1, 0) if node is BYE_NODE else (0, node)


# -- the boards -----------------------------------------------------------------------------------------
def _boards(field: _Field, matching: list[frozenset[Any]]) -> list[Pairing]:
    pairs: list[tuple[PlayerId, PlayerId]] = []
    bye: list[Pairing] = []
    for edge in matching:
        a, b = sorted(edge, key=lambda n: _order(field, n))
        if b is BYE_NODE:
            bye.append(Pairing(a, None))
        else:
            pairs.append((a, b))
    score = field.score
    pairs.sort(
        key=lambda ab: (-max(score[ab[0]], score[ab[1]]), -(score[ab[0]] + score[ab[1]]), field.rank[ab[0]])
    )
    return [_seat(field, a, b, board) for board, (a, b) in enumerate(pairs)] + bye


def _seat(field: _Field, high: PlayerId, low: PlayerId, board: int) -> Pairing:
    """The board of ``high`` (the better ranked) and ``low`` with its seats (the module's seat rules)."""
    wh, wl = field.wish[high], field.wish[low]
    if wh.seat is None and wl.seat is None:
        first_is_high = board % 2 == 0
    elif wh.seat != wl.seat:
        first_is_high = wh.seat == 0 if wh.seat is not None else wl.seat == 1
    elif (wh.strength, abs(wh.balance)) != (wl.strength, abs(wl.balance)):
        high_wins = (wh.strength, abs(wh.balance)) > (wl.strength, abs(wl.balance))
        first_is_high = (wh.seat == 0) == high_wins
    else:
        latest = _latest_difference(field.seats[high], field.seats[low])
        first_is_high = latest == 1 if latest is not None else wh.seat == 0
    return Pairing(high, low) if first_is_high else Pairing(low, high)


def _latest_difference(a: Sequence[int], b: Sequence[int]) -> int | None:
    """``a``'s seat in the latest game (counted back from each one's last) where ``a`` and ``b`` sat apart."""
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x != y:
            return x
    return None
