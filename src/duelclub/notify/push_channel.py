"""Turn notices by Web Push (issue 28 §3): the channel of notify/dispatch.py that a member chooses with
``PUT /api/me/notices {push: true}``.

It carries the ``turn`` and ``low_time`` notices (the digest is a mail's form), under
the sweep's rule (play/notices.py: the turn has waited ``NOTIFY_EMAIL_AFTER_SECONDS`` with no page of the
site open). Each becomes a push to every browser the member subscribed (notify/push.py ``queue_push``),
written in the claim's transaction, keyed by the notice (once per turn and browser), tagged by the match's
path (a newer notice of the same match replaces the older on the device), worded in the member's language.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from duelclub import i18n
from duelclub.i18n import gettext as _
from duelclub.notify.dispatch import dedupe_key
from duelclub.notify.notice_mail import game_title, one_line
from duelclub.notify.notice_types import Notice, TurnNotice
from duelclub.notify.push import queue_push


def push_words(notice: TurnNotice) -> tuple[str, str]:
    """``(title, body)`` of the push of ``notice``, in the member's language."""
    with i18n.use_lang(notice.member.lang):
        names = {"game": game_title(notice.match.game), "opponent": one_line(notice.match.opponent)}
        if notice.kind == "low_time" and notice.deadline_at is not None:
            title = _("Мало времени на ход: %(game)s", **names)
            body = _(
                "Соперник — %(opponent)s. Сделайте ход до %(deadline)s (UTC).",
                deadline=notice.deadline_at.strftime("%Y-%m-%d %H:%M"),
                **names,
            )
        else:
            title = _("Ваш ход: %(game)s", **names)
            body = _("%(opponent)s ждёт вашего хода.", **names)
    return title, body


class PushChannel:
    """Turn notices and low-time reminders to the member's browsers (module docstring)."""

    name = "push"

    def __call__(self, s: Session, notice: Notice, now: datetime) -> None:
        if not isinstance(notice, TurnNotice) or not notice.member.push:
            return
        title, body = push_words(notice)
        queue_push(
            s,
            notice.member.user_id,
            title,
            body,
            f"/matches/{notice.match.match_id}",  # a path of the site: the service worker opens it there
            dedupe_key(notice, "push"),
            now=now,
        )
