"""The pages of issue 28 §1–2: «Забыли пароль?» (``/password-reset``), a mailed reset link
(``/reset/{token}``), a mailed confirmation link (``/verify-email/{token}``), and the admins' «Почта»
(``/admin/mail``: the latest mails of the outbox, with their text while no ``SMTP_URL`` is set, so a club can
try the mail path without a server).

The link pages change nothing when opened (a mail scanner following the link uses no token): the reset page
only checks its token to show whose password is set, the confirmation page asks for a click.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from duelclub.notify import accounts
from duelclub.store import outbox
from duelclub.store.models import utcnow
from duelclub.web.deps import OptionalUser, get_database
from duelclub.web.routes.mail import mail_site
from duelclub.web.routes.pages import _admin_gate, _render

router = APIRouter(tags=["pages"])
_Handler = TypeVar("_Handler", bound=Callable[..., Any])


def _page(path: str) -> Callable[[_Handler], _Handler]:
    return router.api_route(
        path, methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )


@_page("/password-reset")
def password_reset_page(request: Request, user: OptionalUser) -> Response:
    """The form that asks for the address to mail a reset link to."""
    minutes = max(1, mail_site(request).reset_ttl_seconds // 60)
    return _render(request, "password_reset.html", user, minutes=minutes)


@_page("/reset/{token}")
def reset_page(request: Request, token: str, user: OptionalUser) -> Response:
    """The new-password form of a live reset link; for a dead one, «Ссылка недействительна» (400)."""
    try:
        with get_database(request).read_session() as s:
            username: str | None = accounts.reset_username(s, mail_site(request), token, utcnow())
    except accounts.BadToken:
        username = None
    status = 200 if username else 400
    return _render(request, "reset.html", user, status_code=status, token=token, username=username)


@_page("/verify-email/{token}")
def verify_email_page(request: Request, token: str, user: OptionalUser) -> Response:
    """The button that confirms an address (POST /api/auth/verify-email with the link's token)."""
    return _render(request, "verify_email.html", user, token=token)


@_page("/admin/mail")
def admin_mail_page(request: Request, user: OptionalUser) -> Response:
    """Admins: «Почта» — the latest 100 mails and their state; their text (live links) only while mail goes
    to the log, never once an SMTP server is configured."""
    gate = _admin_gate(request, user)
    if gate is not None:
        return gate
    with get_database(request).read_session() as s:
        rows = [
            {
                "id": m.id,
                "created_at": m.created_at,
                "status": m.status,
                "attempts": m.attempts,
                "recipient": m.recipient,
                "payload": dict(m.payload),
                "last_error": m.last_error,
            }
            for m in outbox.recent(s, limit=100)
        ]
    smtp = bool(request.app.state.settings.SMTP_URL)
    return _render(request, "admin_mail.html", user, mails=rows, smtp=smtp)
