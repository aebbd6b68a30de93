"""Nobility (rules/warchest.md §11): Bannerman, Bishop, Earl, Herald and the seven royal decrees."""

from __future__ import annotations

from warchest_helpers import H, R, W, act, is_legal, kinds, legal, make, play, put

from duelclub.games.warchest.state import OVER


# Bannerman
def test_bannerman_pushes_an_adjacent_enemy_after_its_maneuver() -> None:
    s = make(["bannerman"], ["knight"], hand={"bannerman": 1})
    put(s, H(0, 0), W, "bannerman")
    put(s, H(2, 0), R, "knight")
    play(s, act("move", "bannerman", H(0, 0), to=H(1, 0)))
    assert s.pending is not None and s.pending.kind == "bannerman_push"
    assert act("push", target=H(2, 0), to=H(3, 0)) in s.pending.options
    play(s, act("push", target=H(2, 0), to=H(3, 0)))
    assert s.units[H(3, 0)].type == "knight"


def test_bannerman_push_works_on_poisoned_and_is_optional() -> None:
    s = make(["bannerman"], ["knight"], hand={"bannerman": 1})
    put(s, H(0, 0), W, "bannerman")
    put(s, H(2, 0), R, "knight", poison=1)
    play(s, act("move", "bannerman", H(0, 0), to=H(1, 0)))
    assert s.pending is not None and s.pending.optional
    play(s, act("decline"))
    assert s.units[H(2, 0)].type == "knight"


def test_bannerman_without_adjacent_enemy_raises_nothing() -> None:
    s = make(["bannerman"], ["knight"], hand={"bannerman": 1})
    put(s, H(0, 0), W, "bannerman")
    play(s, act("move", "bannerman", H(0, 0), to=H(1, 0)))
    assert s.pending is None


# Bishop
def test_bishop_cannot_be_attacked_by_bolstered_units() -> None:
    s = make(["swordsman"], ["bishop"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman", 2)
    put(s, H(1, 0), R, "bishop")
    a = act("attack", "swordsman", H(0, 0), target=H(1, 0))
    assert not is_legal(s, a)
    put(s, H(0, 0), W, "swordsman", 1)
    assert is_legal(s, a)


def test_bishop_tactic_recruits_then_moves_d24() -> None:
    s = make(["bishop", "knight"], ["pikeman"], hand={"bishop": 1})
    put(s, H(0, 0), W, "bishop")
    play(s, act("tactic", "bishop", H(0, 0), type="knight"))
    assert s.sides[W].up == {"bishop": 1, "knight": 1}
    assert s.pending is not None and s.pending.kind == "bishop_follow" and not s.pending.optional
    play(s, act("move", unit=H(0, 0), to=H(1, 0)))
    assert s.units[H(1, 0)].type == "bishop"


def test_bishop_tactic_illegal_with_empty_supply_or_stuck() -> None:
    s = make(["bishop"], ["pikeman"], hand={"bishop": 1})
    put(s, H(0, 0), W, "bishop", poison=1)  # poisoned: no step, and no target
    assert not kinds(s, "tactic")
    s = make(["bishop"], ["pikeman"], hand={"bishop": 1})
    put(s, H(0, 0), W, "bishop")
    s.sides[W].supply = {}
    assert not kinds(s, "tactic")


def test_bishop_follow_skipped_when_mercenary_left_nothing_d35() -> None:
    s = make(["bishop", "mercenary"], ["scout"], hand={"bishop": 1})
    put(s, H(0, 0), W, "bishop", poison=1)  # may only attack
    put(s, H(1, 0), R, "scout")
    put(s, H(2, 0), W, "mercenary")
    play(s, act("tactic", "bishop", H(0, 0), type="mercenary"))
    assert s.pending is not None and s.pending.kind == "mercenary_maneuver"
    play(s, act("attack", unit=H(2, 0), target=H(1, 0)))  # kills the only target
    assert H(1, 0) not in s.units
    assert s.pending is None and s.turn == R


# Earl
def test_earl_may_step_after_deploy() -> None:
    s = make(["earl"], ["pikeman"], hand={"earl": 1}, decrees=["enlist", "claim", "fortify"])
    play(s, act("deploy", "earl", to=H(1, -3)))
    assert s.pending is not None and s.pending.kind == "earl_step"
    play(s, act("move", unit=H(1, -3), to=H(1, -2)))
    assert s.units[H(1, -2)].type == "earl"


def test_earl_tactic_controls_then_proclaims_without_seal() -> None:
    s = make(["earl"], ["pikeman"], hand={"earl": 1}, decrees=["reinforce", "claim", "fortify"])
    s.sides[W].elim = {"earl": 1}
    put(s, H(0, -1), W, "earl")
    s.sealed[W].add("reinforce")  # seals are ignored
    play(s, act("tactic", "earl", H(0, -1)))
    assert s.control[H(0, -1)] == W
    assert s.pending is not None and s.pending.kind == "earl_decree"
    a = act("proclaim", type="earl", decree="reinforce")
    assert a in s.pending.options
    play(s, a)
    assert s.sides[W].supply["earl"] == 4 and s.sealed[W] == {"reinforce"}


def test_earl_tactic_illegal_on_own_location_d22() -> None:
    s = make(["earl"], ["pikeman"], hand={"earl": 1}, decrees=["enlist", "claim", "fortify"])
    put(s, H(1, -3), W, "earl")
    assert not kinds(s, "tactic")


def test_earl_tactic_winning_control_skips_the_decree() -> None:
    s = make(["earl"], ["pikeman"], hand={"earl": 1}, decrees=["enlist", "claim", "fortify"])
    s.sides[W].reserve = 1
    put(s, H(0, -1), W, "earl")
    play(s, act("tactic", "earl", H(0, -1)))
    assert s.phase == OVER and s.pending is None


# Herald
def test_herald_tactic_bolsters_adjacent_single_coin_friend_d23() -> None:
    s = make(["herald", "knight"], ["pikeman"], hand={"herald": 1})
    put(s, H(0, 0), W, "herald")
    put(s, H(1, 0), W, "knight")
    put(s, H(-1, 0), W, "knight", 2)  # not a legal second knight in play, only for the test
    opts = kinds(s, "tactic")
    assert opts == [act("tactic", "herald", H(0, 0), ally=H(1, 0))]
    play(s, opts[0])
    assert s.units[H(1, 0)].height == 2 and s.sides[W].supply["knight"] == 1


def test_herald_maneuvers_after_own_proclamation_d38() -> None:
    s = make(["herald"], ["pikeman"], hand={"royal": 1}, decrees=["reinforce", "claim", "fortify"])
    s.sides[W].elim = {"herald": 1}
    put(s, H(0, 0), W, "herald")
    play(s, act("proclaim", "royal", type="herald", decree="reinforce"))
    assert s.sealed[W] == {"reinforce"}  # the seal is placed before the Herald decision
    assert s.pending is not None and s.pending.kind == "herald_maneuver"
    play(s, act("move", unit=H(0, 0), to=H(0, -1)))
    assert s.units[H(0, -1)].type == "herald"


def test_herald_does_not_answer_opponent_proclamation() -> None:
    s = make(["knight"], ["herald"], hand={"royal": 1}, decrees=["reinforce", "claim", "fortify"])
    s.sides[W].elim = {"knight": 1}
    put(s, H(0, 0), R, "herald")
    play(s, act("proclaim", "royal", type="knight", decree="reinforce"))
    assert s.pending is None


# Decrees
def test_each_side_proclaims_a_decree_once() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["reinforce", "claim", "fortify"])
    s.sides[W].elim = {"knight": 2}
    a = act("proclaim", "royal", type="knight", decree="reinforce")
    assert is_legal(s, a)
    s.sealed[R].add("reinforce")  # the opponent's seal does not stop you
    assert is_legal(s, a)
    s.sealed[W].add("reinforce")
    assert not is_legal(s, a)


def test_decree_not_revealed_cannot_be_proclaimed() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["claim", "fortify", "sortie"])
    s.sides[W].elim = {"knight": 2}
    assert not [a for a in kinds(s, "proclaim") if a.decree == "reinforce"]


def test_enlist_recruits_one_then_optionally_another() -> None:
    s = make(["knight", "mercenary"], ["pikeman"], hand={"royal": 1}, decrees=["enlist", "claim", "fortify"])
    play(s, act("proclaim", "royal", type="knight", decree="enlist"))
    assert s.pending is not None and s.pending.kind == "enlist_second"
    play(s, act("recruit", type="mercenary"))
    assert s.sides[W].up == {"royal": 1, "knight": 1, "mercenary": 1}
    assert s.sealed[W] == {"enlist"}


def test_enlist_illegal_with_empty_supply_d21() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["enlist", "claim", "fortify"])
    s.sides[W].supply = {}
    assert not kinds(s, "proclaim")


def test_redeploy_moves_a_whole_stack_to_a_controlled_location() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["redeploy", "claim", "fortify"])
    put(s, H(0, 0), W, "knight", 3, poison=1)
    a = act("proclaim", "royal", H(0, 0), to=H(3, -2), decree="redeploy")
    assert is_legal(s, a)
    play(s, a)
    assert s.units[H(3, -2)].height == 3 and s.units[H(3, -2)].poison == 1


def test_reinforce_needs_an_eliminated_coin() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["reinforce", "claim", "fortify"])
    assert not [a for a in kinds(s, "proclaim") if a.decree == "reinforce"]


def test_sortie_attacks_from_a_controlled_location() -> None:
    s = make(["swordsman"], ["scout"], hand={"royal": 1}, decrees=["sortie", "claim", "fortify"])
    put(s, H(1, -3), W, "swordsman")
    put(s, H(1, -2), R, "scout", 2)
    a = act("proclaim", "royal", H(1, -3), target=H(1, -2), decree="sortie")
    assert is_legal(s, a)
    play(s, a)
    assert s.units[H(1, -2)].height == 1
    assert s.pending is not None and s.pending.kind == "swordsman_step"


def test_sortie_not_from_a_neutral_hex() -> None:
    s = make(["swordsman"], ["scout"], hand={"royal": 1}, decrees=["sortie", "claim", "fortify"])
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "scout")
    assert not [a for a in kinds(s, "proclaim") if a.decree == "sortie"]


def test_forced_march_moves_a_poisoned_unit_two_hexes() -> None:
    s = make(["knight"], ["saboteur"], hand={"royal": 1}, decrees=["forced_march", "claim", "fortify"])
    put(s, H(0, 0), W, "knight", poison=2)
    a = act("proclaim", "royal", H(0, 0), to=H(2, 0), decree="forced_march")
    assert is_legal(s, a)
    play(s, a)
    assert s.units[H(2, 0)].type == "knight"


def test_forced_march_is_one_berserker_maneuver() -> None:
    s = make(["berserker"], ["saboteur"], hand={"royal": 1}, decrees=["forced_march", "claim", "fortify"])
    put(s, H(0, 0), W, "berserker", 2)
    play(s, act("proclaim", "royal", H(0, 0), to=H(2, 0), decree="forced_march"))
    assert s.pending is not None and s.pending.kind == "berserker_repeat"


def test_fortify_bolsters_even_a_poisoned_unit() -> None:
    s = make(["knight"], ["saboteur"], hand={"royal": 1}, decrees=["forced_march", "claim", "fortify"])
    put(s, H(0, 0), W, "knight", 2, poison=2)
    play(s, act("proclaim", "royal", H(0, 0), decree="fortify"))
    assert s.units[H(0, 0)].height == 3 and s.sides[W].supply["knight"] == 1


def test_claim_takes_the_location_under_a_unit() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["forced_march", "claim", "fortify"])
    put(s, H(-1, 3), W, "knight")  # a Raven start location
    play(s, act("proclaim", "royal", H(-1, 3), decree="claim"))
    assert s.control[H(-1, 3)] == W and s.sides[R].reserve == 5 and s.sides[W].reserve == 3


def test_claim_not_legal_on_own_location() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["forced_march", "claim", "fortify"])
    put(s, H(1, -3), W, "knight")
    assert not [a for a in kinds(s, "proclaim") if a.decree == "claim"]


def test_three_seals_at_most() -> None:
    s = make(["knight"], ["pikeman"], hand={"royal": 1}, decrees=["forced_march", "claim", "fortify"])
    put(s, H(0, 0), W, "knight")
    s.sealed[W].update({"forced_march", "claim", "fortify"})
    assert not kinds(s, "proclaim")
    assert len(legal(s)) >= 1
