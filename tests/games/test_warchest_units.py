"""Base unit abilities (rules/warchest.md §8, §9): one or more tests per tactic and property."""

from __future__ import annotations

from warchest_helpers import H, R, W, act, is_legal, kinds, legal, make, play, put

from duelclub.games.warchest.state import OVER


# §8.1 Archer
def test_archer_tactic_hits_distance_two_over_an_occupied_hex() -> None:
    s = make(["archer"], ["knight"], hand={"archer": 1})
    put(s, H(0, 0), W, "archer")
    put(s, H(1, 0), R, "pikeman")
    put(s, H(2, 0), R, "swordsman", 2)
    a = act("tactic", "archer", H(0, 0), target=H(2, 0))
    assert is_legal(s, a)
    play(s, a)
    assert s.units[H(2, 0)].height == 1
    assert s.units[H(0, 0)].height == 1  # distance 2: no Pikeman counter (§8.1)


def test_archer_cannot_attack_adjacent() -> None:
    s = make(["archer"], ["knight"], hand={"archer": 1})
    put(s, H(0, 0), W, "archer")
    put(s, H(1, 0), R, "swordsman")
    assert not kinds(s, "attack")
    assert not [a for a in kinds(s, "tactic") if a.target == H(1, 0)]


# §8.2 Berserker
def test_berserker_repeat_pays_a_coin_and_maneuvers_again() -> None:
    s = make(["berserker"], ["knight"], hand={"berserker": 1})
    put(s, H(0, 0), W, "berserker", 3)
    play(s, act("move", "berserker", H(0, 0), to=H(1, 0)))
    assert s.pending is not None and s.pending.kind == "berserker_repeat"
    play(s, act("move", unit=H(1, 0), to=H(2, 0)))
    assert s.units[H(2, 0)].height == 2
    assert s.sides[W].up["berserker"] == 2  # played coin + paid coin, face up (D16)
    assert s.pending is not None and s.pending.kind == "berserker_repeat"
    play(s, act("move", unit=H(2, 0), to=H(3, -1)))
    assert s.units[H(3, -1)].height == 1
    assert s.pending is None  # the last coin can never be paid


def test_berserker_repeat_declined() -> None:
    s = make(["berserker"], ["knight"], hand={"berserker": 1})
    put(s, H(0, 0), W, "berserker", 2)
    play(s, act("move", "berserker", H(0, 0), to=H(1, 0)))
    play(s, act("decline"))
    assert s.pending is None and s.units[H(1, 0)].height == 2


def test_berserker_options_use_the_reduced_stack_against_a_knight() -> None:
    s = make(["berserker"], ["knight"], hand={"berserker": 1})
    put(s, H(0, 0), W, "berserker", 2)
    put(s, H(2, 0), R, "knight")
    play(s, act("move", "berserker", H(0, 0), to=H(1, 0)))
    # After paying, the Berserker has 1 coin and may not attack the Knight (§8.2).
    assert s.pending is not None
    assert not [a for a in s.pending.options if a.kind == "attack"]


# §8.3 Cavalry
def test_cavalry_steps_then_attacks() -> None:
    s = make(["cavalry"], ["knight"], hand={"cavalry": 1})
    put(s, H(0, 0), W, "cavalry")
    put(s, H(2, 0), R, "swordsman", 2)
    a = act("tactic", "cavalry", H(0, 0), to=H(1, 0), target=H(2, 0))
    assert is_legal(s, a)
    play(s, a)
    assert H(1, 0) in s.units and s.units[H(2, 0)].height == 1


def test_cavalry_needs_a_target_after_the_step() -> None:
    s = make(["cavalry"], ["knight"], hand={"cavalry": 1})
    put(s, H(0, 0), W, "cavalry")
    put(s, H(3, 0), R, "swordsman")
    assert not kinds(s, "tactic")


# §8.4 Crossbowman
def test_crossbowman_needs_an_empty_middle_hex() -> None:
    s = make(["crossbowman"], ["knight"], hand={"crossbowman": 1})
    put(s, H(0, 0), W, "crossbowman")
    put(s, H(2, 0), R, "swordsman")
    a = act("tactic", "crossbowman", H(0, 0), target=H(2, 0))
    assert is_legal(s, a)
    put(s, H(1, 0), R, "scout")
    assert not is_legal(s, a)


def test_crossbowman_not_off_line_and_may_attack_adjacent() -> None:
    s = make(["crossbowman"], ["knight"], hand={"crossbowman": 1})
    put(s, H(0, 0), W, "crossbowman")
    put(s, H(1, 1), R, "swordsman")  # distance 2, not straight
    put(s, H(0, -1), R, "scout")
    assert not kinds(s, "tactic")
    assert is_legal(s, act("attack", "crossbowman", H(0, 0), target=H(0, -1)))


# §8.5 Ensign
def test_ensign_moves_a_friend_staying_within_two() -> None:
    s = make(["ensign", "knight"], ["pikeman"], hand={"ensign": 1})
    put(s, H(0, 0), W, "ensign")
    put(s, H(2, 0), W, "knight")
    opts = {a.to for a in kinds(s, "tactic") if a.ally == H(2, 0)}
    assert H(1, 0) in opts and H(2, -1) in opts
    assert H(3, 0) not in opts  # distance 3 from the Ensign
    play(s, act("tactic", "ensign", H(0, 0), to=H(1, 1), ally=H(2, 0)))
    assert s.units[H(1, 1)].type == "knight"


def test_ensign_cannot_move_itself_d11() -> None:
    s = make(["ensign"], ["pikeman"], hand={"ensign": 1})
    put(s, H(0, 0), W, "ensign")
    assert not kinds(s, "tactic")


def test_ensign_moves_a_poisoned_friend() -> None:
    s = make(["ensign", "knight"], ["saboteur"], hand={"ensign": 1})
    put(s, H(0, 0), W, "ensign")
    put(s, H(1, 0), W, "knight", poison=2)
    assert [a for a in kinds(s, "tactic") if a.ally == H(1, 0)]


# §8.6 Footman
def test_two_footmen_may_be_deployed_but_not_three() -> None:
    s = make(["footman"], ["knight"], hand={"footman": 1})
    put(s, H(1, -3), W, "footman")
    assert kinds(s, "deploy")
    put(s, H(0, 0), W, "footman")
    assert not kinds(s, "deploy")


def test_footman_tactic_maneuvers_both_footmen() -> None:
    s = make(["footman"], ["knight"], hand={"footman": 1})
    put(s, H(0, 0), W, "footman")
    put(s, H(-2, 0), W, "footman")  # on a neutral location
    play(s, act("tactic", "footman", H(0, 0), to=H(1, 0), maneuver="move"))
    assert s.pending is not None and s.pending.kind == "footman_next"
    assert not s.pending.optional  # D13: mandatory
    assert act("control", unit=H(-2, 0)) in s.pending.options
    play(s, act("control", unit=H(-2, 0)))
    assert s.control[H(-2, 0)] == W


def test_footman_tactic_with_one_footman_is_one_maneuver() -> None:
    s = make(["footman"], ["knight"], hand={"footman": 1})
    put(s, H(0, 0), W, "footman")
    play(s, act("tactic", "footman", H(0, 0), to=H(1, 0), maneuver="move"))
    assert s.pending is None and s.turn == R


# §8.7 Knight
def test_knight_can_be_attacked_only_by_bolstered_units() -> None:
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "knight")
    a = act("attack", "swordsman", H(0, 0), target=H(1, 0))
    assert not is_legal(s, a)
    put(s, H(0, 0), W, "swordsman", 2)
    assert is_legal(s, a)


# §8.8 Lancer
def test_lancer_moves_straight_then_attacks_ahead() -> None:
    s = make(["lancer"], ["knight"], hand={"lancer": 1})
    put(s, H(-2, 0), W, "lancer")
    put(s, H(1, 0), R, "swordsman", 2)
    opts = {(a.to, a.target) for a in kinds(s, "tactic")}
    assert opts == {(H(0, 0), H(1, 0))}  # two steps east, then the next hex east (D14)
    play(s, act("tactic", "lancer", H(-2, 0), to=H(0, 0), target=H(1, 0)))
    assert s.units[H(1, 0)].height == 1


def test_lancer_must_move_and_never_attacks_normally() -> None:
    s = make(["lancer"], ["knight"], hand={"lancer": 1})
    put(s, H(0, 0), W, "lancer")
    put(s, H(1, 0), R, "swordsman")
    assert not kinds(s, "attack")
    assert not kinds(s, "tactic")  # adjacent target needs 0 steps: illegal


# §8.9 Light Cavalry
def test_light_cavalry_moves_exactly_two() -> None:
    s = make(["light_cavalry"], ["knight"], hand={"light_cavalry": 1})
    put(s, H(0, 0), W, "light_cavalry")
    ends = {a.to for a in kinds(s, "tactic")}
    assert H(2, 0) in ends and H(1, 0) in ends  # a bent path may end next to the start (D15)
    assert H(0, 0) not in ends and H(3, 0) not in ends


# §8.10 Marshal
def test_marshal_makes_a_friend_attack() -> None:
    s = make(["marshal", "swordsman"], ["pikeman"], hand={"marshal": 1})
    put(s, H(0, 0), W, "marshal")
    put(s, H(2, 0), W, "swordsman")
    put(s, H(3, 0), R, "scout", 2)
    a = act("tactic", "marshal", H(0, 0), target=H(3, 0), ally=H(2, 0))
    assert is_legal(s, a)
    play(s, a)
    assert s.units[H(3, 0)].height == 1
    assert s.pending is not None and s.pending.kind == "swordsman_step"  # G4


def test_marshal_illegal_without_attacker_and_not_for_itself() -> None:
    s = make(["marshal"], ["pikeman"], hand={"marshal": 1})
    put(s, H(0, 0), W, "marshal")
    put(s, H(1, 0), R, "scout")
    assert not kinds(s, "tactic")  # D11, D12


# §8.11 Mercenary
def test_mercenary_maneuvers_after_recruit() -> None:
    s = make(["mercenary"], ["pikeman"], hand={"royal": 1})
    put(s, H(0, 0), W, "mercenary")
    play(s, act("recruit", "royal", type="mercenary"))
    assert s.pending is not None and s.pending.kind == "mercenary_maneuver"
    play(s, act("move", unit=H(0, 0), to=H(1, 0)))
    assert s.units[H(1, 0)].type == "mercenary"


def test_mercenary_off_board_recruit_has_no_decision() -> None:
    s = make(["mercenary"], ["pikeman"], hand={"royal": 1})
    play(s, act("recruit", "royal", type="mercenary"))
    assert s.pending is None and s.sides[W].up == {"mercenary": 1}


# §8.12 Pikeman
def test_pikeman_counter_removes_attacker_coin() -> None:
    s = make(["swordsman"], ["pikeman"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman", 2)
    put(s, H(1, 0), R, "pikeman", 2)
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert s.units[H(0, 0)].height == 1 and s.units[H(1, 0)].height == 1
    assert s.sides[W].elim == {"swordsman": 1}


def test_pikeman_counter_kills_attacker_which_triggers_nothing() -> None:
    s = make(["swordsman"], ["pikeman"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "pikeman")
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert H(0, 0) not in s.units and H(1, 0) not in s.units  # the hit lands anyway
    assert s.pending is None  # no Swordsman step (G3)


# §8.13 Royal Guard
def test_royal_guard_tactic_paid_with_royal_coin() -> None:
    s = make(["royal_guard"], ["pikeman"], hand={"royal": 1, "royal_guard": 1})
    put(s, H(2, -2), W, "royal_guard")
    a = act("tactic", "royal", H(2, -2), to=H(1, -3))
    assert is_legal(s, a)
    assert not [x for x in legal(s) if x.kind == "tactic" and x.coin == "royal_guard"]
    play(s, a)
    assert s.units[H(1, -3)].type == "royal_guard" and s.sides[W].up == {"royal": 1}


def test_royal_guard_tactic_only_to_controlled_location() -> None:
    s = make(["royal_guard"], ["pikeman"], hand={"royal": 1})
    put(s, H(0, 0), W, "royal_guard")
    assert not [a for a in kinds(s, "tactic")]  # (0,-1) and (0,1) are neutral
    s.control[H(0, -1)] = W
    assert act("tactic", "royal", H(0, 0), to=H(0, -1)) in legal(s)


def test_royal_guard_may_lose_a_supply_coin_instead() -> None:
    s = make(["swordsman"], ["royal_guard"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "royal_guard")
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert s.pending is not None and s.pending.kind == "guard_damage" and s.pending.owner == R
    play(s, act("use_supply"))
    assert s.units[H(1, 0)].height == 1 and s.sides[R].supply["royal_guard"] == 2
    assert s.sides[R].elim == {"royal_guard": 1}


def test_royal_guard_decline_loses_the_stack_coin() -> None:
    s = make(["swordsman"], ["royal_guard"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "royal_guard")
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    play(s, act("decline"))
    assert H(1, 0) not in s.units


# §8.14 Scout
def test_scout_deploys_next_to_any_friend() -> None:
    s = make(["scout", "knight"], ["pikeman"], hand={"scout": 1})
    put(s, H(0, 0), W, "knight")
    hexes = {a.to for a in kinds(s, "deploy")}
    assert H(1, 0) in hexes and H(3, -2) in hexes and H(-2, 0) not in hexes


def test_non_scout_deploys_only_on_controlled_locations() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    assert {a.to for a in kinds(s, "deploy")} == {H(1, -3), H(3, -2)}
    put(s, H(1, -3), R, "pikeman")
    assert {a.to for a in kinds(s, "deploy")} == {H(3, -2)}


# §8.15 Swordsman
def test_swordsman_may_step_after_attacking() -> None:
    s = make(["swordsman"], ["knight"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "scout", 2)
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert s.pending is not None and s.pending.kind == "swordsman_step"
    play(s, act("move", unit=H(0, 0), to=H(-1, 0)))
    assert s.units[H(-1, 0)].type == "swordsman"


def test_poisoned_swordsman_gets_no_step() -> None:
    s = make(["swordsman"], ["saboteur"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman", poison=2)
    put(s, H(1, 0), R, "scout", 2)
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert s.pending is None


# §8.16 Warrior Priest
def test_warrior_priest_draws_and_plays_after_control() -> None:
    s = make(["warrior_priest", "knight"], ["pikeman"], hand={"warrior_priest": 1})
    s.sides[W].bag = {"knight": 1}
    put(s, H(0, -1), W, "warrior_priest")
    play(s, act("control", "warrior_priest", H(0, -1)))
    assert s.control[H(0, -1)] == W
    assert s.pending is not None and s.pending.kind == "wp_play" and s.pending.data == ("knight",)
    assert act("pass", "knight") in s.pending.options and not s.pending.optional
    play(s, act("deploy", "knight", to=H(1, -3)))
    assert s.units[H(1, -3)].type == "knight" and s.sides[W].hand == {}


def test_warrior_priest_draw_refills_from_discard_including_played_coin_d19() -> None:
    s = make(["warrior_priest"], ["knight"], hand={"warrior_priest": 1})
    put(s, H(0, 0), W, "warrior_priest")
    put(s, H(1, 0), R, "scout", 2)
    play(s, act("attack", "warrior_priest", H(0, 0), target=H(1, 0)))
    assert s.pending is not None and s.pending.data == ("warrior_priest",)


def test_warrior_priest_attack_needs_its_own_coin() -> None:
    s = make(["warrior_priest"], ["knight"], hand={"warrior_priest": 1})
    put(s, H(0, 0), W, "warrior_priest")
    put(s, H(1, 0), R, "scout", 2)
    s.sides[W].hand = {"royal": 1}
    engine_play = act("attack", "warrior_priest", H(0, 0), target=H(1, 0))
    assert not is_legal(s, engine_play)  # no Priest coin in hand


# §9 and §10
def test_control_win_ends_the_match_immediately() -> None:
    s = make(["knight"], ["pikeman"], hand={"knight": 1})
    s.sides[W].reserve = 1
    put(s, H(0, -1), W, "knight")
    play(s, act("control", "knight", H(0, -1)))
    assert s.phase == OVER and s.outcome is not None and s.outcome.reason == "control"
    assert s.outcome.winner == s.seat_of(W)
