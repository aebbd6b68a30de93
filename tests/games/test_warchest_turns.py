"""Rounds, turns, face-down actions, initiative, shortage, the round cap and timeouts (§6, §7, §16)."""

from __future__ import annotations

import pytest
from warchest_helpers import H, R, W, act, is_legal, kinds, legal, make, play, put

from duelclub.games.contract import IllegalAction
from duelclub.games.warchest import GAME, engine
from duelclub.games.warchest.state import OVER


def test_initiative_taken_face_down_d10() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1}, raven_hand={"royal": 1, "pikeman": 1})
    assert not kinds(s, "initiative")  # Wolf holds it
    play(s, act("pass", "knight"))
    a = act("initiative", "royal")
    assert is_legal(s, a)
    play(s, a)
    assert s.initiative == R and s.changed and s.sides[R].down == {"royal": 1}
    s.initiative, s.turn = W, R  # even if Wolf took it back somehow, nobody may take it again
    assert not kinds(s, "initiative")


def test_recruit_moves_supply_coin_to_discard_face_up() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1})
    play(s, act("recruit", "royal", type="knight"))
    assert s.sides[W].supply["knight"] == 1 and s.sides[W].up == {"knight": 1}
    assert s.sides[W].down == {"royal": 1}


def test_recruit_illegal_with_empty_supply() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1})
    s.sides[W].supply = {}
    assert not kinds(s, "recruit") and kinds(s, "pass")


def test_pass_is_always_legal() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    assert act("pass", "knight") in legal(s)


def test_deploy_illegal_when_unit_already_on_board() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    assert kinds(s, "deploy")
    put(s, H(0, 0), W, "knight")
    assert not kinds(s, "deploy")


def test_deploy_needs_an_empty_controlled_location() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(1, -3), R, "pikeman")
    put(s, H(3, -2), R, "pikeman")
    assert not kinds(s, "deploy")


def test_move_needs_an_empty_adjacent_hex() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(3, -3), W, "knight")
    put(s, H(2, -3), R, "pikeman")
    put(s, H(2, -2), R, "pikeman")
    assert {a.to for a in kinds(s, "move")} == {H(3, -2)}


def test_control_illegal_on_own_or_non_location() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(1, -3), W, "knight")
    assert not kinds(s, "control")
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(0, 0), W, "knight")
    assert not kinds(s, "control")


def test_control_of_enemy_location_returns_its_marker() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(-1, 3), W, "knight")
    play(s, act("control", "knight", H(-1, 3)))
    assert s.control[H(-1, 3)] == W and s.sides[R].reserve == 5 and s.sides[W].reserve == 3


def test_attack_only_adjacent_enemies() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(0, 0), W, "knight")
    put(s, H(2, 0), R, "pikeman")
    put(s, H(-1, 0), W, "scout")  # a friend is no target
    assert not kinds(s, "attack")


def test_tactic_illegal_for_units_without_one() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(0, 0), W, "knight")
    assert not kinds(s, "tactic")


def test_bolster_adds_a_coin_and_royal_coin_has_no_unit() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    put(s, H(0, 0), W, "knight")
    play(s, act("bolster", "knight", H(0, 0)))
    assert s.units[H(0, 0)].height == 2
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=[])
    s.nobility = False
    assert {a.kind for a in legal(s)} == {"recruit", "pass"}


def test_turns_alternate_and_an_empty_hand_is_skipped() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 2}, raven_hand={"royal": 1})
    play(s, act("pass", "knight"))
    assert s.turn == R
    play(s, act("pass", "royal"))
    assert s.turn == W  # Raven's hand is empty: Wolf keeps playing
    play(s, act("pass", "knight"))
    assert s.round == 2  # both hands empty: next round drawn automatically


def test_shortage_draws_what_exists_d9() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1}, raven_hand={"royal": 1})
    s.sides[W].bag = {}
    s.sides[W].up = {"royal": 1}
    play(s, act("pass", "knight"))
    play(s, act("pass", "royal"))
    assert s.round == 2 and sum(s.sides[W].hand.values()) == 2  # royal + the passed knight


def test_new_round_initiative_holder_plays_first() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1}, raven_hand={"royal": 1})
    s.sides[R].bag = {"pikeman": 3}
    s.sides[W].bag = {"knight": 3}
    play(s, act("pass", "knight"))
    play(s, act("initiative", "royal"))
    assert s.round == 2 and s.turn == R and not s.changed


def test_round_limit_is_a_draw_d28() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1}, raven_hand={"royal": 1})
    s.round = 100
    play(s, act("pass", "knight"))
    play(s, act("pass", "royal"))
    assert s.phase == OVER and s.outcome is not None
    assert s.outcome.winner is None and s.outcome.reason == "round_limit"


def test_illegal_action_leaves_state_untouched() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    before = GAME.to_position(s)
    with pytest.raises(IllegalAction) as err:
        play(s, act("deploy", "knight", to=H(0, 0)))
    assert err.value.code == "illegal_action" and GAME.to_position(s) == before
    with pytest.raises(IllegalAction) as err:
        engine.apply(s, R, act("pass", "royal"))
    assert err.value.code == "not_your_turn"


def test_timeout_passes_first_coin_in_canonical_order() -> None:
    s = make(["knight", "archer"], ["pikeman"], hand={"royal": 1, "knight": 1, "archer": 1})
    a = GAME.timeout_action(s, s.seat_of(W))
    assert a == act("pass", "archer") and a in legal(s)


def test_timeout_declines_optional_and_picks_first_mandatory() -> None:
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "scout", 2)
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert GAME.timeout_action(s, s.seat_of(W)) == act("decline")
    s = make(["footman"], ["knight"], hand={"footman": 1})
    put(s, H(0, 0), W, "footman")
    put(s, H(-2, 0), W, "footman")
    play(s, act("tactic", "footman", H(0, 0), to=H(1, 0), maneuver="move"))
    assert s.pending is not None
    assert GAME.timeout_action(s, s.seat_of(W)) == s.pending.options[0]


def test_timeout_in_draft_and_for_wp_play() -> None:
    s = GAME.new_match(bytes(32), GAME.parse_options({"draft": "club"}))
    seat = next(iter(GAME.to_move(s)))
    assert GAME.timeout_action(s, seat) == act("pick", type="archer")
    s = make(["warrior_priest"], ["knight"], hand={"warrior_priest": 1})
    put(s, H(0, -1), W, "warrior_priest")
    play(s, act("control", "warrior_priest", H(0, -1)))
    assert GAME.timeout_action(s, s.seat_of(W)) == act("pass", "warrior_priest")


def test_resign_ends_the_match() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    GAME.apply(s, 1, GAME.parse_action({"kind": "resign"}))
    assert s.outcome is not None and s.outcome.winner == 0 and s.outcome.reason == "resign"
    assert GAME.to_move(s) == frozenset()
