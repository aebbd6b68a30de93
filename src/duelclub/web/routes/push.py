"""Web Push over HTTP (issue 28 §3; the rules are in notify/push.py, the sending in notify/push_sender.py):

- ``GET /api/me/push-subscriptions`` → ``{public_key, subscriptions: [{endpoint, created_at}]}``: the site's
  VAPID public key (``applicationServerKey`` for ``PushManager.subscribe``) and the caller's browsers;
- ``POST /api/me/push-subscriptions {endpoint, keys: {p256dh, auth}}`` (what ``PushSubscription.toJSON()``
  gives; ``expirationTime`` is ignored) → 201 ``{endpoint, created_at}``: subscribe this browser (again:
  its keys are updated). A member may subscribe several browsers (``PUSH_MAX_SUBSCRIPTIONS``, the oldest
  goes beyond it);
- ``DELETE /api/me/push-subscriptions {endpoint}`` → 204: unsubscribe it (204 also when it was not
  subscribed);
- ``GET /sw.js``: the service worker (static/js/sw.js) at the site's root, so its scope covers every page.

Errors: 422 ``bad_subscription`` (an endpoint that is not https, too long, a private address; keys that are
not base64url or of the wrong size or curve), 422 ``malformed`` (a body without the fields).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from duelclub.i18n import gettext as _
from duelclub.notify.push import BadSubscription, check_subscription
from duelclub.play.threads import in_thread
from duelclub.settings import Settings
from duelclub.store import notices, push
from duelclub.store.db import Database
from duelclub.store.models import utcnow
from duelclub.web.deps import CurrentUser, get_database
from duelclub.web.errors import ApiError
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["auth"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
worker_router = APIRouter()
Db = Annotated[Database, Depends(get_database)]
SERVICE_WORKER_HEADERS = {
    "Cache-Control": "no-cache",  # a new sw.js reaches browsers at their next visit
    "Service-Worker-Allowed": "/",
}


class Keys(BaseModel):
    p256dh: Annotated[str, Field(max_length=200)]
    auth: Annotated[str, Field(max_length=100)]


class SubscriptionBody(BaseModel):
    endpoint: Annotated[str, Field(max_length=4096)]
    keys: Keys
    expirationTime: float | None = None  # the browser's name; ignored


class EndpointBody(BaseModel):
    endpoint: Annotated[str, Field(max_length=4096)]


class SubscriptionInfo(BaseModel):
    endpoint: str
    created_at: datetime


class PushInfo(BaseModel):
    """The site's VAPID public key (base64url, 65 bytes) and the caller's subscribed browsers."""

    public_key: str
    subscriptions: list[SubscriptionInfo]


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def bad_subscription(exc: BadSubscription) -> ApiError:
    if exc.field == "endpoint":
        human = _("Этот браузер дал адрес службы уведомлений, на который сервер не отправляет.")
    else:
        human = _("Ключи подписки этого браузера повреждены: выключите и снова включите уведомления.")
    return ApiError(422, "bad_subscription", f"{human} ({exc})")


def _listing(db: Database, user_id: int) -> list[SubscriptionInfo]:
    with db.read_session() as s:
        return [
            SubscriptionInfo(endpoint=r.endpoint, created_at=r.created_at) for r in push.for_user(s, user_id)
        ]


@router.get("/me/push-subscriptions", response_model=PushInfo)
async def my_push_subscriptions(request: Request, user: CurrentUser, db: Db) -> PushInfo:
    """The VAPID public key to subscribe with, and the browsers you subscribed."""
    listing = await in_thread(_listing, db, user.id)
    return PushInfo(public_key=_settings(request).VAPID_PUBLIC_KEY, subscriptions=listing)


@router.post("/me/push-subscriptions", status_code=201, response_model=SubscriptionInfo)
async def subscribe(body: SubscriptionBody, request: Request, user: CurrentUser, db: Db) -> SubscriptionInfo:
    """Subscribe this browser to your notices. 422 ``bad_subscription``."""
    settings = _settings(request)
    try:
        sub = check_subscription(
            body.endpoint, body.keys.p256dh, body.keys.auth, http_loopback=settings.PUSH_HTTP_LOOPBACK
        )
    except BadSubscription as exc:
        raise bad_subscription(exc) from None
    now = utcnow()

    def store() -> None:
        with db.session() as s:
            push.subscribe(s, user.id, sub, now, keep=settings.PUSH_MAX_SUBSCRIPTIONS)
            notices.set_push(s, user.id, True)  # a browser subscribed: the member wants push notices

    await in_thread(store)
    return SubscriptionInfo(endpoint=sub.endpoint, created_at=now)


@router.delete("/me/push-subscriptions", status_code=204)
async def unsubscribe(body: EndpointBody, user: CurrentUser, db: Db) -> Response:
    """Unsubscribe a browser of yours (nothing happens for an endpoint that is not yours)."""

    def store() -> None:
        with db.session() as s:
            push.unsubscribe(s, user.id, body.endpoint)
            if not push.for_user(s, user.id):
                notices.set_push(s, user.id, False)  # no browser left to push to

    await in_thread(store)
    return Response(status_code=204)


@worker_router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> FileResponse:
    """The service worker, served from the root so that its scope is the whole site."""
    path = Path(_settings(request).STATIC_DIR) / "js" / "sw.js"
    return FileResponse(path, media_type="text/javascript; charset=utf-8", headers=SERVICE_WORKER_HEADERS)
