"""What each seat sees (§17): hidden hands, bags, face-down discards, the Priest's coin, hidden decrees."""

from __future__ import annotations

import random

from warchest_helpers import H, R, W, act, make, play, put

from duelclub.games.warchest import GAME


def _game_state() -> object:
    s = GAME.new_match(bytes(32), GAME.parse_options({"draft": "random", "expansions": "both"}))
    return s


def test_own_hand_and_bag_visible_opponent_only_counts() -> None:
    s = _game_state()
    for seat in (0, 1):
        v = GAME.view(s, seat)
        mine = v["sides"][s.side_of(seat)]
        theirs = v["sides"][1 - s.side_of(seat)]
        assert len(mine["hand"]) == 3 and "bag" in mine
        assert "hand" not in theirs and "bag" not in theirs and theirs["hand_count"] == 3


def test_face_down_discard_shows_only_a_count() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    events = play(s, act("pass", "knight"))
    v = GAME.view(s, s.seat_of(R))
    assert v["sides"][W]["discard_down_count"] == 1 and "discard_down" not in v["sides"][W]
    e = next(e for e in events if e["kind"] == "face_down")
    assert "coin" not in GAME.event_view(s, e, s.seat_of(R))
    assert GAME.event_view(s, e, s.seat_of(W))["coin"] == "knight"


def test_draw_event_hides_coins_from_the_opponent() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1}, raven_hand={"royal": 1})
    s.sides[W].bag = {"knight": 2, "royal": 1}
    play(s, act("pass", "knight"))
    events = play(s, act("pass", "royal"))
    draw = next(e for e in events if e["kind"] == "draw" and e["side"] == W)
    assert "coins" not in GAME.event_view(s, draw, s.seat_of(R))
    assert len(GAME.event_view(s, draw, s.seat_of(W))["coins"]) == 3
    assert "coins" not in GAME.event_view(s, draw, None)


def test_warrior_priest_drawn_coin_hidden_from_opponent() -> None:
    s = make(["warrior_priest", "knight"], ["pikeman"], hand={"warrior_priest": 1})
    s.sides[W].bag = {"knight": 1}
    put(s, H(0, -1), W, "warrior_priest")
    play(s, act("control", "warrior_priest", H(0, -1)))
    assert GAME.view(s, s.seat_of(W))["pending"]["coin"] == "knight"
    assert "coin" not in GAME.view(s, s.seat_of(R))["pending"]
    d = GAME.determinize(s, s.seat_of(R), random.Random(1))
    assert GAME.view(d, s.seat_of(R)) == GAME.view(s, s.seat_of(R))


def test_hidden_decrees_shown_as_a_count_until_the_end() -> None:
    s = _game_state()
    assert GAME.view(s, 0)["hidden_decrees"] == 4
    assert GAME.full_view(s)["hidden_decrees"] == s.hidden_decrees


def test_determinize_keeps_counts_and_resamples_opponent_coins() -> None:
    s = _game_state()
    seat = 0
    opp = 1 - s.side_of(seat)
    seen = set()
    for i in range(30):
        d = GAME.determinize(s, seat, random.Random(i))
        p, q = d.sides[opp], s.sides[opp]
        assert sum(p.hand.values()) == sum(q.hand.values()) and sum(p.bag.values()) == sum(q.bag.values())
        assert d.sides[1 - opp].hand == s.sides[1 - opp].hand
        seen.add(tuple(sorted(p.hand.items())))
    assert len(seen) > 1
