"""``WarchestGame``: the :class:`~duelclub.games.contract.Game` for Сундук войны (rules/warchest.md).

>>> from duelclub.games.warchest import GAME
>>> s = GAME.new_match(bytes(32), GAME.parse_options({"expansions": "both"}))
>>> GAME.legal_actions(s, next(iter(GAME.to_move(s))))[0].kind
'pick'
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.contract import JSON, ClockMode, Game, IllegalAction, Outcome, Seat
from duelclub.games.warchest import determinize as _determinize
from duelclub.games.warchest import draft, engine, view
from duelclub.games.warchest import position as _position
from duelclub.games.warchest.actions import ACTION_ADAPTER, Action, Resign, WarchestAction, WarchestOptions
from duelclub.games.warchest.board import HEXES, IS_LOCATION, START_LOCATIONS
from duelclub.games.warchest.state import OVER, PLAY, State
from duelclub.games.warchest.units import DECREES, UNIT_TYPES
from duelclub.games.warchest.words import HEX_LABELS, render, say
from duelclub.i18n import N_
from duelclub.i18n import gettext as _

EXPANSION_LABELS = {
    "base": N_("Базовая игра"),
    "nobility": N_("+ Знать"),
    "nightfall": N_("+ Ночь"),
    "both": N_("+ Знать и Ночь"),
}
DRAFT_LABELS = {
    "club": N_("клубный драфт 1-2-2-2-1"),
    "eight": N_("драфт из восьми"),
    "random": N_("случайная раздача"),
}
SIDE_LABELS = {"random": N_("по жребию"), "wolf": N_("Волк"), "raven": N_("Ворон")}


class WarchestGame(Game[State, WarchestAction, WarchestOptions]):
    """Сундук войны: bag-building hex duel with the Nobility and Nightfall expansions."""

    slug: ClassVar[str] = "warchest"
    title: ClassVar[str] = "Сундук войны"
    options_model: ClassVar[type[BaseModel]] = WarchestOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    bot_levels: ClassVar[tuple[str, ...]] = ("easy", "hard")
    tagline: ClassVar[str] = N_("мешок монет · гексы · драфт отрядов · Знать и Ночь")
    summary: ClassVar[str] = N_(
        "Каждая монета — и юнит на поле, и валюта действий: вы тянете их из мешка вслепую. "
        "Наберите четыре отряда на драфте и первым поставьте все шесть маркеров на локации."
    )
    clock_mode: ClassVar[ClockMode] = "optional"
    worded_events: ClassVar[bool] = True  # event texts in the reader's language (words.py)

    def catalog(self) -> JSON:
        return {
            "hexes": [list(qr) for qr in HEXES],
            "hex_labels": list(HEX_LABELS),
            "locations": [h for h in range(len(HEXES)) if IS_LOCATION[h]],
            "starts": {"wolf": list(START_LOCATIONS[0]), "raven": list(START_LOCATIONS[1])},
            # names are proper names (as the rules give them); the card texts in the request's language
            "units": [
                {"id": u.id, "ru": u.ru, "coins": u.coins, "expansion": u.expansion,
                 "tactic": _(u.tactic) if u.tactic else "", "property": _(u.prop) if u.prop else ""}
                for u in UNIT_TYPES
            ],
            "decrees": [{"id": d.id, "ru": d.ru, "text": _(d.text)} for d in DECREES],
        }  # fmt: skip

    def options_form(self) -> list[JSON]:
        return [
            {
                "name": "expansions",
                "label": _("Дополнения"),
                "choices": [{"value": k, "label": _(v)} for k, v in EXPANSION_LABELS.items()],
                "default": "base",  # a newcomer starts with the base game (issue 16 §6)
            },
            {
                "name": "side",
                "label": _("Ваша сторона"),
                "choices": [
                    {"value": "random", "label": _("По жребию")},
                    {"value": "wolf", "label": _("Волк"), "hint": _("золото, начинает с инициативой")},
                    {"value": "raven", "label": _("Ворон"), "hint": _("серебро, первым выбирает отряд")},
                ],
                "default": "random",
            },
            {
                "name": "draft",
                "label": _("Драфт"),
                "choices": [
                    {"value": "club", "label": _("Клубный 1-2-2-2-1"), "hint": _("из всего пула")},
                    {"value": "eight", "label": _("Из восьми"), "hint": _("8 случайных отрядов")},
                    {"value": "random", "label": _("Случайная раздача"), "hint": _("без выбора")},
                ],
                "default": "club",
            },
        ]

    def options_text(self, options: WarchestOptions, seat: Seat | None) -> str:
        base = f"{_(EXPANSION_LABELS[options.expansions])}, {_(DRAFT_LABELS[options.draft])}"
        if options.side == "random":
            return _("%(base)s, стороны по жребию", base=base)
        if seat is None:
            return _("%(base)s, игрок 1 — %(side)s", base=base, side=_(SIDE_LABELS[options.side]))
        mine = options.side if seat == 0 else ("raven" if options.side == "wolf" else "wolf")
        return _("%(base)s, вы — %(side)s", base=base, side=_(SIDE_LABELS[mine]))

    def new_match(self, key: bytes, options: WarchestOptions) -> State:
        s = draft.new_state(key, options)
        if s.phase == PLAY:
            engine.start_round(s, [])
        return s

    def to_move(self, state: State) -> frozenset[Seat]:
        side = engine.to_move_side(state)
        return frozenset() if side is None else frozenset({state.seat_of(side)})

    def legal_actions(self, state: State, seat: Seat) -> list[WarchestAction]:
        return list(engine.legal(state, state.side_of(seat)))

    def apply(self, state: State, seat: Seat, action: WarchestAction) -> list[JSON]:
        if isinstance(action, Resign):
            if state.outcome is not None:
                raise IllegalAction("match_over", "the match is over")
            state.outcome = Outcome(1 - seat, "resign")
            state.phase = OVER
            state.pending = None
            state.stack.clear()
            words = say(N_("сдаётся"))
            return [{"kind": "resign", "seat": seat, "text": render(words, "ru"), "say": words}]
        if seat not in (0, 1):
            raise IllegalAction("not_your_turn", "no such seat")
        return engine.apply(state, state.side_of(seat), action)

    def action_to_json(self, action: WarchestAction) -> JSON:
        return action.model_dump(mode="json", exclude_none=True)

    def view(self, state: State, seat: Seat | None) -> JSON:
        return view.view(state, seat)

    def full_view(self, state: State) -> JSON:
        return view.full_view(state)

    def event_view(self, state: State, event: JSON, seat: Seat | None) -> JSON | None:
        return view.event_view(state, event, seat)

    def determinize(self, state: State, seat: Seat, rng: random.Random) -> State:
        return _determinize.determinize(state, seat, rng)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def timeout_action(self, state: State, seat: Seat) -> WarchestAction:
        """Draft: the first available type; a pending decision: decline (Pass with the drawn coin for
        ``wp_play``) or its first option; a normal turn: Pass with the first hand coin (§16)."""
        return engine.timeout(state, state.side_of(seat))

    def to_position(self, state: State) -> JSON:
        return _position.to_position(state)

    def from_position(self, position: JSON) -> State:
        return _position.from_position(position)

    def copy(self, state: State) -> State:
        return state.copy()

    def is_resign(self, action: WarchestAction) -> bool:
        return action.kind == "resign"


__all__ = ["Action", "WarchestGame"]
