"""Every result the service sends carries its reason in the reader's words (``reason_text``, issue 15 §2:
admin, lobby, profile, history and match pages show words, never codes such as ``five_tokens``)."""

from __future__ import annotations

from duelclub import i18n
from duelclub.play.views import worded_result


def test_a_game_reason_is_worded_by_the_games_words() -> None:
    # the fake game's words (tests/play/duel_fake.py, plugged in with register_words)
    result = {"winner": 0, "reason": "score", "names": ["alice", "bob"]}
    assert worded_result("duel", result) == {**result, "reason_text": "больше выигранных раундов"}


def test_a_platform_reason_is_worded_in_the_readers_language() -> None:
    result = {"winner": 1, "reason": "timeout"}
    assert worded_result("mezha", result) == {**result, "reason_text": "время вышло"}
    with i18n.use_lang("uk"):
        assert worded_result("mezha", result)["reason_text"] == i18n.gettext("время вышло") != "время вышло"  # type: ignore[index]


def test_a_game_may_word_a_platform_code_its_own_way() -> None:
    """Дві вежі's clock does not end a match at once: three missed turns in a row lose (rules/towers.md §9),
    so its ``timeout`` reads as that rule, not as the platform's «время вышло»."""
    result = {"winner": 1, "reason": "timeout"}
    assert worded_result("towers", result)["reason_text"] == "три хода подряд без ответа"  # type: ignore[index]


def test_no_result_and_no_reason_stay_as_they_are() -> None:
    assert worded_result("mezha", None) is None
    assert worded_result("mezha", {"winner": 0}) == {"winner": 0}
    assert worded_result("nogame", {"winner": 0, "reason": "odd"})["reason_text"] == "odd"  # type: ignore[index]
