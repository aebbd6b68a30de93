"""The registries: games plug in as ``duelclub.games.<slug>`` and their bots as ``duelclub.bots.<slug>``;
the lobby reads each game's labelled options form, and the contract's defaults hold."""

from __future__ import annotations

import pytest

from duelclub.bots.registry import bot_levels, make_bot
from duelclub.games.registry import all_games, get_game, lobby_order
from duelclub.words import all_words


def test_games_come_in_lobby_order_with_matching_slugs() -> None:
    games = all_games()
    assert list(games) == list(lobby_order()) == ["mezha", "towers", "warchest", "artania"]
    for slug, game in games.items():
        assert game.slug == slug and all_words()[slug].title
        assert game.clock_mode in ("none", "optional", "required", "correspondence")
    with pytest.raises(KeyError):
        get_game("chess")


def test_every_game_has_its_bot_levels_and_random() -> None:
    for slug, game in all_games().items():
        levels = bot_levels(slug)
        assert "random" in levels and set(game.bot_levels) <= set(levels), slug
    with pytest.raises(KeyError):
        make_bot("chess", "easy")
    with pytest.raises(KeyError):
        make_bot("mezha", "grandmaster")
    with pytest.raises(KeyError):
        bot_levels("../etc")


def test_every_options_form_default_and_choice_parses() -> None:
    """Each labelled choice of the lobby form is a valid value of the game's options model."""
    for slug, words in all_words().items():
        game = get_game(slug)
        form = words.options_form()
        defaults = {f["name"]: f["default"] for f in form}
        game.parse_options(defaults)
        for field in form:
            assert field["label"] and field["choices"], (slug, field)
            for choice in field["choices"]:
                assert choice["label"], (slug, field["name"], choice)
                opts = game.parse_options({**defaults, field["name"]: choice["value"]})
                for seat in (0, 1, None):
                    assert isinstance(words.options_text(opts, seat), str)


def test_mezha_options_in_words_from_each_side() -> None:
    game, words = get_game("mezha"), all_words()["mezha"]
    opts = game.parse_options({"house": "gorn"})
    assert words.options_text(opts, 0) == "Ваш дом: Дом Горна"
    assert words.options_text(opts, 1) == "Ваш дом: Дом Ольхи"
    assert words.options_text(opts, None) == "Дом Горна у игрока 1"
    assert game.clock_mode == "correspondence"  # rules/mezha.md D19 unlimited by default; issue 28 §4
