"""The account's e-mail and password reset (issue 28 §1, §2; API section exact):

- ``GET /api/me/email`` → ``{email, email_pending, email_notices}`` (only the member's own; addresses are
  never shown to anyone else);
- ``PUT /api/me/email {email}`` → the same; a new address waits for its confirmation link
  (``PUBLIC_URL/verify-email/{token}``), ``null`` or ``""`` removes the address;
- ``POST /api/auth/verify-email {token}`` → ``{email}``;
- ``POST /api/auth/password-reset {email}`` → 202 always (a known and an unknown address get the same
  answer; only a member's confirmed address is mailed, ``PUBLIC_URL/reset/{token}``);
- ``POST /api/auth/password-reset/confirm {token, password}`` → 200 ``{username}``: the new password is set
  and every session of the member ends.

Errors: 422 ``bad_email`` (malformed, overlong, a control character), 422 ``bad_password``, 400
``bad_token`` (a used, expired, unknown or foreign token), 409 ``email_taken`` (at confirmation: another
member confirmed it), 429 ``rate_limited`` (mails per address and per client IP, web/ratelimit.py). Mails are
written in the transaction of the change (notify/accounts.py) and sent by the background sender.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from duelclub import i18n
from duelclub.i18n import current_lang
from duelclub.i18n import gettext as _
from duelclub.notify import accounts
from duelclub.notify.addresses import BadAddress, address_key, check_address
from duelclub.play.threads import in_thread
from duelclub.store import account_tokens, users
from duelclub.store.db import Database
from duelclub.store.models import utcnow
from duelclub.web.account_words import password_message
from duelclub.web.deps import CurrentUser, get_database
from duelclub.web.errors import ApiError
from duelclub.web.openapi import errors
from duelclub.web.passwords import Hashing, get_hashing
from duelclub.web.ratelimit import AuthLimiter, client_ip, get_limiter
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["auth"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
Db = Annotated[Database, Depends(get_database)]
Limiter = Annotated[AuthLimiter, Depends(get_limiter)]
Hasher = Annotated[Hashing, Depends(get_hashing)]
_Address = Annotated[str, Field(max_length=1024)]
_Token = Annotated[str, Field(max_length=200)]


class EmailBody(BaseModel):
    email: _Address | None


class AddressBody(BaseModel):
    email: _Address


class TokenBody(BaseModel):
    token: _Token


class ResetBody(BaseModel):
    token: _Token
    password: Annotated[str, Field(max_length=1024)]


class EmailInfo(BaseModel):
    """The member's own address: ``email`` confirmed, ``email_pending`` waiting for its link."""

    email: str | None
    email_pending: str | None
    email_notices: str


def known_lang(request: Request) -> str | None:
    """The request's language if the request says one (the ``lang`` cookie or ``Accept-Language``), else
    None: a script's bare request tells nothing about the member's language."""
    if request.cookies.get(i18n.COOKIE) or request.headers.get("accept-language"):
        return i18n.current_lang()
    return None


def mail_site(request: Request) -> accounts.MailSite:
    site: accounts.MailSite = request.app.state.mail_site
    return site


def wake_sender(request: Request) -> None:
    """Let this worker's sender send what was just committed."""
    sender = getattr(request.app.state, "mailer", None)
    if sender is not None:
        sender.wake()


def bad_email() -> ApiError:
    return ApiError(422, "bad_email", _("Это не похоже на адрес почты (например, anna@example.org)."))


def bad_token() -> ApiError:
    return ApiError(400, "bad_token", _("Ссылка недействительна: она устарела или уже использована."))


def checked_address(value: str) -> str:
    try:
        return check_address(value)
    except BadAddress:
        raise bad_email() from None


def _email_info(db: Database, user_id: int) -> EmailInfo:
    with db.read_session() as s:
        account = users.get_user(s, user_id)
        if account is None:
            raise ApiError(401, "not_authenticated", "log in first")
        pending = account_tokens.pending_email(s, user_id, utcnow())
        return EmailInfo(email=account.email, email_pending=pending, email_notices=account.email_notices)


@router.get("/me/email", response_model=EmailInfo)
async def get_email(user: CurrentUser, db: Db) -> EmailInfo:
    """The caller's address, confirmed and pending."""
    return await in_thread(_email_info, db, user.id)


@router.put("/me/email", response_model=EmailInfo, responses=errors(429))
async def put_email(
    body: EmailBody, request: Request, user: CurrentUser, db: Db, limiter: Limiter
) -> EmailInfo:
    """Change the address (a confirmation mail to the new one) or remove it (``null``/``""``). 422
    ``bad_email``, 429 ``rate_limited``."""
    address = checked_address(body.email) if body.email else None
    if address is not None:
        await limiter.mail_request(client_ip(request), address_key(address))
    site, lang = mail_site(request), known_lang(request)

    def store() -> None:
        with db.session() as s:
            account = users.get_user(s, user.id)
            if account is None:
                raise ApiError(401, "not_authenticated", "log in first")
            account.lang = lang or account.lang
            accounts.set_email(s, site, account, address, utcnow())

    await in_thread(store)
    wake_sender(request)
    return await in_thread(_email_info, db, user.id)


@router.post("/auth/verify-email", responses=errors(400, 409))
async def verify_email(body: TokenBody, request: Request, db: Db) -> dict[str, str]:
    """Confirm an address with the token of its link (no login needed: the link is the proof). 400
    ``bad_token``, 409 ``email_taken``."""
    site = mail_site(request)

    def store() -> str:
        with db.session() as s:
            return accounts.confirm_email(s, site, body.token, utcnow())[1]

    try:
        email = await in_thread(store)
    except accounts.BadToken:
        raise bad_token() from None
    except accounts.EmailTaken:
        raise ApiError(409, "email_taken", _("Этот адрес уже подтверждён в другой учётной записи.")) from None
    return {"email": email}


@router.post("/auth/password-reset", status_code=202, responses=errors(429))
async def password_reset(body: AddressBody, request: Request, db: Db, limiter: Limiter) -> Response:
    """Mail a reset link to the member with this confirmed address. 202 whether or not there is one (and
    nothing is sent to an unknown address); 422 ``bad_email``, 429 ``rate_limited``."""
    address = checked_address(body.email)
    await limiter.mail_request(client_ip(request), address_key(address))
    site, lang = mail_site(request), current_lang()

    def store() -> bool:
        with db.session() as s:
            return accounts.request_reset(s, site, address, utcnow(), lang)

    if await in_thread(store):
        wake_sender(request)
    return Response(status_code=202)


@router.post("/auth/password-reset/confirm", responses=errors(400))
async def password_reset_confirm(
    body: ResetBody, request: Request, db: Db, hashing: Hasher
) -> dict[str, str]:
    """Set a new password with a reset link's token; every session of the member ends (this browser's
    too: log in with the new password). 400 ``bad_token``, 422 ``bad_password`` (the link stays usable)."""
    site = mail_site(request)

    def target() -> str:
        with db.read_session() as s:
            return accounts.reset_username(s, site, body.token, utcnow())

    try:
        username = await in_thread(target)
        users.check_new_password(body.password, username)
    except accounts.BadToken:
        raise bad_token() from None
    except users.BadPassword as exc:
        raise ApiError(422, "bad_password", password_message(exc)) from None
    password_hash = await hashing.hash(body.password)

    def store() -> int:
        with db.session() as s:
            return accounts.reset_password(s, site, body.token, password_hash, utcnow())

    try:
        user_id = await in_thread(store)
    except accounts.BadToken:
        raise bad_token() from None
    watch = getattr(request.app.state, "session_watch", None)
    if watch is not None:
        await watch.announce(user_id)
    request.session.clear()
    return {"username": username}
