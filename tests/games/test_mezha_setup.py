"""rules/mezha.md §Houses and decks, §Match setup; fairness.md consumers — mezha; the Game facts."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from duelclub.games.contract import IllegalAction
from duelclub.games.fairness import Stream, match_key
from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import NextSeason, Pass, Play, Resign
from duelclub.games.mezha.cards import CARDS, GORN, OLKHA, OMENS, catalog
from duelclub.games.registry import get_game

KEY = match_key(bytes(range(32)), "m-0001")
KEY2 = match_key(bytes(range(32)), "m-0001", "c0ffee", "5eed")

OLKHA_DECK = (
    ["ten_v_listve"] * 3
    + ["seyanets"] * 3
    + ["stary_dub"] * 2
    + ["otshelnik"] * 2
    + ["sova"] * 2
    + ["bortnik"] * 2
    + ["khozyayka_roshchi", "pen_velikan"]
    + ["vedunya"] * 2
    + ["rosa"] * 2
)
GORN_DECK = (
    ["podmasterye"] * 3
    + ["arbaletchik"] * 3
    + ["shchitonosets"] * 3
    + ["znamenosets"] * 2
    + ["kuznets"] * 2
    + ["pushkar"] * 2
    + ["master_gorna", "golem", "liteyshchitsa"]
    + ["podzhog"] * 2
)


def test_game_facts() -> None:
    assert GAME.slug == "mezha"
    assert GAME.reason_codes == ("two_seasons", "more_seasons", "draw", "resign")
    assert GAME.bot_levels == ("novice", "light", "medium", "strong", "master")
    assert get_game("mezha") is GAME


def test_olkha_table_matches_rules() -> None:
    rows = [(c.id, c.name, c.strength, c.copies) for c in OLKHA]
    assert rows == [
        ("ten_v_listve", "Тень в листве", 5, 3),
        ("seyanets", "Сеянец", 3, 3),
        ("stary_dub", "Старый дуб", 5, 2),
        ("otshelnik", "Отшельник", 3, 2),
        ("sova", "Сова-дозорная", 3, 2),
        ("bortnik", "Бортник", 4, 2),
        ("khozyayka_roshchi", "Хозяйка рощи", 6, 1),
        ("pen_velikan", "Пень-великан", 8, 1),
        ("vedunya", "Ведунья", 2, 2),
        ("rosa", "Роса", None, 2),
    ]


def test_gorn_table_matches_rules() -> None:
    rows = [(c.id, c.name, c.strength, c.copies, c.shot) for c in GORN]
    assert rows == [
        ("podmasterye", "Подмастерье", 2, 3, 0),
        ("arbaletchik", "Арбалетчик", 3, 3, 2),
        ("shchitonosets", "Щитоносец", 4, 3, 0),
        ("znamenosets", "Знаменосец", 2, 2, 0),
        ("kuznets", "Кузнец", 5, 2, 0),
        ("pushkar", "Пушкарь", 3, 2, 3),
        ("master_gorna", "Мастер горна", 5, 1, 0),
        ("golem", "Голем-наковальня", 8, 1, 0),
        ("liteyshchitsa", "Литейщица", 4, 1, 0),
        ("podzhog", "Поджог", None, 2, 0),
    ]


def test_abilities_match_rules() -> None:
    abilities = {c.id: c.abilities for c in CARDS}
    assert abilities["ten_v_listve"] == ("cache",)
    assert abilities["sova"] == ("cache", "sprout")
    assert abilities["stary_dub"] == abilities["khozyayka_roshchi"] == ("roots",)
    assert abilities["seyanets"] == ("sprout",)
    assert abilities["otshelnik"] == ("loner",)
    assert abilities["vedunya"] == abilities["podmasterye"] == ("messenger",)
    assert abilities["znamenosets"] == abilities["master_gorna"] == ("rally",)
    assert abilities["arbaletchik"] == abilities["pushkar"] == ("shot",)
    assert abilities["shchitonosets"] == abilities["golem"] == ("shield",)
    assert abilities["rosa"] == abilities["podzhog"] == ("tactic",)
    assert abilities["bortnik"] == abilities["pen_velikan"] == abilities["kuznets"] == ()


def test_each_deck_has_20_cards() -> None:
    assert sum(c.copies for c in OLKHA) == sum(c.copies for c in GORN) == 20


def test_omens_ids_and_names() -> None:
    assert OMENS == (("thaw", "Оттепель"), ("drought", "Засуха"), ("fair", "Ярмарка"), ("storm", "Гроза"))


def test_catalog_lists_cards_and_omens() -> None:
    cat = catalog()
    assert [c["id"] for c in cat["cards"]] == [c.id for c in CARDS]
    assert [o["id"] for o in cat["omens"]] == ["thaw", "drought", "fair", "storm"]
    assert cat["fields"] == ["Луг", "Брод", "Холм"]


def _hand_deal(key: bytes, seat0: str) -> dict[str, object]:
    """The deal computed by hand from fairness.Stream, in the documented consumption order."""
    st = Stream(key)
    first = st.randint(2)
    decks = {"olkha": OLKHA_DECK, "gorn": GORN_DECK}
    seat1 = "gorn" if seat0 == "olkha" else "olkha"
    d0 = st.shuffled(decks[seat0])
    d1 = st.shuffled(decks[seat1])
    omens = st.shuffled(["thaw", "drought", "fair", "storm"])
    order = [c.id for c in CARDS]
    return {
        "starter": first,
        "hands": [sorted(d0[:8], key=order.index), sorted(d1[:8], key=order.index)],
        "decks": [d0[8:], d1[8:]],
        "omens": omens,
        "stream": st.position,
    }


@pytest.mark.parametrize("key", [KEY, KEY2])
@pytest.mark.parametrize("house", ["olkha", "gorn"])
def test_new_match_reads_stream_in_documented_order(key: bytes, house: str) -> None:
    expected = _hand_deal(key, house)
    s = GAME.new_match(key, GAME.parse_options({"house": house}))
    full = GAME.full_view(s)
    assert full["starter"] == full["turn"] == expected["starter"]
    assert full["hands"] == expected["hands"]
    assert full["decks"] == expected["decks"]
    assert full["omens"] == expected["omens"]
    assert GAME.to_position(s)["stream"] == {"key": key.hex(), "position": expected["stream"]}


def test_first_lot_matches_fairness_vector() -> None:
    # fairness.md test vectors: randint(2) is 0 for a = b = "" and 1 for c0ffee / 5eed
    assert GAME.full_view(GAME.new_match(KEY, GAME.parse_options({})))["starter"] == 0
    assert GAME.full_view(GAME.new_match(KEY2, GAME.parse_options({})))["starter"] == 1


def test_options_default_house_is_olkha_and_seat1_gets_the_other() -> None:
    s = GAME.new_match(KEY, GAME.parse_options(None))
    assert GAME.view(s, 0)["houses"] == ["olkha", "gorn"]
    s = GAME.new_match(KEY, GAME.parse_options({"house": "gorn"}))
    assert GAME.view(s, 0)["houses"] == ["gorn", "olkha"]


@pytest.mark.parametrize("raw", [{"house": "ash"}, {"house": "olkha", "extra": 1}])
def test_bad_options_are_rejected(raw: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse_options(raw)
    assert err.value.code == "bad_options"


def test_setup_deals_eight_cards_each_in_season_one() -> None:
    s = GAME.new_match(KEY, GAME.parse_options({}))
    v = GAME.view(s, 0)
    assert (v["season"], v["phase"], v["hand_sizes"], v["deck_sizes"]) == (1, "season", [8, 8], [12, 12])
    assert GAME.to_move(s) == frozenset({v["starter"]})


def test_new_match_is_deterministic() -> None:
    opts = GAME.parse_options({})
    assert GAME.to_position(GAME.new_match(KEY, opts)) == GAME.to_position(GAME.new_match(KEY, opts))


def test_action_union_parses_every_kind() -> None:
    assert GAME.parse_action({"kind": "play", "card": "sova", "field": 2}) == Play(card="sova", field=2)
    assert GAME.parse_action({"kind": "pass"}) == Pass()
    assert GAME.parse_action({"kind": "next_season"}) == NextSeason()
    assert GAME.parse_action({"kind": "resign"}) == Resign()
    assert isinstance(GAME.action_adapter, TypeAdapter)


def test_action_json_round_trips() -> None:
    raw = {"kind": "play", "card": "golem", "field": 1}
    assert GAME.action_to_json(GAME.parse_action(raw)) == raw


@pytest.mark.parametrize(
    "raw", [{"kind": "jump"}, {"kind": "play", "card": "sova"}, {"kind": "pass", "x": 1}]
)
def test_malformed_actions_are_rejected(raw: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(raw)
    assert err.value.code == "malformed_action"


@pytest.mark.parametrize("field", ["0", "1", 0.0, 1.0, True, None, [0]])
def test_play_field_must_be_a_json_integer(field: object) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action({"kind": "play", "card": "sova", "field": field})
    assert err.value.code == "malformed_action"


def test_actions_are_frozen() -> None:
    a = Play(card="sova", field=0)
    with pytest.raises(ValueError):
        a.field = 1  # type: ignore[misc]
