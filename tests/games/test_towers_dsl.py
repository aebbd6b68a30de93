"""rules/towers.md §12 (D43): the effect language is parsed strictly, once, at load; bad data stops the
engine."""

from __future__ import annotations

import csv
import io
from importlib import resources

import pytest

from duelclub.games.towers.cards import CARDS, DRAW_DISCARD, PLAY_AGAIN, CardDataError, load_cards
from duelclub.games.towers.dsl import (
    MINES,
    TOWER,
    WALL,
    Change,
    Damage,
    DslError,
    If,
    SetAttr,
    Steal,
    Swap,
    compile_effect,
    parse,
)

CSV_TEXT = resources.files("duelclub.games.towers").joinpath("cards.csv").read_text(encoding="utf-8")


def test_all_102_rows_parse_and_flags_match_the_text() -> None:
    assert len(CARDS) == 102
    for c in CARDS.values():
        assert PLAY_AGAIN[c.id] == ("Граємо знову" in c.text), c.name
        assert DRAW_DISCARD[c.id] == ("Візьміть карту, скиньте карту" in c.text), c.name
    assert sorted(c.id for c in CARDS.values() if c.effect.play_again) == [
        4,
        5,
        21,
        23,
        37,
        39,
        40,
        72,
        75,
        87,
    ]
    assert sorted(c.id for c in CARDS.values() if c.effect.draw_discard) == [40, 75]


def test_ids_colours_and_resources_follow_section_3() -> None:
    for cid, c in CARDS.items():
        colour = "red" if cid <= 34 else "blue" if cid <= 68 else "green"
        assert c.colour == colour and c.resource == ("red", "blue", "green").index(colour)
        assert 0 <= c.cost <= 25


def test_parse_examples_of_section_12() -> None:
    assert parse("wall+3").statements == (Change((0,), WALL, 3),)
    assert parse("enemy.dmg 6; self.dmg 3").statements == (Damage((1,), False, 6), Damage((0,), False, 3))
    e = parse("all.tdmg 7; all.monasteries-1")
    assert e.statements[0] == Damage((0, 1), True, 7)
    e = parse("if(mines<enemy.mines){set mines=enemy.mines}")
    assert e.statements == (If((0, MINES), "<", (1, MINES), (SetAttr((0,), MINES, ((1, MINES),)),), ()),)
    e = parse("set all.monasteries=max(monasteries,enemy.monasteries)")
    assert isinstance(e.statements[0], SetAttr) and len(e.statements[0].expr) == 2
    e = parse("draw_discard; play_again")
    assert e.statements == () and e.draw_discard and e.play_again
    assert parse("swap wall").statements == (Swap(WALL),)
    assert parse("steal mana 10; steal ore 5").statements[0] == Steal(6, 10)
    assert parse("if(wall==0){wall+5}else{wall+3}").statements[0].orelse == (Change((0,), WALL, 3),)  # type: ignore[union-attr]


def test_tower_minus_and_self_tdmg_are_equivalent() -> None:
    for text in ("tower-4", "self.tdmg 4"):
        me, en = [10, 3, 1, 1, 1, 0, 0, 0], [10, 3, 1, 1, 1, 0, 0, 0]
        compile_effect(parse(text))(me, en)
        assert me[TOWER] == 6 and me[WALL] == 3


def test_nested_if_body() -> None:
    e = parse(CARDS[17].dsl)
    assert isinstance(e.statements[0], If) and isinstance(e.statements[0].orelse[0], If)


@pytest.mark.parametrize(
    "bad",
    [
        "wall +3",  # no whitespace around operators
        "wall+3;wall+1",  # exactly one space after ;
        "wall+3;  wall+1",
        " wall+3",
        "wall+3 ",
        "wall+03",  # no leading zero
        "wall+-3",
        "dmg 5",  # damage needs a target
        "enemy.dmg5",
        "enemy.dmg  5",
        "enemy.castle+1",
        "play_again; wall+1",  # flags last
        "play_again; draw_discard",  # draw_discard before play_again
        "draw_discard; ",
        "wall+1; ",
        "if(wall=0){wall+1}",
        "if(wall==0){wall+1}else{}",
        "if (wall==0){wall+1}",
        "steal gold 3",
        "set wall=max(wall, enemy.wall)",
        "swap  wall",
        "",
        "wall+3; play_again; play_again",
        "стіна+3",
    ],
)
def test_malformed_effects_are_rejected(bad: str) -> None:
    with pytest.raises(DslError):
        parse(bad)


def _table(mutate: object) -> str:
    rows = list(csv.DictReader(io.StringIO(CSV_TEXT)))
    mutate(rows)  # type: ignore[operator]
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["id"])
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def test_the_shipped_table_loads() -> None:
    assert len(load_cards(CSV_TEXT)) == 102


@pytest.mark.parametrize(
    ("what", "mutate"),
    [
        ("a row that does not parse", lambda rows: rows[10].update(effect_dsl="wall + 3")),
        ("a wrong colour", lambda rows: rows[0].update(colour="blue")),
        ("a wrong resource", lambda rows: rows[40].update(resource="ore")),
        ("a cost out of range", lambda rows: rows[5].update(cost="26")),
        ("a non-integer cost", lambda rows: rows[5].update(cost="x")),
        ("ids out of order", lambda rows: rows.reverse()),
        ("a missing row", lambda rows: rows.pop()),
    ],
)
def test_bad_card_data_refuses_to_load(what: str, mutate: object) -> None:
    with pytest.raises(CardDataError):
        load_cards(_table(mutate))
