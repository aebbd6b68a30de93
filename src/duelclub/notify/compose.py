"""The mails' words and their shape (issue 28): Russian msgids, Ukrainian in the catalog.

:func:`verify_email` and :func:`password_reset` render a mail in the member's language (``users.lang``,
else the language of the request that caused it, else Russian) into a :class:`~duelclub.store.outbox.Notice`
that the caller writes in its transaction; :func:`message` turns a claimed outbox row into the
:class:`~email.message.EmailMessage` the transport sends: ``From`` (``MAIL_FROM``), ``To``, ``Subject``,
``Date``, a ``Message-ID`` derived from the row (a resend after a lost lease is recognisably the same mail),
``Content-Language``, ``Auto-Submitted: auto-generated``, ``List-Unsubscribe`` and ``List-Unsubscribe-Post``
(RFC 8058) when the payload has an ``unsubscribe`` link, and a UTF-8 plain-text body. Header values never
come from members except the address, which passed notify/addresses.py.
"""

from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.utils import formatdate, parseaddr
from urllib.parse import urlsplit

from duelclub import i18n
from duelclub.i18n import gettext as _
from duelclub.notify.addresses import has_control, header_from
from duelclub.notify.unsubscribe import POST_HEADER
from duelclub.store.outbox import Claimed, Notice


def mail_lang(stored: str | None) -> str:
    """The language of a member's mails: their stored one, else the current request's (Russian outside a
    request)."""
    return i18n.normalize(stored) or i18n.current_lang()


def site_name(public_url: str) -> str:
    """The host of ``PUBLIC_URL``, as the mails name the site."""
    return urlsplit(public_url).netloc or public_url


def verify_email(
    *, user_id: int, username: str, address: str, lang: str, link: str, site: str, ttl_seconds: int
) -> Notice:
    """The confirmation mail of ``address`` (its link is ``PUBLIC_URL/verify-email/{token}``)."""
    with i18n.use_lang(lang):
        subject = _("Подтвердите адрес почты — %(site)s", site=site)
        text = _(
            "Здравствуйте, %(username)s!\n\n"
            "Этот адрес указан в учётной записи «%(username)s» на %(site)s. "
            "Чтобы подтвердить его, откройте ссылку:\n\n%(link)s\n\n"
            "Ссылка действует %(hours)s ч. Если вы не указывали этот адрес, ничего делать не нужно.",
            username=username,
            site=site,
            link=link,
            hours=max(1, ttl_seconds // 3600),
        )
    return Notice("email", "verify_email", user_id, address, lang, {"subject": subject, "text": text})


def password_reset(
    *, user_id: int, username: str, address: str, lang: str, link: str, site: str, ttl_seconds: int
) -> Notice:
    """The password-reset mail (its link is ``PUBLIC_URL/reset/{token}``)."""
    with i18n.use_lang(lang):
        subject = _("Сброс пароля — %(site)s", site=site)
        text = _(
            "Здравствуйте, %(username)s!\n\n"
            "Для учётной записи «%(username)s» на %(site)s попросили сбросить пароль. "
            "Задать новый пароль можно по ссылке:\n\n%(link)s\n\n"
            "Ссылка действует %(minutes)s мин. и только один раз; после смены пароля все входы в "
            "учётную запись завершатся. Если вы не просили сброс, ничего делать не нужно: пароль остался "
            "прежним.",
            username=username,
            site=site,
            link=link,
            minutes=max(1, ttl_seconds // 60),
        )
    return Notice("email", "password_reset", user_id, address, lang, {"subject": subject, "text": text})


def message(item: Claimed, mail_from: str) -> EmailMessage:
    """The mail of an outbox row; raises ValueError if a header value holds a control character."""
    subject, to = str(item.payload.get("subject", "")), item.recipient
    unsubscribe = str(item.payload.get("unsubscribe") or "")
    if has_control(subject) or has_control(to) or has_control(unsubscribe) or ">" in unsubscribe:
        raise ValueError("control character in a mail header")
    msg = EmailMessage()
    msg["From"] = header_from(mail_from)
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    domain = parseaddr(mail_from)[1].rpartition("@")[2] or "localhost"
    tag = hashlib.sha256(f"{item.id}:{item.kind}:{to}".encode()).hexdigest()[:16]
    msg["Message-ID"] = f"<duelclub.{item.id}.{tag}@{domain}>"
    msg["Auto-Submitted"] = "auto-generated"
    if unsubscribe:  # RFC 8058: a mail client's one-click «Unsubscribe» POSTs to the link itself
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = POST_HEADER
    msg.set_content(str(item.payload.get("text", "")), charset="utf-8")
    msg["Content-Language"] = item.lang  # after set_content, which drops the Content-* headers
    return msg
