"""``TowersGame``: the :class:`~duelclub.games.contract.Game` implementation for Дві вежі (rules/towers.md).

>>> from duelclub.games.towers import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"battlefield": "wind_square"}))
>>> GAME.view(state, 0)["players"][0]["tower"], len(GAME.view(state, 0)["hand"])
(20, 6)
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.contract import JSON, ClockMode, Game, Outcome, Seat
from duelclub.games.towers import determinize as _determinize
from duelclub.games.towers import position as _position
from duelclub.games.towers import rules, view
from duelclub.games.towers.actions import ACTION_ADAPTER, TowersAction, TowersOptions
from duelclub.games.towers.battlefields import BATTLEFIELD_INDEX, BATTLEFIELDS
from duelclub.games.towers.card_texts import CARD_TEXT
from duelclub.games.towers.cards import CARDS, HAND_SIZE
from duelclub.games.towers.state import State
from duelclub.i18n import N_
from duelclub.i18n import gettext as _

DECK_NAMES: dict[str, str] = {"normal": N_("обычная"), "infinite": N_("бесконечная")}
"""Deck type → its name inside a sentence («колода: обычная»), a msgid."""
DECK_LABELS: dict[str, str] = {"normal": N_("Обычная"), "infinite": N_("Бесконечная")}


class TowersGame(Game[State, TowersAction, TowersOptions]):
    """Дві вежі: build your tower or destroy the other one; 102 cards, 8 battlefields, two deck types."""

    slug: ClassVar[str] = "towers"
    title: ClassVar[str] = "Дві вежі"
    tagline: ClassVar[str] = N_("дуэль башен · 102 карты · 8 полей битвы")
    summary: ClassVar[str] = N_(
        "Каждый ход ваши шахты, монастыри и казармы дают руду, ману и отряды; на них вы разыгрываете карты: "
        "строите башню и стену, бьёте по противнику, отнимаете его ресурсы. Побеждает тот, кто первым "
        "достроит башню до цели поля, соберёт нужный запас ресурса или разрушит башню соперника."
    )
    options_model: ClassVar[type[BaseModel]] = TowersOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    bot_levels: ClassVar[tuple[str, ...]] = ("easy", "hard")
    clock_mode: ClassVar[ClockMode] = "required"  # §9, D39: every game between members is a duel

    def catalog(self) -> JSON:
        """The UI catalog in the request's language: card effect texts and deck types translated (card and
        battlefield names are proper names, as the seed gives them)."""
        return {
            "cards": [{**CARDS[c].to_json(), "text": _(CARD_TEXT[c])} for c in sorted(CARDS)],
            "battlefields": [b.to_json() for b in BATTLEFIELDS],
            "decks": [{"id": k, "name": _(DECK_LABELS[k])} for k in DECK_NAMES],
            "hand_size": HAND_SIZE,
        }

    def options_form(self) -> list[JSON]:
        fields = [
            {
                "value": b.id,
                "label": b.name,
                "hint": _(
                    "башня %(tower)s, стена %(wall)s · цель: башня %(goal)s или %(resource)s ресурса",
                    tower=b.start[0],
                    wall=b.start[1],
                    goal=b.victory_tower,
                    resource=b.victory_resource,
                ),
            }
            for b in BATTLEFIELDS
        ]
        hints = {
            "normal": _("102 карты по одной, сброс перемешивается заново"),
            "infinite": _("каждая карта с равной вероятностью, повторы"),
        }
        decks = [{"value": k, "label": _(label), "hint": hints[k]} for k, label in DECK_LABELS.items()]
        return [
            {
                "name": "battlefield",
                "label": _("Поле битвы"),
                "choices": fields,
                "default": "archmage_citadel",
            },
            {"name": "deck", "label": _("Колода"), "choices": decks, "default": "normal"},
        ]

    def options_text(self, options: TowersOptions, seat: Seat | None) -> str:
        name = BATTLEFIELDS[BATTLEFIELD_INDEX[options.battlefield]].name
        return _("Поле: %(field)s, колода: %(deck)s", field=name, deck=_(DECK_NAMES[options.deck]))

    def clock_only(self, action: TowersAction) -> bool:
        return action.kind == "timeout"

    def new_match(self, key: bytes, options: TowersOptions) -> State:
        """Deal from the match key ``K`` (fairness.md, §10.5)."""
        return rules.new_state(key, BATTLEFIELD_INDEX[options.battlefield], options.deck == "infinite")

    def to_move(self, state: State) -> frozenset[Seat]:
        return rules.to_move(state)

    def legal_actions(self, state: State, seat: Seat) -> list[TowersAction]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: Seat, action: TowersAction) -> list[JSON]:
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

    def timeout_action(self, state: State, seat: Seat) -> TowersAction:
        return rules.timeout_action(state, seat)

    def to_position(self, state: State) -> JSON:
        return _position.to_position(state)

    def from_position(self, position: JSON) -> State:
        return _position.from_position(position)

    def copy(self, state: State) -> State:
        return state.copy()

    def is_resign(self, action: TowersAction) -> bool:
        return action.kind == "resign"


__all__ = ["TowersGame"]
