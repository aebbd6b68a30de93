"""The words of the turn notices' mails (issue 28 §3, §4): Russian msgids, Ukrainian in the catalog.

Each function renders one mail in the member's language into an outbox payload: ``subject``, ``text``
and ``unsubscribe`` (the signed one-click link; notify/compose.py ``message`` turns it into the
``List-Unsubscribe`` headers). A member's name or a game's title never carries a control character into
a header: :func:`one_line` replaces them (no header injection, whatever a name holds).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from duelclub import i18n
from duelclub.i18n import gettext as _
from duelclub.i18n import ngettext
from duelclub.notify.compose import site_name
from duelclub.notify.notice_types import WaitingMatch
from duelclub.words.registry import words_for

__all__ = ["Site", "digest", "one_line", "site_name", "turn"]


@dataclass(frozen=True, slots=True)
class Site:
    name: str
    account_url: str
    unsubscribe_url: str


def one_line(value: str) -> str:
    """``value`` with every control, format or line/paragraph separator character made a space."""
    bad = ("Cc", "Cf", "Zl", "Zp")
    return "".join(" " if unicodedata.category(c) in bad else c for c in value).strip()


def _title(slug: str) -> str:
    return one_line(words_for(slug).game_title())


def _hours(seconds: float) -> int:
    return max(1, round(seconds / 3600))


def _footer(site: Site) -> str:
    return _(
        "Письма о ходе настраиваются в профиле: %(account)s\n"
        "Отписаться от них одной ссылкой: %(unsubscribe)s",
        account=site.account_url,
        unsubscribe=site.unsubscribe_url,
    )


def turn(
    kind: Literal["turn", "low_time"],
    username: str,
    lang: str,
    match: WaitingMatch,
    deadline_at: datetime | None,
    now: datetime,
    site: Site,
) -> dict[str, Any]:
    """The mail of one turn: ``turn`` (the move has waited) or ``low_time`` (a tenth of the clock left)."""
    with i18n.use_lang(lang):
        names = {"game": _title(match.game), "opponent": one_line(match.opponent), "site": site.name}
        if kind == "low_time" and deadline_at is not None:
            subject = _("Мало времени на ход: %(game)s, соперник %(opponent)s — %(site)s", **names)
            body = _(
                "Здравствуйте, %(username)s!\n\n"
                "В партии «%(game)s» (соперник — %(opponent)s) на ваш ход осталось около %(hours)s ч.: "
                "сделайте его до %(deadline)s (UTC), иначе ход за вас сделают часы.\n\n"
                "Открыть партию: %(link)s",
                username=one_line(username),
                hours=_hours((deadline_at - now).total_seconds()),
                deadline=deadline_at.strftime("%Y-%m-%d %H:%M"),
                link=match.url,
                **names,
            )
        else:
            subject = _("Ваш ход: %(game)s, соперник %(opponent)s — %(site)s", **names)
            body = _(
                "Здравствуйте, %(username)s!\n\n"
                "В партии «%(game)s» ваш ход: %(opponent)s ждёт уже %(hours)s ч.\n\n"
                "Открыть партию: %(link)s",
                username=one_line(username),
                hours=_hours((now - match.since).total_seconds()),
                link=match.url,
                **names,
            )
        text = f"{body}\n\n-- \n{_footer(site)}"
    return {"subject": subject, "text": text, "unsubscribe": site.unsubscribe_url}


def digest(username: str, lang: str, matches: Sequence[WaitingMatch], site: Site) -> dict[str, Any]:
    """The daily digest: every match waiting for the member's move."""
    with i18n.use_lang(lang):
        count = len(matches)
        subject = ngettext(
            "Ваш ход в %(n)s партии — %(site)s",
            "Ваш ход в %(n)s партиях — %(site)s",
            "Ваш ход в %(n)s партиях — %(site)s",
            count,
            site=site.name,
        )
        lines = [
            _(
                "«%(game)s», соперник %(opponent)s: %(link)s",
                game=_title(m.game),
                opponent=one_line(m.opponent),
                link=m.url,
            )
            for m in matches
        ]
        head = _(
            "Здравствуйте, %(username)s!\n\nВот партии, которые ждут вашего хода:",
            username=one_line(username),
        )
        listing = "\n".join(f"— {line}" for line in lines)
        text = f"{head}\n\n{listing}\n\n-- \n{_footer(site)}"
    return {"subject": subject, "text": text, "unsubscribe": site.unsubscribe_url}
