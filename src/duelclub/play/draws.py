"""The draw log of an ended match: every draw of its fairness stream, in order (rules/fairness.md §Reveal and
verification; issue 15 §5).

The log is made by replaying the match from its stored actions with the stream's recorder on
(``games.fairness.recording``): ``new_match(K, options)`` and each logged action, exactly as the match was
played. The replay must reach the state the match ended in (its full view), which ties the draws to the
game; the verify page then recomputes every draw from ``K`` alone — the same algorithm for all four games,
no game rules in the browser. Only for ended matches: a running match's draws would reveal its hidden deal
(rules/fairness.md §Values).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from duelclub.games.contract import IllegalAction
from duelclub.games.fairness import SCHEME, Draw, recording
from duelclub.play.errors import PlayError
from duelclub.play.live import JSON, LiveMatch
from duelclub.play.schemas import DrawEntry
from duelclub.store.matches import ENDED


class MatchDraws(BaseModel):
    """``GET /api/matches/{id}/draws``: the draws of an ended match in order (empty if it was aborted before
    the deal). ``actions`` is the number of logged actions the replay applied."""

    scheme: str
    id: str
    game: str
    status: str
    actions: int
    draws: list[DrawEntry]


@dataclass(frozen=True)
class Replayed:
    """An ended match replayed with the recorder on: the full view of the deal (``initial``), the full view
    after the last action (``final``), and the draws in order."""

    initial: JSON
    final: JSON
    draws: list[Draw]


def replay_recorded(live: LiveMatch) -> Replayed:
    """Replay an ended, dealt match from its log, recording the draws (blocking: run it in a worker thread).

    Raises PlayError ``match_not_finished`` (409) for a live match or one aborted before the deal, and
    ``replay_failed`` (500) if a logged action does not replay or the replay does not end in the match's
    state.
    """
    if live.status not in ENDED or live.state is None:
        raise PlayError(409, "match_not_finished", "the draws are published when the match ends")
    game, key = live.game, live.key()
    with recording(key) as draws:
        state = live.new_state()
        initial = game.full_view(state)
        for a in live.actions:
            try:
                game.apply(state, a.seat, game.parse_action(a.action))
            except IllegalAction as exc:
                raise PlayError(500, "replay_failed", f"{live.id}#{a.seq}: {exc}") from None
    final = game.full_view(state)
    if final != game.full_view(live.state):
        raise PlayError(500, "replay_failed", f"{live.id}: the replay does not reach the match's state")
    return Replayed(initial, final, draws)


def entries(draws: list[Draw]) -> list[DrawEntry]:
    return [DrawEntry(bound=d.bound, value=d.value) for d in draws]


def match_draws(live: LiveMatch) -> MatchDraws:
    """The draw log of an ended match (blocking). Raises PlayError ``match_not_finished`` (409) while it is
    live; an ended match aborted before the deal has no draws."""
    if live.status not in ENDED:
        raise PlayError(409, "match_not_finished", "the draws are published when the match ends")
    drawn = replay_recorded(live).draws if live.state is not None else []
    return MatchDraws(
        scheme=SCHEME,
        id=live.id,
        game=live.record.game,
        status=live.status,
        actions=live.seq,
        draws=entries(drawn),
    )
