"""rules/artania.md §Setup and fairness.md consumers — artania; D25, D26, D29, D32; options."""

from __future__ import annotations

import hashlib

import pytest

from duelclub.games.artania import GAME
from duelclub.games.artania.cards import IDS, N_CARDS
from duelclub.games.contract import IllegalAction
from duelclub.games.fairness import Stream, match_key

KEY = match_key(bytes(range(32)), "m-0001")


def test_stream_order_first_player_then_seat0_then_seat1_shuffle() -> None:
    s = GAME.new_match(KEY, GAME.parse_options({}))
    st = Stream(KEY)
    first = st.randint(2)
    deck0 = st.shuffled(list(IDS))  # D32: canonical order before the shuffle
    deck1 = st.shuffled(list(IDS))
    full = GAME.full_view(s)
    assert full["first"] == first == 0  # the fairness.md test vector: randint(2) = 0
    assert full["hands"][0] == sorted(deck0[:5], key=IDS.index)
    assert full["hands"][1] == sorted(deck1[:5], key=IDS.index)
    assert full["decks"] == [deck0[5:], deck1[5:]]
    assert s.stream.position == st.position  # nothing else read the stream


def test_deal_gives_five_cards_each_and_nothing_else_d25() -> None:
    s = GAME.new_match(KEY, GAME.parse_options({}))
    v = GAME.view(s, None)
    assert v["hand_sizes"] == [5, 5] and v["deck_sizes"] == [28, 28]
    assert v["tokens"] == [0, 0] and v["pool"] == 9 and v["turn"] == 1


def test_d26_turn_one_opens_with_w0_for_the_first_player() -> None:
    for i in range(20):
        s = GAME.new_match(hashlib.sha256(bytes([i])).digest(), GAME.parse_options({}))
        v = GAME.view(s, None)
        assert v["step"] == "W0" and v["window"] == {"name": "W0", "actor": v["first"], "passes": 0}
        assert v["to_move"] == [v["first"]]


def test_both_seats_start_first_over_many_keys() -> None:
    firsts = {
        GAME.view(GAME.new_match(hashlib.sha256(bytes([i])).digest(), GAME.parse_options({})), None)["first"]
        for i in range(40)
    }
    assert firsts == {0, 1}


def test_new_match_is_deterministic() -> None:
    a = GAME.new_match(KEY, GAME.parse_options({"deck": "kuyavia"}))
    b = GAME.new_match(KEY, GAME.parse_options({"deck": "kuyavia"}))
    assert GAME.to_position(a) == GAME.to_position(b)


@pytest.mark.parametrize(
    ("deck", "sides"), [("artania", ["artania", "kuyavia"]), ("kuyavia", ["kuyavia", "artania"])]
)
def test_d29_the_opener_picks_the_deck_and_the_other_seat_gets_the_other(deck: str, sides: list[str]) -> None:
    s = GAME.new_match(KEY, GAME.parse_options({"deck": deck}))
    assert GAME.view(s, 0)["sides"] == sides


def test_d29_the_deck_is_cosmetic_the_deal_does_not_depend_on_it() -> None:
    a = GAME.full_view(GAME.new_match(KEY, GAME.parse_options({"deck": "artania"})))
    b = GAME.full_view(GAME.new_match(KEY, GAME.parse_options({"deck": "kuyavia"})))
    assert a["hands"] == b["hands"] and a["decks"] == b["decks"] and a["first"] == b["first"]


def test_random_deck_gives_artania_to_the_winner_of_the_lot_and_reads_no_extra_word() -> None:
    for i in range(10):
        key = hashlib.sha256(b"r" + bytes([i])).digest()
        s = GAME.new_match(key, GAME.parse_options({"deck": "random"}))
        v = GAME.view(s, None)
        assert v["sides"][v["first"]] == "artania"
        plain = GAME.new_match(key, GAME.parse_options({}))
        assert s.stream.position == plain.stream.position


def test_bad_options_are_rejected() -> None:
    with pytest.raises(IllegalAction) as exc:
        GAME.parse_options({"deck": "rus"})
    assert exc.value.code == "bad_options"
    with pytest.raises(IllegalAction):
        GAME.parse_options({"deck": "artania", "extra": 1})


def test_clock_mode_is_optional() -> None:
    assert GAME.clock_mode == "optional"


def test_every_card_of_both_decks_is_dealt_once() -> None:
    full = GAME.full_view(GAME.new_match(KEY, GAME.parse_options({})))
    for seat in (0, 1):
        assert sorted(full["hands"][seat] + full["decks"][seat]) == sorted(IDS)
        assert len(full["decks"][seat]) == N_CARDS - 5
