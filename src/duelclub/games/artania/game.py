"""``ArtaniaGame``: the :class:`~duelclub.games.contract.Game` implementation of Артания и Куявия
(rules/artania.md).

>>> from duelclub.games.artania import GAME
>>> state = GAME.new_match(bytes(32), GAME.parse_options({"deck": "kuyavia"}))
>>> sorted(GAME.to_move(state)) in ([0], [1])
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from duelclub.games.artania import determinize as _determinize
from duelclub.games.artania import position as _position
from duelclub.games.artania import rules, view
from duelclub.games.artania.actions import ACTION_ADAPTER, ArtaniaAction, ArtaniaOptions
from duelclub.games.artania.cards import DECK_NAMES, catalog
from duelclub.games.artania.state import OVER, State
from duelclub.games.contract import JSON, ClockMode, Game, Outcome, Seat
from duelclub.i18n import N_
from duelclub.i18n import gettext as _


def _translated_text(card: Any) -> Any:
    """A catalog card with its text (equipment, marked with ``N_`` in cards.py) in the current language."""
    text = card.get("text")
    return {**card, "text": _(text)} if isinstance(text, str) and text else card


class ArtaniaGame(Game[State, ArtaniaAction, ArtaniaOptions]):
    """Артания и Куявия: two decks of warriors meet in three facing slots per turn; five tokens win."""

    slug: ClassVar[str] = "artania"
    title: ClassVar[str] = "Артания и Куявия"
    options_model: ClassVar[type[BaseModel]] = ArtaniaOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    bot_levels: ClassVar[tuple[str, ...]] = ("novice", "light", "medium", "strong", "master")
    tagline: ClassVar[str] = N_("дуэль воинов · противоклассы · до пяти кругляшей")
    summary: ClassVar[str] = N_(
        "Каждый ход стороны выставляют по три воина друг напротив друга; противокласс даёт лишние мечи, "
        "снаряжение — Нектар, Идол и Часы — меняет расклад. Кто больше мечей — берёт кругляш; "
        "пять кругляшей — победа."
    )
    clock_mode: ClassVar[ClockMode] = "optional"  # D34: the seed has no clock; the opener may set one

    def catalog(self) -> JSON:
        """The UI catalog; the equipment texts in the request's language (card names are proper names)."""
        data = catalog()
        cards = data["cards"]
        assert isinstance(cards, list)
        data["cards"] = [_translated_text(c) for c in cards]
        return data

    def options_form(self) -> list[JSON]:
        """One field, the opener's deck (D29); the other seat gets the other deck. The decks are identical."""
        return [
            {
                "name": "deck",
                "label": _("Ваша колода"),
                "choices": [
                    {"value": "artania", "label": "Артания"},
                    {"value": "kuyavia", "label": "Куявия"},
                    {
                        "value": "random",
                        "label": _("Случайно"),
                        "hint": _("Артания у того, кто ходит первым"),
                    },
                ],
                "default": "artania",
            }
        ]

    def options_text(self, options: ArtaniaOptions, seat: Seat | None) -> str:
        """«Ваша колода: Куявия» for a seat, «Артания у игрока 1» for a third party; a random deck is
        «Колода: по жребию» (it is only known once the match is dealt)."""
        deck0 = options.deck
        if deck0 == "random":
            return _("Колода: по жребию")
        if seat is None:
            return _("%(deck)s у игрока 1", deck=DECK_NAMES[deck0])
        mine = deck0 if seat == 0 else ("kuyavia" if deck0 == "artania" else "artania")
        return _("Ваша колода: %(deck)s", deck=DECK_NAMES[mine])

    def new_match(self, key: bytes, options: ArtaniaOptions) -> State:
        """Deal from the match key ``K`` (fairness.md); ``options.deck`` is seat 0's deck."""
        return rules.new_state(key, options.deck)

    def to_move(self, state: State) -> frozenset[Seat]:
        return rules.to_move(state)

    def legal_actions(self, state: State, seat: Seat) -> list[ArtaniaAction]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: Seat, action: ArtaniaAction) -> list[JSON]:
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

    def timeout_action(self, state: State, seat: Seat) -> ArtaniaAction:
        """D34: ``pass`` in an equipment window; in a placement step the first warriors of the hand in
        canonical order (D32), one per slot of the step in slot order. Always an ordinary legal action, so
        ``clock_only`` is False for everything. Raises IllegalAction if over or ``seat`` is not due."""
        return rules.timeout_action(state, seat)

    def to_position(self, state: State) -> JSON:
        return _position.to_position(state)

    def from_position(self, position: JSON) -> State:
        return _position.from_position(position)

    def copy(self, state: State) -> State:
        return state.copy()

    def is_resign(self, action: ArtaniaAction) -> bool:
        return action.kind == "resign"

    def is_over(self, state: State) -> bool:
        return state.step == OVER
