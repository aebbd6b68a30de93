"""Card effects: draws, damage, unit entry (D14) and the two tactics (rules/mezha.md §Abilities).

Every function mutates the state and appends events (JSON dicts) to ``events``. Event shapes are listed in
``rules.py``'s module docstring. An event about a unit carries ``seat`` (the unit's owner), ``field``,
``placement``, ``card``, ``strength`` and ``face_down``; when ``face_down`` is true, ``card``,
``strength`` and ``amount`` are private to ``seat`` (see ``view.event_view``).
"""

from __future__ import annotations

from typing import Literal

from duelclub.games.mezha.cards import (
    DROUGHT,
    DROUGHT_SLOTS,
    ENTRY,
    HALF_SLOTS,
    HAND_LIMIT,
    HAS_SPROUT,
    HIDDEN,
    IDS,
    LONER_BONUS,
    LONER_ENTRY,
    PODZHOG,
    PODZHOG_DAMAGE,
    RALLY_ENTRY,
    SHOT_DAMAGE,
    SHOT_ENTRY,
    THAW,
    THAW_BONUS,
)
from duelclub.games.mezha.events import BuffEvent, BurnEvent, DrawReason, Events, RallyEvent
from duelclub.games.mezha.state import State, Unit, take_card


def buff_event(
    kind: Literal["thaw", "loner", "sprout", "rosa_buff"], seat: int, field: int, u: Unit, amount: int
) -> BuffEvent:
    """``u`` grew by ``amount`` (its new ``strength``); private parts flagged by ``face_down``."""
    return {
        "kind": kind,
        "seat": seat,
        "field": field,
        "placement": u.placement,
        "card": IDS[u.kind],
        "strength": u.strength,
        "face_down": u.face_down,
        "amount": amount,
    }


def draw(state: State, seat: int, reason: DrawReason, events: Events) -> None:
    """Draw one card (D5: skipped with 10 cards in hand or an empty deck; the card stays on top).

    Emits ``draw {seat, card, reason}`` (``card`` private to the drawer) or
    ``draw_skipped {seat, reason, cause: "hand_full" | "deck_empty"}``. ``reason`` is
    ``"messenger"``, ``"fair"`` or ``"season"``.
    """
    hand = state.hands[seat]
    if sum(hand) >= HAND_LIMIT:
        events.append({"kind": "draw_skipped", "seat": seat, "reason": reason, "cause": "hand_full"})
        return
    deck = state.decks[seat]
    if not deck:
        events.append({"kind": "draw_skipped", "seat": seat, "reason": reason, "cause": "deck_empty"})
        return
    k = deck.pop(0)
    hand[k] += 1  # add_card, inlined
    state.in_hand[seat] |= 1 << k
    events.append({"kind": "draw", "seat": seat, "card": IDS[k], "reason": reason})


def damage(state: State, field: int, seat: int, u: Unit, amount: int) -> tuple[bool, bool]:
    """Deal ``amount`` damage to ``seat``'s unit ``u`` on ``field``; returns ``(shield_absorbed, burned)``.

    §Abilities — Щит: the first damage is cancelled entirely and the shield is spent. §Strength, damage,
    burning: at 0 or less the unit burns: it goes to its owner's discard at once, freeing its slot.
    """
    if u.shield:
        u.shield = False
        return True, False
    u.strength -= amount
    if u.strength <= 0:
        half = state.halves[field][seat]
        half.remove(u)
        if len(half) < state.capacity():
            state.room[seat] |= 1 << field
        state.discards[seat].append(u.kind)
        return False, True
    return False, False


def burn_event(seat: int, field: int, u: Unit, cause: Literal["shot", "podzhog", "lightning"]) -> BurnEvent:
    return {
        "kind": "burn",
        "seat": seat,
        "field": field,
        "placement": u.placement,
        "card": IDS[u.kind],
        "cause": cause,
    }


def strongest(units: list[Unit]) -> Unit | None:
    """The strongest unit; ties go to the one placed later (§Strength — ties; D13)."""
    best: Unit | None = None
    for u in units:
        if (
            best is None
            or u.strength > best.strength
            or (u.strength == best.strength and u.placement > best.placement)
        ):
            best = u
    return best


def _shoot(state: State, seat: int, field: int, shooter: Unit, events: Events) -> None:
    # rules/mezha.md §Abilities — Выстрел: the strongest face-up enemy unit on that field; none: no effect.
    enemy = 1 - seat
    target = strongest([u for u in state.halves[field][enemy] if not u.face_down])
    if target is None:
        return
    dmg = SHOT_DAMAGE[shooter.kind]
    absorbed, burned = damage(state, field, enemy, target, dmg)
    events.append(
        {
            "kind": "shot",
            "seat": seat,
            "field": field,
            "placement": shooter.placement,
            "card": IDS[shooter.kind],
            "damage": dmg,
            "target_seat": enemy,
            "target_placement": target.placement,
            "target_card": IDS[target.kind],
            "target_strength": target.strength,
            "shield_absorbed": absorbed,
            "burned": burned,
        }
    )
    if burned:
        events.append(burn_event(enemy, field, target, "shot"))


def enter_unit(state: State, seat: int, kind: int, field: int, events: Events) -> None:
    """Put unit ``kind`` from ``seat``'s hand onto its half of ``field``, in the D14 entry sequence.

    The caller has checked that the card is in hand and the half has a free slot.
    """
    hand = state.hands[seat]  # (1) the card leaves the hand (take_card, inlined: this is the hot path)
    left = hand[kind] = hand[kind] - 1
    if not left:
        state.in_hand[seat] &= ~(1 << kind)
    # The owner's other units on that field, face-down and carried ones included: the half itself, as the new
    # unit joins it only at the end (steps 3-6 never read it again nor remove an own unit).
    others = state.halves[field][seat]
    placement = state.placements = state.placements + 1  # (2) a slot and the next placement number (D13)
    face_down = HIDDEN[kind]  # тайник enters face down
    season = state.season
    u = Unit(kind, placement, face_down, season)
    omen = state.omens[season - 1]
    if len(others) + 1 >= (DROUGHT_SLOTS if omen == DROUGHT else HALF_SLOTS):
        state.room[seat] &= ~(1 << field)
    events.append(
        {
            "kind": "play",
            "seat": seat,
            "field": field,
            "placement": placement,
            "card": IDS[kind],
            "strength": u.strength,
            "face_down": face_down,
        }
    )
    # (3) Оттепель (D16): the first unit this player puts onto this field this season, face down included
    thaw_used = state.thaw_used[seat]
    if not thaw_used[field]:
        thaw_used[field] = True
        if omen == THAW:
            u.strength += THAW_BONUS
            u.thaw = True
            events.append(buff_event("thaw", seat, field, u, THAW_BONUS))
    # (4) одиночка, or (5) the card's own entry effect (no card has two)
    entry = ENTRY[kind]
    if not entry:  # NO_ENTRY, most units
        pass
    elif entry == LONER_ENTRY:
        if not others:  # одиночка: no other own unit on that field
            u.strength += LONER_BONUS
            events.append(buff_event("loner", seat, field, u, LONER_BONUS))
    elif entry == RALLY_ENTRY:
        # D12: one-time +1 to the owner's other units then on that field
        for o in others:
            o.strength += 1
        rally: RallyEvent = {
            "kind": "rally",
            "seat": seat,
            "field": field,
            "placement": placement,
            "card": IDS[kind],
            "strength": u.strength,
            "face_down": face_down,
            "targets": [
                {"placement": o.placement, "card": IDS[o.kind], "strength": o.strength} for o in others
            ],
        }
        events.append(rally)
    elif entry == SHOT_ENTRY:
        _shoot(state, seat, field, u, events)
    else:  # MESSENGER_ENTRY
        draw(state, seat, "messenger", events)
    # (6) росток: +1 to each other own росток unit of that field, face up or down
    for o in others:
        o.opps += 1
        if HAS_SPROUT[o.kind]:
            o.strength += 1
            events.append(buff_event("sprout", seat, field, o, 1))
    others.append(u)


def play_tactic(state: State, seat: int, kind: int, field: int, events: Events) -> None:
    """Play Роса or Поджог on ``field`` (D6: any field, even where it does nothing); the card is discarded.

    Emits ``rosa``/``podzhog {seat, card, field}``, then one ``rosa_buff`` per own unit or one
    ``podzhog_hit`` (+ ``burn``) per face-up enemy unit, in placement order.
    """
    take_card(state, seat, kind)
    state.discards[seat].append(kind)
    if kind == PODZHOG:
        events.append({"kind": "podzhog", "seat": seat, "card": "podzhog", "field": field})
        # §Abilities — Поджог: 2 damage to each face-up enemy unit on that field (shields absorb it)
        enemy = 1 - seat
        for t in [u for u in state.halves[field][enemy] if not u.face_down]:
            absorbed, burned = damage(state, field, enemy, t, PODZHOG_DAMAGE)
            events.append(
                {
                    "kind": "podzhog_hit",
                    "seat": seat,
                    "field": field,
                    "target_seat": enemy,
                    "target_placement": t.placement,
                    "target_card": IDS[t.kind],
                    "target_strength": t.strength,
                    "damage": PODZHOG_DAMAGE,
                    "shield_absorbed": absorbed,
                    "burned": burned,
                }
            )
            if burned:
                events.append(burn_event(enemy, field, t, "podzhog"))
        return
    # §Abilities — Роса: +1 to each own unit on that field, +2 to росток units
    events.append({"kind": "rosa", "seat": seat, "card": "rosa", "field": field})
    for u in state.halves[field][seat]:
        amount = 2 if HAS_SPROUT[u.kind] else 1
        u.strength += amount
        u.rosa += 1
        events.append(buff_event("rosa_buff", seat, field, u, amount))
