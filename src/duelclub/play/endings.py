"""How a match ends (issue 14 §2, issue 31 §1): the row a final action, a claim or an
abort writes.

A rated match that ends before both players have made their first move — by a resignation, an
abandonment claim, the clock or a rule — is **aborted and never rated** (Lichess's rule; issue 31 §1: two
accounts could otherwise trade rating without playing). Its result has no winner, reason ``unplayed``,
``seat`` (the seat whose action or absence ended it: the resigner, the loser of the rule, the absent one)
and ``ended_by`` (the reason it would have had: ``resign``, ``abandoned``, ``timeout`` or the game's own).
The final action itself is still stored: the log keeps who resigned.
"""

from __future__ import annotations

from datetime import datetime

from duelclub.games.contract import JSON, Outcome, PlatformReason, Seat
from duelclub.play import views
from duelclub.play.live import LiveMatch
from duelclub.store.matches import ABORTED, FINISHED, Finish

UNPLAYED: PlatformReason = "unplayed"


def result_of(live: LiveMatch, outcome: Outcome) -> JSON:
    """``Outcome.to_json()`` plus the seats' names (``bot:<level>`` for bots): a match's stored result."""
    names = [views.seat_name(live.record, live.names, s) for s in (0, 1)]
    return {**outcome.to_json(), "names": names}


def unplayed(live: LiveMatch, at_fault: Seat, ended_by: str, at: datetime) -> Finish:
    """The abort of a match that ended before both first moves (reason ``unplayed``)."""
    result = {**result_of(live, Outcome(None, UNPLAYED)), "seat": at_fault, "ended_by": ended_by}
    return Finish(ABORTED, result, at)


def by_action(live: LiveMatch, seat: Seat, raw: JSON, source: str, outcome: Outcome, at: datetime) -> Finish:
    """How the final action ``raw`` of ``seat`` (by ``source``), whose state has ``outcome``, ends the
    match: ``finished`` with that outcome, or :func:`unplayed` when it comes before both first moves
    (``LiveMatch.unplayed_with``)."""
    if not live.unplayed_with(seat, raw, source):
        return Finish(FINISHED, result_of(live, outcome), at)
    at_fault = seat if outcome.winner is None else 1 - outcome.winner
    return unplayed(live, at_fault, outcome.reason, at)
