"""``MezhaGame``: the :class:`~duelclub.games.contract.Game` implementation for Межа (rules/mezha.md).

>>> from duelclub.games.mezha import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"house": "gorn"}))
>>> sorted(GAME.to_move(state)) in ([0], [1])
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.contract import JSON, ClockMode, Game, Outcome, Seat
from duelclub.games.mezha import determinize as _determinize
from duelclub.games.mezha import position as _position
from duelclub.games.mezha import rules, view
from duelclub.games.mezha.actions import ACTION_ADAPTER, MezhaAction, MezhaOptions
from duelclub.games.mezha.cards import catalog
from duelclub.games.mezha.state import State
from duelclub.i18n import N_
from duelclub.i18n import gettext as _

HOUSE_NAMES = {"olkha": N_("Дом Ольхи"), "gorn": N_("Дом Горна")}
"""The houses in words (§Houses and decks); Russian msgids, translated where shown."""


class MezhaGame(Game[State, MezhaAction, MezhaOptions]):
    """Межа: a three-field, three-season card duel of two houses (Ольха, Горн). Never rated."""

    slug: ClassVar[str] = "mezha"
    title: ClassVar[str] = "Межа"
    options_model: ClassVar[type[BaseModel]] = MezhaOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    bot_levels: ClassVar[tuple[str, ...]] = ("novice", "light", "medium", "strong", "master")
    tagline: ClassVar[str] = N_("карточная дуэль · до трёх сезонов · рейтинг не меняется")
    summary: ClassVar[str] = N_(
        "Два дома делят три поля — Луг, Брод и Холм. Сезон берёт тот, кто возьмёт больше полей; "
        "матч — тот, кто первым выиграет два сезона."
    )
    clock_mode: ClassVar[ClockMode] = "none"  # rules/mezha.md D19: turn time is unlimited
    rated: ClassVar[bool] = False  # the club's page: «Рейтинг Межа пока не меняет»

    def catalog(self) -> JSON:
        return catalog()

    def options_form(self) -> list[JSON]:
        """One field, the opener's house (§Houses and decks); the other seat gets the other house."""
        hints = {"olkha": _("прячется, растёт, остаётся"), "gorn": _("бьёт, держит строй, зовёт подмогу")}
        return [
            {
                "name": "house",
                "label": _("Ваш дом"),
                "choices": [
                    {"value": h, "label": _(name), "hint": hints[h]} for h, name in HOUSE_NAMES.items()
                ],
                "default": "olkha",
            }
        ]

    def options_text(self, options: MezhaOptions, seat: Seat | None) -> str:
        """«Ваш дом: Дом Горна» for a seat, «Дом Ольхи у игрока 1» for a third party."""
        house0 = options.house
        if seat is None:
            return _("%(house)s у игрока 1", house=_(HOUSE_NAMES[house0]))
        mine = house0 if seat == 0 else ("gorn" if house0 == "olkha" else "olkha")
        return _("Ваш дом: %(house)s", house=_(HOUSE_NAMES[mine]))

    def new_match(self, key: bytes, options: MezhaOptions) -> State:
        """Deal from the match key ``K`` (fairness.md); ``options.house`` is seat 0's house."""
        return rules.new_state(key, options.house)

    def to_move(self, state: State) -> frozenset[Seat]:
        return rules.to_move(state)

    def legal_actions(self, state: State, seat: Seat) -> list[MezhaAction]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: Seat, action: MezhaAction) -> list[JSON]:
        return rules.apply(state, seat, action)

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

    def timeout_action(self, state: State, seat: Seat) -> MezhaAction:
        return rules.timeout_action(state, seat)

    def to_position(self, state: State) -> JSON:
        return _position.to_position(state)

    def from_position(self, position: JSON) -> State:
        return _position.from_position(position)

    def copy(self, state: State) -> State:
        return state.copy()

    def is_resign(self, action: MezhaAction) -> bool:
        return action.kind == "resign"
