"""Сундук войны's words (issue 15 §2): lobby texts, options, end reasons, the UI catalog and the match log.

The log reads «Волк (вы): Мечник атакует Пикинёра»: the side (a proper name, the same in every language),
«(вы)» on the reader's own side, then the event in the reader's language. Unit names are proper names as the
rules give them: Russian declines them («атакует Пикинёра», «с Мечника»), Ukrainian quotes them where
Russian declines. Participles agree with the unit («Мечник отравлен», «Кавалерия отравлена»). Hexes are
named as the board draws them (:func:`hex_label`): a row letter А…Ж from the top (r = −3 … 3) and the hex's
number inside its row from the left, like a chess board's coordinates: the centre is «Г4».

>>> WORDS.event_lines([{"kind": "damage", "seat": 0, "side": 1, "hex": 18, "type": "pikeman"}], 0)
[{'text': 'Ворон (вы): Пикинёр: −1 монета'}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, assert_never, get_args

from pydantic import BaseModel

from duelclub import i18n
from duelclub.games.contract import JSON, Seat
from duelclub.games.warchest.actions import WarchestOptions
from duelclub.games.warchest.board import HEXES, IS_LOCATION, RADIUS, START_LOCATIONS
from duelclub.games.warchest.events import BolsterEvent, Event, MoveEvent, Reason, UnitRemovedEvent
from duelclub.games.warchest.units import DECOY_INF, DECOY_SKI, DECREE, DECREES, ROYAL, UNIT, UNIT_TYPES
from duelclub.i18n import N_
from duelclub.i18n import gettext as _
from duelclub.words.base import NO_NAMES, GameWords, Names, RulesPage, event_kinds, reason_table
from duelclub.words.warchest_cards import DECREE_TEXTS, PROPERTIES, TACTICS

SIDE_NAMES = ("Волк", "Ворон")
"""Side 0 and 1 by name (proper names, the same in every language)."""

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

# -- names: hexes, units in three cases, coins ----------------------------------------------------

_ROWS = "АБВГДЕЖ"


def hex_label(h: int) -> str:
    """The label the board shows on hex ``h`` («А1» … «Ж4», the centre «Г4»)."""
    q, r = HEXES[h]
    first_q = max(-RADIUS, -RADIUS - r)
    return f"{_ROWS[r + RADIUS]}{q - first_q + 1}"


HEX_LABELS: tuple[str, ...] = tuple(hex_label(h) for h in range(len(HEXES)))


def hex_words(h: int) -> str:
    """A hex in a log line: its board label, «локацию …» for a location."""
    return _("локацию %(hex)s", hex=HEX_LABELS[h]) if IS_LOCATION[h] else HEX_LABELS[h]


_ACC = {
    "cavalry": "Кавалерию",
    "light_cavalry": "Лёгкую кавалерию",
    "royal_guard": "Королевскую гвардию",
    "warrior_priest": "Воина-жреца",
    "assassin": "Убийцу",
    "ensign": "Знаменосца",
    "footman": "Пехотинца",
    "knight": "Рыцаря",
    "bannerman": "Штандартоносца",
}
_GEN = {
    "cavalry": "Кавалерии",
    "light_cavalry": "Лёгкой кавалерии",
    "royal_guard": "Королевской гвардии",
    "warrior_priest": "Воина-жреца",
    "assassin": "Убийцы",
    "ensign": "Знаменосца",
    "footman": "Пехотинца",
    "knight": "Рыцаря",
    "bannerman": "Штандартоносца",
}
_FEMININE = frozenset({"cavalry", "light_cavalry", "royal_guard"})


def unit_name(t: str, case: str = "nom") -> str:
    """Unit type ``t``'s name in ``case``: "nom", "acc" («атакует Пикинёра») or "gen" («с Мечника») in
    Russian; a reader of another language gets the name quoted where Russian declines it."""
    name = UNIT[t].ru
    if case == "nom":
        return name
    if i18n.current_lang() != i18n.DEFAULT_LANG:
        return f"«{name}»"  # a proper name Ukrainian does not decline: quoted
    return (_ACC if case == "acc" else _GEN).get(t) or name + "а"


def coin_name(coin: str) -> str:
    """A coin kind by name: the unit's, «Королевская монета», «Обманка Лазутчика/Застрельщика»."""
    return {
        ROYAL: "Королевская монета",
        DECOY_INF: "Обманка Лазутчика",
        DECOY_SKI: "Обманка Застрельщика",
    }.get(coin) or UNIT[coin].ru


def coins_words(n: int) -> str:
    """«1 монета», «3 монеты», «5 монет» in the reader's language."""
    return i18n.ngettext("%(n)s монета", "%(n)s монеты", "%(n)s монет", n)


def _agreeing(t: str, masc: str, fem: str) -> str:
    """A sentence whose participle agrees with unit ``t`` («Мечник отравлен», «Кавалерия отравлена»)."""
    msgid = fem if t in _FEMININE else masc
    return _(msgid, unit=unit_name(t))


# -- the log ------------------------------------------------------------------------------------

_FACE_DOWN = {
    "initiative": N_("монета рубашкой вниз — инициатива"),
    "recruit": N_("монета рубашкой вниз — найм"),
    "pass": N_("монета рубашкой вниз — пас"),
}
_MOVES = {
    "move": (N_("%(unit)s перемещается на %(hex)s"), N_("%(unit)s перемещается на %(hex)s")),
    "push": (N_("%(unit)s оттеснен на %(hex)s"), N_("%(unit)s оттеснена на %(hex)s")),
    "redeploy": (N_("%(unit)s передислоцируется на %(hex)s"), N_("%(unit)s передислоцируется на %(hex)s")),
    "march": (
        N_("%(unit)s совершает марш-бросок на %(hex)s"),
        N_("%(unit)s совершает марш-бросок на %(hex)s"),
    ),
}


def _move(e: MoveEvent) -> str:
    t, (masc, fem) = e["type"], _MOVES[e["how"]]
    msgid = fem if t in _FEMININE else masc
    return _(msgid, unit=unit_name(t), hex=hex_words(e["to"]))


def _bolster(e: BolsterEvent) -> str:
    t = e["type"]
    if e["how"] == "fortify":
        return _agreeing(t, N_("%(unit)s укреплён"), N_("%(unit)s укреплена"))
    if e["how"] == "herald":
        return _agreeing(t, N_("%(unit)s усилен из запаса"), N_("%(unit)s усилена из запаса"))
    return _("усиливает %(unit)s", unit=unit_name(t, "acc"))


def _removed(e: UnitRemovedEvent) -> str:
    if e["countered"]:
        by = unit_name("pikeman", "gen")
        return _("%(unit)s уходит с поля (контратака %(by)s)", unit=unit_name(e["type"]), by=by)
    return _("%(unit)s уходит с поля (нет монет)", unit=unit_name(e["type"]))


def _body(e: Event) -> str:
    """The event in words, after the side's name; every kind has a case (a missing one is a mypy error)."""
    match e["kind"]:
        case "pick":
            return _(
                N_("получает отряд «%(unit)s»") if e["dealt"] else N_("выбирает отряд «%(unit)s»"),
                unit=UNIT[e["type"]].ru,
            )
        case "draw":
            return _("раунд %(round)s: тянет %(coins)s", round=e["round"], coins=coins_words(e["count"]))
        case "face_down":
            return _(_FACE_DOWN.get(e["action"], ""))
        case "deploy":
            return _(
                "выставляет %(unit)s на %(hex)s", unit=unit_name(e["type"], "acc"), hex=hex_words(e["to"])
            )
        case "bolster":
            return _bolster(e)
        case "purge":
            return _("%(coin)s уходит из игры", coin=coin_name(e["coin"]))
        case "cure":
            return _agreeing(e["type"], N_("%(unit)s излечен"), N_("%(unit)s излечена"))
        case "move":
            return _move(e)
        case "control":
            return _(
                "%(unit)s берёт под контроль %(hex)s", unit=unit_name(e["type"]), hex=hex_words(e["hex"])
            )
        case "win":
            return _("все маркеры на поле — победа")
        case "attack":
            return _(
                "%(unit)s атакует %(target)s",
                unit=unit_name(e["type"]),
                target=unit_name(e["target_type"], "acc"),
            )
        case "counter":
            return _(
                "%(unit)s снимает монету с %(attacker)s",
                unit=unit_name("pikeman"),
                attacker=unit_name(e["attacker_type"], "gen"),
            )
        case "damage":
            return _("%(unit)s: −1 монета", unit=unit_name(e["type"]))
        case "unit_removed":
            return _removed(e)
        case "recruit":
            return _("нанимает %(unit)s", unit=unit_name(e["type"], "acc"))
        case "poison":
            return _agreeing(e["type"], N_("%(unit)s отравлен"), N_("%(unit)s отравлена"))
        case "decoy":
            return _("%(coin)s подброшена в сброс противника", coin=coin_name(e["coin"]))
        case "decree":
            return _("оглашает указ «%(decree)s»", decree=DECREE[e["decree"]].ru)
        case "reinforce":
            return _("%(unit)s: монета возвращается в запас", unit=unit_name(e["type"]))
        case "tactic":
            return _("тактика %(unit)s", unit=unit_name(e["type"], "gen"))
        case "assassin":
            return _("%(unit)s: монета из запаса уходит из игры", unit=unit_name(e["type"]))
        case "wp_draw":
            return _("%(unit)s тянет монету из мешка", unit=unit_name("warrior_priest"))
        case "decline":
            return _("отказывается")
        case "absorb":
            return _("%(unit)s теряет монету из запаса, а не со стопки", unit=unit_name("royal_guard"))
        case "pay":
            return _("%(unit)s сбрасывает монету со стопки", unit=unit_name("berserker"))
        case "resign":
            return _("сдаётся")
        case other:
            assert_never(other)


_KINDS = event_kinds(Event)


def event_line(event: Event, reader: Seat | None) -> JSON | None:
    """One event's log line for ``reader`` (None: a spectator): «Волк (вы): …» on the reader's own side,
    the bare side name otherwise; ``cls`` «log-win» for the winning line. None for an unknown kind."""
    if event.get("kind") not in _KINDS:
        return None
    mine = reader is not None and event.get("seat") == reader
    text = f"{SIDE_NAMES[event['side']]}{_(' (вы)') if mine else ''}: {_body(event)}"
    return {"text": text, "cls": "log-win"} if event["kind"] == "win" else {"text": text}


# -- the game's words ------------------------------------------------------------------------------


def _reason_msgid(code: Reason) -> str:
    """The msgid of each end reason of the rules (``Reason``); a missing one is a mypy error."""
    match code:
        case "control":
            return N_("все маркеры контроля на поле")
        case "round_limit":
            return N_("сыграно 100 раундов без победителя")
        case "resign":
            return N_("сдача")
        case other:
            assert_never(other)


class WarchestWords(GameWords[Event]):
    """Сундук войны in words."""

    slug: ClassVar[str] = "warchest"
    title: ClassVar[str] = N_("Сундук войны")
    tagline: ClassVar[str] = N_("мешок монет · гексы · драфт отрядов · Знать и Ночь")
    summary: ClassVar[str] = N_(
        "Каждая монета — и юнит на поле, и валюта действий: вы тянете их из мешка вслепую. "
        "Наберите четыре отряда на драфте и первым поставьте все шесть маркеров на локации."
    )
    reasons: ClassVar[dict[str, str]] = reason_table(get_args(Reason), _reason_msgid)
    rules: ClassVar[RulesPage] = RulesPage(
        ("goal", "setup", "round", "actions", "units", "nobility", "nightfall", "end", "glossary", "online"),
        panel_by_phase={"draft": "units"},
        panel_default="actions",
    )
    """The rules page's sections; the «Правила» panel's part by phase."""

    def catalog(self) -> JSON:
        """The board (hexes, their labels, locations, start locations), the units with their card texts and
        the decrees, texts in the current language (names are proper names)."""
        return {
            "hexes": [list(qr) for qr in HEXES],
            "hex_labels": list(HEX_LABELS),
            "locations": [h for h in range(len(HEXES)) if IS_LOCATION[h]],
            "starts": {"wolf": list(START_LOCATIONS[0]), "raven": list(START_LOCATIONS[1])},
            "units": [
                {"id": u.id, "ru": u.ru, "coins": u.coins, "expansion": u.expansion,
                 "tactic": _(TACTICS[u.id]) if u.id in TACTICS else "",
                 "property": _(PROPERTIES[u.id]) if u.id in PROPERTIES else ""}
                for u in UNIT_TYPES
            ],
            "decrees": [{"id": d.id, "ru": d.ru, "text": _(DECREE_TEXTS[d.id])} for d in DECREES],
        }  # fmt: skip

    def options_form(self, first_seat: bool = False) -> list[JSON]:
        return [
            {
                "name": "expansions",
                "label": _("Дополнения"),
                "choices": [{"value": k, "label": _(v)} for k, v in EXPANSION_LABELS.items()],
                "default": "base",  # a newcomer starts with the base game (issue 16 §6)
            },
            {
                "name": "side",
                "label": _("Сторона первого игрока") if first_seat else _("Ваша сторона"),
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

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        """«+ Знать, клубный драфт 1-2-2-2-1, вы — Волк» (a third party: «игрок 1 — Волк»)."""
        assert isinstance(options, WarchestOptions)
        base = f"{_(EXPANSION_LABELS[options.expansions])}, {_(DRAFT_LABELS[options.draft])}"
        if options.side == "random":
            return _("%(base)s, стороны по жребию", base=base)
        if seat is None:
            return _("%(base)s, игрок 1 — %(side)s", base=base, side=_(SIDE_LABELS[options.side]))
        mine = options.side if seat == 0 else ("raven" if options.side == "wolf" else "wolf")
        return _("%(base)s, вы — %(side)s", base=base, side=_(SIDE_LABELS[mine]))

    def event_lines(
        self, events: Sequence[Event], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        return [event_line(e, seat) for e in events]


WORDS = WarchestWords()

__all__ = ["HEX_LABELS", "WORDS", "WarchestWords", "coin_name", "event_line", "hex_label", "unit_name"]
