"""Each game's words, in one home per game (issue 15 §2): lobby texts, option texts, end reasons, the UI
catalog and the wording of every event, in the reader's language (Russian msgids, Ukrainian through the one
Babel catalog, :mod:`duelclub.i18n`). The rules under ``games/`` emit data only; this layer turns that data
into sentences. It sits between ``games/`` and ``play/`` (imports only point down): ``play/`` adds each
event's text to the socket message, ``web/`` draws lobby and pages from it.

>>> from duelclub.words import words_for
>>> words_for("towers").slug
'towers'
"""

from __future__ import annotations

from duelclub.words.base import GameWords, RulesPage, platform_reason
from duelclub.words.registry import all_words, register_words, words_for

__all__ = ["GameWords", "RulesPage", "all_words", "platform_reason", "register_words", "words_for"]
