"""``ModularGame``: a :class:`~duelclub.games.contract.Game` wired from the game's own modules.

Every club game writes its rules as module functions — ``rules.py`` (``new_match``, ``to_move``,
``legal_actions``, ``apply``, ``timeout_action``, and where the game needs them ``clock_only`` and
``action_to_json``), ``view.py`` (``view``, ``full_view``, ``event_view``), ``determinize.py``
(``determinize``) and ``position.py`` (``to_position``, ``from_position``) — and declares its game class from
them in a few lines; the class keywords name the modules, the body the static facts::

    class MezhaGame(ModularGame[State, MezhaAction, MezhaOptions, Event, Reason],
                    rules=rules, view=view, determinize=determinize, position=position):
        slug = "mezha"
        options_model = MezhaOptions
        ...

Each contract method becomes the module function itself (a ``staticmethod`` on the class), so a call costs
what a call of the function costs. A subclass without module keywords (a bot's variant of a game) inherits
its parent's wiring. TypeError at class creation if a module lacks a required function.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

from duelclub.games.contract import JSON, ActionT, EventT_co, Game, OptionsT, ReasonT_co, Seat, StateT

WIRING: dict[str, tuple[str, ...]] = {
    "rules": ("new_match", "to_move", "legal_actions", "apply", "timeout_action"),
    "view": ("view", "full_view", "event_view"),
    "determinize": ("determinize",),
    "position": ("to_position", "from_position"),
}
"""Module role → the contract methods its functions of the same name become."""

OPTIONAL: dict[str, tuple[str, ...]] = {"rules": ("clock_only", "action_to_json")}
"""Contract methods with a default in :class:`Game`, taken from the module only where it defines them."""


class ModularGame(Game[StateT, ActionT, OptionsT, EventT_co, ReasonT_co]):
    """A game whose contract methods are the functions of its modules; see the module docstring.

    The methods below only declare the contract's types: class creation replaces every one of them with the
    module's function, and a class that would keep them (no modules given, none inherited) is a TypeError.
    """

    _wired: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        modules: dict[str, ModuleType] = {role: kwargs.pop(role) for role in WIRING if role in kwargs}
        super().__init_subclass__(**kwargs)
        if not modules:
            if not cls._wired:
                raise TypeError(f"{cls.__name__}: name the game's modules ({', '.join(WIRING)}=...)")
            return
        if set(modules) != set(WIRING):
            raise TypeError(f"{cls.__name__}: give all of {sorted(WIRING)} (got {sorted(modules)})")
        for role, module in modules.items():
            for name in WIRING[role]:
                if not callable(getattr(module, name, None)):
                    raise TypeError(f"{cls.__name__}: {module.__name__} has no function {name}()")
                setattr(cls, name, staticmethod(getattr(module, name)))
            for name in OPTIONAL.get(role, ()):
                if callable(getattr(module, name, None)):
                    setattr(cls, name, staticmethod(getattr(module, name)))
        cls._wired = True

    def new_match(self, key: bytes, options: OptionsT) -> StateT:
        raise NotImplementedError

    def to_move(self, state: StateT) -> frozenset[Seat]:
        raise NotImplementedError

    def legal_actions(self, state: StateT, seat: Seat) -> list[ActionT]:
        raise NotImplementedError

    def apply(self, state: StateT, seat: Seat, action: ActionT) -> Sequence[EventT_co]:
        raise NotImplementedError

    def timeout_action(self, state: StateT, seat: Seat) -> ActionT:
        raise NotImplementedError

    def view(self, state: StateT, seat: Seat | None) -> JSON:
        raise NotImplementedError

    def full_view(self, state: StateT) -> JSON:
        raise NotImplementedError

    def event_view(self, state: StateT, event: JSON, seat: Seat | None) -> JSON | None:
        raise NotImplementedError

    def determinize(self, state: StateT, seat: Seat, rng: random.Random) -> StateT:
        raise NotImplementedError

    def to_position(self, state: StateT) -> JSON:
        raise NotImplementedError

    def from_position(self, position: JSON) -> StateT:
        raise NotImplementedError


__all__ = ["OPTIONAL", "WIRING", "ModularGame"]
