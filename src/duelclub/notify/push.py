"""Web Push notices (issue 28 §3): what a browser's subscription may be, and :func:`queue_push`, which the
notice dispatcher calls in the transaction that causes a notice (the push sender, notify/push_sender.py,
sends it off the request path).

A subscription (``PushSubscription.toJSON()`` in the browser) is accepted when:

- ``endpoint`` is an ``https://`` URL of at most 2048 characters, with a host name or a public address
  (no user, no fragment, no private, loopback or link-local address: the site posts to it, so it must not
  reach into the site's own network); ``http://`` on a loopback address only with ``PUSH_HTTP_LOOPBACK``
  (a push service run locally: the tests);
- ``keys.p256dh`` is base64url of a point on P-256 in uncompressed form (65 bytes) and ``keys.auth``
  base64url of 16 bytes (RFC 8291 §3); both are kept unpadded.

The payload the service worker (static/js/sw.js) shows is JSON ``{title, body, url, tag}``: ``url`` a path
of this site (``/matches/…``; the service worker opens it on its own origin), ``tag`` the notification that
a newer one of the same tag replaces (default: the url, so one match shows one notification).
"""

from __future__ import annotations

import binascii
import ipaddress
from datetime import datetime
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy.orm import Session

from duelclub.notify.addresses import has_control
from duelclub.notify.vapid import b64url, b64url_decode
from duelclub.store import push
from duelclub.store.models import utcnow
from duelclub.store.push import Subscription

MAX_ENDPOINT = 2048
MAX_TITLE, MAX_BODY, MAX_URL = 120, 400, 500
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})


class BadSubscription(ValueError):
    """A subscription this site does not push to; ``field`` is ``endpoint``, ``p256dh`` or ``auth``."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def _is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def reachable_address(address: str, *, loopback: bool = False) -> bool:
    """True if the site may post to the IP ``address``: a public one, or a loopback one when ``loopback``."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return ip.is_global or (loopback and ip.is_loopback)


def check_endpoint(endpoint: str, *, http_loopback: bool = False) -> str:
    """``endpoint`` if the site may post to it (module docstring); BadSubscription otherwise."""
    if not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise BadSubscription("endpoint", f"1 to {MAX_ENDPOINT} characters")
    if has_control(endpoint) or any(c.isspace() for c in endpoint) or not endpoint.isascii():
        raise BadSubscription("endpoint", "spaces, control or non-ASCII characters")
    try:
        parts = urlsplit(endpoint)
        host, _port = parts.hostname or "", parts.port
    except ValueError:
        raise BadSubscription("endpoint", "not a URL") from None
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        raise BadSubscription("endpoint", "a URL with a host, no user and no fragment")
    if parts.scheme == "http" and http_loopback and _is_loopback(host):
        return endpoint
    if parts.scheme != "https":
        raise BadSubscription("endpoint", "an https:// URL")
    if host.lower() in _LOOPBACK_NAMES:
        raise BadSubscription("endpoint", "not a local address")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return endpoint  # a host name
    if not address.is_global:
        raise BadSubscription("endpoint", "not a private, loopback or link-local address")
    return endpoint


def _key_bytes(field: str, value: str, size: int) -> bytes:
    try:
        raw = b64url_decode(value)
    except (ValueError, binascii.Error):
        raise BadSubscription(field, "not base64url") from None
    if len(raw) != size:
        raise BadSubscription(field, f"{size} bytes, not {len(raw)}")
    return raw


def check_subscription(endpoint: str, p256dh: str, auth: str, *, http_loopback: bool = False) -> Subscription:
    """The subscription, keys unpadded, if the site may push to it (module docstring); BadSubscription."""
    checked = check_endpoint(endpoint, http_loopback=http_loopback)
    point = _key_bytes("p256dh", p256dh, 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription("p256dh", "not a point on P-256") from None
    secret = _key_bytes("auth", auth, 16)
    return Subscription(checked, b64url(point), b64url(secret))


def payload(title: str, body: str, url: str, tag: str | None = None) -> dict[str, str]:
    """The JSON the service worker shows; ValueError on an empty or overlong title, an overlong body, or a
    ``url`` that is not a path of this site."""
    if not title or len(title) > MAX_TITLE or len(body) > MAX_BODY:
        raise ValueError(f"a push title is 1 to {MAX_TITLE} characters, its body at most {MAX_BODY}")
    if not url.startswith("/") or url.startswith("//") or len(url) > MAX_URL or has_control(url):
        raise ValueError("a push url is a path of this site, such as /matches/abc")
    return {"title": title, "body": body, "url": url, "tag": (tag or url)[:MAX_URL]}


def queue_push(
    s: Session,
    member_id: int,
    title: str,
    body: str,
    url: str,
    key: str,
    *,
    tag: str | None = None,
    ttl: int | None = None,
    now: datetime | None = None,
) -> int:
    """Queue a push to every browser ``member_id`` subscribed, in the caller's transaction; how many were
    written: 0 when the member subscribed none, or when ``key`` (the cause: ``turn:{match}:{seq}``, at most
    180 characters) was queued before — a cause is pushed once per browser however often this is called.
    ``ttl``: seconds a push service may keep it for an offline browser (None: ``PUSH_TTL_SECONDS``). After
    the commit, ``app.state.pusher.wake()`` sends it at once (otherwise within ``PUSH_POLL_SECONDS``).
    ValueError: see :func:`payload`, and an empty or overlong ``key``."""
    message = payload(title, body, url, tag)
    return push.queue(s, member_id, dict(message), key, ttl, now or utcnow())
