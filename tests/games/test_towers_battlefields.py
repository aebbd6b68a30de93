"""rules/towers.md §2 (D1, D33): each battlefield's start values and victory targets, for both players."""

from __future__ import annotations

import hashlib

import pytest
from test_towers_helpers import play, state

from duelclub.games.contract import Outcome
from duelclub.games.towers import GAME
from duelclub.games.towers.actions import BattlefieldId
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS
from duelclub.games.towers.dsl import ATTRS
from duelclub.i18n import use_lang
from duelclub.words.towers import WORDS

# id: (name, tower, wall, mines, monasteries, barracks, ore, mana, troops, victory tower, victory resource)
TABLE = {
    "archmage_citadel": ("Цитадель Архімага", 20, 5, 2, 2, 2, 5, 5, 5, 50, 150),
    "crystal_garden": ("Кришталевий Сад", 20, 10, 3, 3, 3, 5, 5, 5, 75, 200),
    "seaside_fortress": ("Приморська фортеця", 20, 10, 5, 5, 5, 25, 25, 25, 150, 400),
    "azure_valley": ("Лазурна долина", 20, 50, 1, 1, 5, 5, 5, 25, 100, 300),
    "misty_harbour": ("Туманна Гавань", 50, 50, 5, 3, 5, 20, 10, 20, 100, 300),
    "wind_square": ("Площа Вітрів", 20, 10, 3, 1, 2, 15, 5, 10, 125, 350),
    "free_steppe": ("Вільний степ", 20, 10, 1, 1, 1, 15, 15, 15, 200, 500),
    "mirror_labyrinth": ("Дзеркальний Лабіринт", 30, 15, 4, 4, 4, 10, 10, 10, 100, 300),
}


def test_the_eight_battlefields_and_the_option_values_agree() -> None:
    assert set(BATTLEFIELD_IDS) == set(TABLE) == set(BattlefieldId.__args__)  # type: ignore[attr-defined]
    assert [f["value"] for f in WORDS.options_form()[0]["choices"]] == list(BATTLEFIELD_IDS)


@pytest.mark.parametrize("field", list(TABLE))
def test_start_values_and_targets(field: str) -> None:
    name, *start, vt, vr = TABLE[field]
    s = GAME.new_match(hashlib.sha256(field.encode()).digest(), GAME.parse_options({"battlefield": field}))
    v = GAME.view(s, None)
    first, other = s.active, 1 - s.active
    assert v["battlefield"] == field and v["targets"] == {"tower": vt, "resource": vr}
    assert v["players"][other] == dict(zip(ATTRS, start, strict=True))  # has not produced yet
    produced = dict(zip(ATTRS, start, strict=True))
    produced["ore"] += produced["mines"]
    produced["mana"] += produced["monasteries"]
    produced["troops"] += produced["barracks"]
    assert v["players"][first] == produced  # D4
    assert name in WORDS.options_text(GAME.parse_options({"battlefield": field}), 0)


@pytest.mark.parametrize("field", list(TABLE))
def test_victory_targets_are_the_fields(field: str) -> None:
    *_, vt, vr = TABLE[field]
    s = state(field=field, me={"tower": vt - 5, "mana": 5}, hands=([43], []))
    play(s, 43)  # Рубін: +5 tower
    assert GAME.outcome(s) == Outcome(0, "tower")
    s = state(field=field, me={"tower": vt - 6, "mana": 5}, hands=([43], []))
    play(s, 43)
    assert GAME.outcome(s) is None
    s = state(field=field, me={"ore": vr - 2}, hands=([4], []))
    play(s, 4)  # Щаслива монетка: +2 ore
    assert GAME.outcome(s) == Outcome(0, "resource")


def test_options_text_and_defaults() -> None:
    opts = GAME.parse_options({"battlefield": "free_steppe", "deck": "infinite"})
    # the battlefield is a proper name; the deck type in the reader's language (issue 16 §5)
    assert WORDS.options_text(opts, None) == "Поле: Вільний степ, колода: бесконечная"
    with use_lang("uk"):
        assert WORDS.options_text(opts, None).endswith("колода: нескінченна")
    assert GAME.parse_options({}).battlefield == "archmage_citadel"
    assert GAME.parse_options({}).deck == "normal"
