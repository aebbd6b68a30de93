"""Nightfall (rules/warchest.md §12): poison, cure, decoys, Infiltrator, Skirmisher, Assassin, Saboteur."""

from __future__ import annotations

from warchest_helpers import H, R, W, act, is_legal, kinds, legal, make, play, put

from duelclub.games.warchest.units import ASSASSIN_SEAL, SABOTEUR_SEAL


# §12.1 poison
def test_poisoned_unit_cannot_move_or_bolster_with_own_coins() -> None:
    s = make(["knight"], ["saboteur"], hand={"knight": 1})
    put(s, H(0, 0), W, "knight", poison=SABOTEUR_SEAL)
    assert not kinds(s, "move") and not kinds(s, "bolster")
    assert kinds(s, "cure")


def test_poisoned_unit_still_attacks_and_controls() -> None:
    s = make(["knight"], ["saboteur"], hand={"knight": 1})
    put(s, H(0, -1), W, "knight", poison=SABOTEUR_SEAL)
    put(s, H(1, -1), R, "scout")
    assert kinds(s, "attack") and kinds(s, "control")


def test_cure_removes_all_seals() -> None:
    s = make(["knight"], ["saboteur", "assassin"], hand={"knight": 1})
    put(s, H(0, 0), W, "knight", poison=SABOTEUR_SEAL | ASSASSIN_SEAL)
    play(s, act("cure", "knight", H(0, 0)))
    assert s.units[H(0, 0)].poison == 0 and s.sides[W].up == {"knight": 1}


def test_cure_illegal_without_poison() -> None:
    s = make(["knight"], ["saboteur"], hand={"knight": 1})
    put(s, H(0, 0), W, "knight")
    assert not kinds(s, "cure")


def test_new_poisoning_moves_the_seal_d26() -> None:
    s = make(["saboteur"], ["knight", "scout"], hand={"saboteur": 1})
    put(s, H(0, 0), W, "saboteur")
    put(s, H(1, 0), R, "knight", poison=SABOTEUR_SEAL)
    put(s, H(-1, 0), R, "scout")
    assert not [a for a in kinds(s, "tactic") if a.target == H(1, 0)]  # already carries it
    play(s, act("tactic", "saboteur", H(0, 0), target=H(-1, 0)))
    assert s.units[H(1, 0)].poison == 0 and s.units[H(-1, 0)].poison == SABOTEUR_SEAL


def test_seal_returns_when_poisoned_unit_dies() -> None:
    s = make(["swordsman"], ["scout"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "scout", poison=SABOTEUR_SEAL)
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert not any(u.poison for u in s.units.values())


# §12.2 decoys
def test_decoy_may_only_be_purged_or_played_face_down() -> None:
    s = make(["knight"], ["infiltrator"], hand={"decoy:infiltrator": 1})
    kinds_ = {a.kind for a in legal(s)}
    assert kinds_ == {"purge", "pass", "recruit"}  # Wolf holds the initiative already
    play(s, act("purge", "decoy:infiltrator"))
    assert s.sides[W].up == {} and s.sides[W].down == {}


def test_decoy_played_face_down_keeps_cycling() -> None:
    s = make(["knight"], ["infiltrator"], hand={"decoy:infiltrator": 1})
    play(s, act("pass", "decoy:infiltrator"))
    assert s.sides[W].down == {"decoy:infiltrator": 1}


# §12.3 Infiltrator
def test_infiltrator_tactic_takes_an_adjacent_enemy_location_and_plants() -> None:
    s = make(["infiltrator"], ["knight"], hand={"infiltrator": 1})
    put(s, H(-1, 2), W, "infiltrator")
    a = act("tactic", "infiltrator", H(-1, 2), to=H(-1, 3))
    assert is_legal(s, a)
    play(s, a)
    assert s.control[H(-1, 3)] == W
    assert s.sides[R].up == {"decoy:infiltrator": 1} and s.sides[W].decoys == {"infiltrator": 2}


def test_infiltrator_tactic_not_onto_neutral_or_when_poisoned() -> None:
    s = make(["infiltrator"], ["knight"], hand={"infiltrator": 1})
    put(s, H(0, 0), W, "infiltrator")
    assert not kinds(s, "tactic")
    s = make(["infiltrator"], ["saboteur"], hand={"infiltrator": 1})
    put(s, H(-1, 2), W, "infiltrator", poison=SABOTEUR_SEAL)
    assert not kinds(s, "tactic")


def test_infiltrator_control_maneuver_also_plants() -> None:
    s = make(["infiltrator"], ["knight"], hand={"infiltrator": 1})
    put(s, H(0, -1), W, "infiltrator")
    play(s, act("control", "infiltrator", H(0, -1)))
    assert s.sides[R].up == {"decoy:infiltrator": 1}


def test_infiltrator_empty_pool_plants_nothing() -> None:
    s = make(["infiltrator"], ["knight"], hand={"infiltrator": 1})
    s.sides[W].decoys = {}
    put(s, H(0, -1), W, "infiltrator")
    play(s, act("control", "infiltrator", H(0, -1)))
    assert s.sides[R].up == {}


# §12.4 Skirmisher
def test_skirmisher_tactic_ends_next_to_an_enemy() -> None:
    s = make(["skirmisher"], ["knight"], hand={"skirmisher": 1})
    put(s, H(0, 0), W, "skirmisher")
    put(s, H(3, 0), R, "knight")
    ends = {a.to for a in kinds(s, "tactic")}
    assert ends == {H(2, 0)}  # the only hex within 2 steps that touches the Knight


def test_skirmisher_tactic_illegal_when_poisoned() -> None:
    s = make(["skirmisher"], ["saboteur"], hand={"skirmisher": 1})
    put(s, H(0, 0), W, "skirmisher", poison=SABOTEUR_SEAL)
    put(s, H(2, 0), R, "saboteur")
    assert not kinds(s, "tactic")


def test_skirmisher_decoy_absorbs_an_attack() -> None:
    s = make(["swordsman"], ["skirmisher"], hand={"swordsman": 1})
    put(s, H(0, 0), W, "swordsman")
    put(s, H(1, 0), R, "skirmisher")
    play(s, act("attack", "swordsman", H(0, 0), target=H(1, 0)))
    assert s.pending is not None and s.pending.kind == "skirmisher_damage" and s.pending.owner == R
    play(s, act("plant_decoy"))
    assert s.units[H(1, 0)].height == 1
    assert s.sides[W].up == {"swordsman": 1, "decoy:skirmisher": 1}
    assert s.pending is not None and s.pending.kind == "swordsman_step"  # the attack still counts


# §12.5 Assassin
def test_assassin_tactic_steps_then_poisons() -> None:
    s = make(["assassin"], ["knight"], hand={"assassin": 1})
    put(s, H(0, 0), W, "assassin")
    put(s, H(2, 0), R, "knight")
    a = act("tactic", "assassin", H(0, 0), to=H(1, 0), target=H(2, 0))
    assert is_legal(s, a)
    play(s, a)
    assert s.units[H(2, 0)].poison == ASSASSIN_SEAL


def test_assassin_bonus_removes_a_supply_coin_of_poisoned_target_d30() -> None:
    s = make(["assassin"], ["scout"], hand={"assassin": 1})
    put(s, H(0, 0), W, "assassin")
    put(s, H(1, 0), R, "scout", poison=ASSASSIN_SEAL)
    play(s, act("attack", "assassin", H(0, 0), target=H(1, 0)))
    assert s.sides[R].supply["scout"] == 2 and s.sides[R].elim == {"scout": 2}


def test_assassin_bonus_not_on_unpoisoned_target() -> None:
    s = make(["assassin"], ["scout"], hand={"assassin": 1})
    put(s, H(0, 0), W, "assassin")
    put(s, H(1, 0), R, "scout", 2)
    play(s, act("attack", "assassin", H(0, 0), target=H(1, 0)))
    assert s.sides[R].supply["scout"] == 3


def test_assassin_killed_by_pikeman_gets_no_bonus_d36() -> None:
    s = make(["assassin"], ["pikeman"], hand={"assassin": 1})
    put(s, H(0, 0), W, "assassin")
    put(s, H(1, 0), R, "pikeman", 2, poison=ASSASSIN_SEAL)
    play(s, act("attack", "assassin", H(0, 0), target=H(1, 0)))
    assert H(0, 0) not in s.units and s.sides[R].supply["pikeman"] == 2


# §12.6 Saboteur
def test_saboteur_poisons_at_two_in_line_over_a_unit_d29() -> None:
    s = make(["saboteur"], ["knight", "scout"], hand={"saboteur": 1})
    put(s, H(0, 0), W, "saboteur", poison=ASSASSIN_SEAL)  # poisoned Saboteur may still use it
    put(s, H(1, 0), R, "scout")
    put(s, H(2, 0), R, "knight")
    put(s, H(1, 1), R, "knight")  # distance 2 but not straight: no
    targets = {a.target for a in kinds(s, "tactic")}
    assert targets == {H(1, 0), H(2, 0)}


def test_saboteur_free_poison_after_recruit() -> None:
    s = make(["saboteur"], ["knight"], hand={"royal": 1})
    put(s, H(0, 0), W, "saboteur")
    put(s, H(1, 0), R, "knight")
    play(s, act("recruit", "royal", type="saboteur"))
    assert s.pending is not None and s.pending.kind == "saboteur_poison"
    play(s, act("poison", unit=H(0, 0), target=H(1, 0)))
    assert s.units[H(1, 0)].poison == SABOTEUR_SEAL


def test_warrior_priest_coin_may_cure_d37() -> None:
    s = make(["warrior_priest", "knight"], ["saboteur"], hand={"warrior_priest": 1})
    s.sides[W].bag = {"knight": 1}
    put(s, H(0, -1), W, "warrior_priest")
    put(s, H(1, -3), W, "knight", poison=SABOTEUR_SEAL)
    play(s, act("control", "warrior_priest", H(0, -1)))
    assert s.pending is not None and act("cure", "knight", H(1, -3)) in s.pending.options
