"""Spectators see the public view only, for every game in the registry (issue 6 §6): after random legal moves
played through the match service, a spectator's payload is exactly ``game.view(state, None)`` with no legal
actions, and it (and every event a spectator gets) is the same on a determinization for either seat — so it
holds nothing either player cannot know, and a seated player opening a spectator tab learns nothing more."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from duelclub.bus import MemoryBus
from duelclub.games.registry import all_games
from duelclub.play import lobby
from duelclub.play.service import MatchService
from duelclub.store import users
from duelclub.store.db import Database

GAMES = sorted(all_games())


@pytest.fixture
def db(sqlite_url: str) -> Any:
    database = Database(sqlite_url)
    yield database
    database.dispose()


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("moves", [0, 7, 25])
async def test_the_spectator_view_is_public_for_every_game(db: Database, slug: str, moves: int) -> None:
    game = all_games()[slug]
    service = MatchService(db, MemoryBus(), {slug: game}, None)
    with db.session() as s:
        ids = [users.create_user(s, n, "password123").id for n in ("alice", "bob", "carol")]
    created = await lobby.create_match(service, ids[0], game=slug, vs="invite", options={}, client_seed="a1")
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, ids[1], "b2")
    rng = random.Random(f"{slug}/{moves}")
    for n in range(moves):
        live = await service.fresh(mid)
        if live.status != "active":
            break
        seat = rng.choice(sorted(live.to_move()))
        action = rng.choice(game.legal_actions(live.state, seat))
        await service.act(mid, ids[seat], f"m{n}", live.seq, game.action_to_json(action))
    live = await service.fresh(mid)
    public = game.view(live.state, None)
    for viewer in (None, ids[2]):  # anonymous, a third member
        payload = await service.state(mid, viewer, 0)
        assert payload.seat is None and payload.legal == []
        assert payload.view == public
    for seat in (0, 1):
        for k in range(3):
            det = game.determinize(live.state, seat, random.Random(k))
            assert game.view(det, None) == public, (
                f"the spectator view differs on seat {seat}'s determinization"
            )
            for events in live.events:
                for event in events:
                    assert game.event_view(det, event, None) == game.event_view(live.state, event, None)


async def test_a_seated_player_always_gets_their_own_seat(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    service = service_factory(db)
    with db.session() as s:
        a, b = (users.create_user(s, n, "password123").id for n in ("alice", "bob"))
    created = await lobby.create_match(service, a, game="duel", vs="invite", options={})
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b)
    assert (await service.state(mid, a, None)).seat == 0
    assert (await service.state(mid, b, None)).seat == 1
