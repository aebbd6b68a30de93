"""The UI language (duelclub/i18n.py): negotiation, and the Ukrainian catalog kept complete.

The catalog test runs Babel's extractor over the same sources as ``make messages`` (babel.cfg), so a new
Russian string in a template, a Python module or an ES module fails here until it is translated."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from duelclub import i18n

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "ngettext": (1, 2), "t": None, "tn": (2, 3)}


@pytest.mark.parametrize(
    ("cookie", "accept", "expected"),
    [
        (None, None, "ru"),
        (None, "", "ru"),
        (None, "uk-UA,uk;q=0.9,en;q=0.8", "uk"),
        (None, "ru-RU,ru;q=0.9,uk;q=0.8", "ru"),
        (None, "en-US,en;q=0.9,uk;q=0.5", "uk"),
        (None, "en-US,de;q=0.8", "ru"),
        (None, "uk;q=0.3,ru;q=0.7", "ru"),
        (None, "uk;q=0", "ru"),
        ("uk", "ru", "uk"),
        ("ru", "uk-UA", "ru"),
        ("xx", "uk", "uk"),
        ("xx", None, "ru"),
    ],
)
def test_language_is_the_cookie_else_accept_language_else_russian(
    cookie: str | None, accept: str | None, expected: str
) -> None:
    assert i18n.negotiate(cookie, accept) == expected


def _extracted() -> dict[str | tuple[str, str], list[str]]:
    with (ROOT / "babel.cfg").open() as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    found: dict[str | tuple[str, str], list[str]] = {}
    for filename, lineno, message, _comments, _ctx in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        key = tuple(message) if isinstance(message, (tuple, list)) else message
        found.setdefault(key, []).append(f"{filename}:{lineno}")  # type: ignore[arg-type]
    return found


def test_every_extracted_string_is_translated_in_the_ukrainian_catalog() -> None:
    catalog = i18n.catalog("uk")
    assert catalog is not None
    missing = []
    for key, where in _extracted().items():
        msgid = key[0] if isinstance(key, tuple) else key
        entry = catalog.get(msgid)
        strings = entry.string if entry is not None else None
        forms = strings if isinstance(strings, tuple) else (strings,)
        if entry is None or entry.fuzzy or not all(forms):
            missing.append(f"{msgid!r} ({where[0]})")
    assert not missing, "untranslated (run `make messages` and translate):\n" + "\n".join(missing)


def test_extraction_finds_templates_python_and_javascript() -> None:
    files = {w.split(":")[0].split("/")[0] for where in _extracted().values() for w in where}
    assert {"src"} == files
    assert any(w.startswith("src/duelclub/templates/") for ws in _extracted().values() for w in ws)
    assert any(w.startswith("src/duelclub/static/js/") for ws in _extracted().values() for w in ws)


def test_the_catalog_has_no_fuzzy_or_empty_entries_and_compiles() -> None:
    catalog = i18n.catalog("uk")
    assert catalog is not None and len(catalog) > 300
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), message.id
    assert not list(catalog.check()), list(catalog.check())[:3]
    translations = i18n.translations("uk")
    assert translations is not None and translations.gettext("Лобби") == "Лобі"


def test_placeholders_survive_translation() -> None:
    import re

    catalog = i18n.catalog("uk")
    assert catalog is not None
    for message in catalog:
        if not message.id or isinstance(message.id, tuple):
            continue
        for pattern in (r"\{\w+\}", r"%\(\w+\)s"):
            found = sorted(re.findall(pattern, str(message.string)))
            assert sorted(re.findall(pattern, message.id)) == found, message.id


def test_gettext_follows_the_current_language() -> None:
    assert i18n.gettext("Ваш дом: %(house)s", house="X") == "Ваш дом: X"
    with i18n.use_lang("uk"):
        assert i18n.gettext("Ваш дом: %(house)s", house="X") == "Ваш дім: X"
        assert i18n.current_lang() == "uk"
    assert i18n.current_lang() == "ru"


def test_russian_plurals_take_three_forms() -> None:
    words = [i18n.ngettext("%(n)s карта", "%(n)s карты", "%(n)s карт", n) for n in (1, 3, 5, 11, 21, 22, 25)]
    assert words == ["1 карта", "3 карты", "5 карт", "11 карт", "21 карта", "22 карты", "25 карт"]


def test_js_messages_hold_only_the_strings_of_the_es_modules() -> None:
    messages = i18n.js_messages("uk")
    assert messages["Ваш ход"] == "Ваш хід"
    assert "Лобби — Дуэль-клуб" not in messages  # a template string
    assert i18n.js_messages("ru") == {}
