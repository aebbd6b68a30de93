"""Сундук войны positions: the declared model rejects states the engine never reaches
(docs/positions/warchest.md)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from duelclub.games.warchest import GAME
from duelclub.games.warchest.board import NEUTRAL_LOCATIONS

KEY = bytes(range(32))


def _start(**options: str) -> dict[str, Any]:
    s = GAME.new_match(KEY, GAME.parse_options({"draft": "random", **options}))
    pos: dict[str, Any] = json.loads(json.dumps(GAME.to_position(s)))
    return pos


def _rejects(match: str, pos: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=match):
        GAME.from_position(pos)


def test_the_start_position_loads() -> None:
    pos = _start()
    assert GAME.to_position(GAME.from_position(copy.deepcopy(pos))) == pos


def test_a_side_with_all_six_markers_placed_has_won() -> None:
    # §10: the side wins immediately when its 6th marker is placed
    pos = _start()
    side = pos["sides"][0]
    for h in NEUTRAL_LOCATIONS[:4]:
        pos["control"][h] = 0
    side["reserve"] = 0
    _rejects(r"a side with all six markers placed has won", pos)


def test_control_markers_add_up_to_six() -> None:
    pos = _start()
    pos["sides"][1]["reserve"] = 3
    _rejects(r"side 1: 6 control markers in all", pos)


def test_every_coin_of_a_drafted_type_is_somewhere() -> None:
    pos = _start()
    t = pos["sides"][0]["types"][0]
    pos["sides"][0]["supply"][t] += 1
    _rejects(rf"side 0 has \d+ {t} coins", pos)


def test_one_royal_coin_per_side() -> None:
    pos = _start()
    pos["sides"][0]["hand"]["royal"] = 1
    _rejects(r"side 0 has 2 Royal coins", pos)


def test_a_finished_match_has_nothing_pending() -> None:
    pos = _start()
    pos.update(phase="over", outcome={"winner": 0, "reason": "resign"}, stack=[["after_man", 1]])
    _rejects(r"a finished match has nothing pending", pos)


def test_round_limit_is_a_draw_after_round_100_d28() -> None:
    pos = _start()
    pos.update(phase="over", outcome={"winner": None, "reason": "round_limit"})
    _rejects(r"round_limit is a draw after round 100", pos)


def test_decrees_only_with_nobility() -> None:
    pos = _start(expansions="base")
    pos["decrees"] = ["enlist"]
    _rejects(r"decrees only with Знать", pos)


def test_a_unit_belongs_to_its_owners_types() -> None:
    pos = _start()
    foreign = pos["sides"][1]["types"][0]
    pos["units"] = [{"hex": 18, "owner": 0, "type": foreign, "height": 1, "poison": 0, "uid": 1}]
    pos["uid"] = 1
    _rejects(r"the unit on hex 18 is not of its owner's types", pos)


def test_shape_errors_name_the_key() -> None:
    pos = _start()
    pos["control"][0] = 2
    _rejects(r"bad warchest position: control\.0", pos)
    pos = _start()
    pos["sides"][0]["bag"]["gold"] = 1
    _rejects(r"sides\.0\.bag\.gold", pos)
