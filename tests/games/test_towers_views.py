"""rules/towers.md §8.3 (D30): what each seat sees — view, full_view, event_view."""

from __future__ import annotations

from test_towers_helpers import discard, of_kind, play, state

from duelclub.games.towers import GAME
from duelclub.i18n import use_lang
from duelclub.words.towers import WORDS


def test_own_hand_only_and_public_sizes() -> None:
    s = state(hands=([8, 9, 10, 11, 12, 13], [20, 21, 22, 23, 24, 25]))
    assert GAME.view(s, 0)["hand"] == [8, 9, 10, 11, 12, 13]
    assert GAME.view(s, 1)["hand"] == [20, 21, 22, 23, 24, 25]
    spectator = GAME.view(s, None)
    assert spectator["hand"] is None and spectator["hand_sizes"] == [6, 6]
    for v in (GAME.view(s, 0), GAME.view(s, 1), spectator):
        assert "hands" not in v and "pile" not in v and v["pile_size"] == 90


def test_public_counters_targets_deck_and_phase() -> None:
    s = state(field="misty_harbour", deck="infinite", me={"ore": 3})
    v = GAME.view(s, 1)
    assert v["battlefield"] == "misty_harbour" and v["deck"] == "infinite"
    assert v["targets"] == {"tower": 100, "resource": 300}
    assert v["players"][0]["ore"] == 3 and v["players"][1]["wall"] == 50
    assert v["pile_size"] is None and v["discard"] is None
    assert v["active"] == 0 and v["to_move"] == [0] and v["phase"] == "main" and v["turn"] == 5


def test_last_turn_lists_and_history_are_public() -> None:
    s = state(me={"ore": 5}, hands=([5, 8], [9]))
    play(s, 5)
    assert GAME.view(s, 1)["last"][0] == [{"card": 5, "tag": "play"}]
    play(s, 8)
    assert GAME.view(s, None)["last"][0] == [{"card": 5, "tag": "play"}, {"card": 8, "tag": "play"}]
    discard(s, 9)
    v = GAME.view(s, None)
    # seat 0's new turn started: its list is cleared, seat 1's stays until seat 1's next turn
    assert v["last"] == [[], [{"card": 9, "tag": "discard"}]]
    assert v["history"] == [[0, 5, "play"], [0, 8, "play"], [1, 9, "discard"]]
    assert v["discard"] == [5, 8, 9]


def test_draw_events_are_private_to_the_drawer() -> None:
    s = state(hands=([8], []))
    events = discard(s, 8)
    [draw] = of_kind(events, "draw")
    assert GAME.event_view(s, draw, 0) == draw
    assert "card" not in GAME.event_view(s, draw, 1)  # type: ignore[operator]
    assert "card" not in GAME.event_view(s, draw, None)  # type: ignore[operator]


def test_full_view_once_over() -> None:
    s = state(hands=([8], []))
    GAME.apply(s, 1, GAME.parse_action({"kind": "resign"}))
    v = GAME.view(s, None)
    assert v["hands"][0] == s.hands[0] and v["pile"] == s.pile[::-1]
    assert v["outcome"] == {"winner": 0, "reason": "resign"}
    assert v["active"] is None and v["to_move"] == []


def test_catalog_has_every_card_with_its_text() -> None:
    with use_lang("uk"):  # the seed's own words; the Russian reader gets them in Russian (issue 16 §5)
        cat = WORDS.catalog()
    assert len(cat["cards"]) == 102
    assert cat["cards"][39] == {
        "id": 40,
        "colour": "blue",
        "resource": "mana",
        "name": "Призма",
        "cost": 2,
        "text": "Візьміть карту, скиньте карту. Граємо знову",
        "play_again": True,
        "draw_discard": True,
    }
    assert WORDS.catalog()["cards"][39]["text"] == "Возьмите карту, сбросьте карту. Играем снова"
    assert len(cat["battlefields"]) == 8
