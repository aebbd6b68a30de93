"""Throttling of logins and registrations with the ``limits`` library (moving windows).

Counters live in memory (one process), or in Redis when ``REDIS_URL`` is set, so that every worker shares
them; the match chat counts its messages in the same storage (play/chat.py, ``AuthLimiter.storage``).
Limits are settings in ``limits``' notation such as ``"10 per 15 minutes"``:

- a login is refused before the password is checked while its (username casefolded, client IP) pair
  (``LOGIN_FAILURES_PER_USERNAME_IP``) or its client IP (``LOGIN_FAILURES_PER_IP``) has used up its failed
  attempts; each failed login (and each wrong old password when changing it) counts against both. Nothing
  is counted per username alone: a guesser elsewhere never locks the owner out (issue 13 §1.6), while one
  client guessing stays throttled by both counters;
- registrations from one client IP have three budgets (issue 31 §5: a club evening behind one NAT registers
  more newcomers than a flat count of attempts allowed, while a script or a run of failures stays slow):
  accounts created (``REGISTRATIONS_PER_IP``, generous, over an evening), failed attempts — a bad or taken
  name, a bad password — (``REGISTRATION_FAILURES_PER_IP``, strict), and every attempt
  (``REGISTRATION_BURST_PER_IP``, a short window against bursts). An attempt is refused while the IP has
  used up its failures or its registrations, or its burst; the refusal names the wait in minutes;
- mails asked for — a password reset or an address confirmation (issue 28 §2) — per address
  (``MAIL_REQUESTS_PER_ADDRESS``, casefolded, counted whether or not any member has it, so the answer tells
  nothing about the address) and per client IP (``MAIL_REQUESTS_PER_IP``).

Refusals are 429 ``{"code": "rate_limited", "message"}`` with ``Retry-After`` (seconds), the message in the
request's language (made in the request's context: worker threads do not carry it). The client IP is
``request.client.host``: behind a reverse proxy, set ``FORWARDED_ALLOW_IPS`` to the proxy's address so that
it is the real client's (``duelclub serve`` believes ``X-Forwarded-For`` from those addresses only). If the
Redis counters cannot be reached, requests are let through (logged): an outage of the limiter must not lock
everybody out.
"""

from __future__ import annotations

import logging
import math
import time

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from duelclub.i18n import gettext as _
from duelclub.play.threads import in_thread
from duelclub.settings import Settings
from duelclub.web.errors import ApiError

log = logging.getLogger(__name__)
KEY_PREFIX = "duelclub:limits"

Bucket = tuple[RateLimitItem, str, str]
"""A limit, its scope and the key counted (``limits``' identifiers)."""


class AuthLimiter:
    """The login and registration limits of one app (``app.state.limiter``). Its methods are coroutines:
    the counting (Redis I/O) runs in a worker thread, the 429 is raised in the request's context."""

    def __init__(self, settings: Settings) -> None:
        self.per_username_ip = parse(settings.LOGIN_FAILURES_PER_USERNAME_IP)
        self.per_ip = parse(settings.LOGIN_FAILURES_PER_IP)
        self.registrations = parse(settings.REGISTRATIONS_PER_IP)
        self.registration_failures = parse(settings.REGISTRATION_FAILURES_PER_IP)
        self.registration_burst = parse(settings.REGISTRATION_BURST_PER_IP)
        self.mail_per_address = parse(settings.MAIL_REQUESTS_PER_ADDRESS)
        self.mail_per_ip = parse(settings.MAIL_REQUESTS_PER_IP)
        self.storage = _storage(settings.REDIS_URL)
        self.limiter = MovingWindowRateLimiter(self.storage)

    # -- logins ------------------------------------------------------------------------------
    def _login_buckets(self, ip: str, username_key: str) -> tuple[Bucket, Bucket]:
        return (self.per_username_ip, "login-user-ip", _pair(username_key, ip)), (self.per_ip, "login-ip", ip)

    async def check_login(self, ip: str, username_key: str) -> None:
        """Raise 429 ``rate_limited`` if this (username, IP) pair or this IP has no failed attempts left."""
        wait = await in_thread(self._wait, *self._login_buckets(ip, username_key))
        if wait:
            raise _refused(wait, _("Слишком много неудачных попыток входа. Подождите и попробуйте снова."))

    async def login_failed(self, ip: str, username_key: str) -> None:
        """Count a failed login against the (username, IP) pair and the IP."""
        await in_thread(self._count, *self._login_buckets(ip, username_key))

    # -- registrations -----------------------------------------------------------------------
    async def register_attempt(self, ip: str) -> None:
        """Before a registration from ``ip``: count it against the burst limit, or raise 429 ``rate_limited``
        (``Retry-After``, and the wait in minutes in the message) while the IP has no failed attempts, no
        registrations or no attempts of its burst left."""
        wait = await in_thread(self._registration_wait, ip)
        if wait:
            message = _(
                "Слишком много попыток регистрации с этого адреса; попробуйте через %(minutes)s мин.",
                minutes=max(1, math.ceil(wait / 60)),
            )
            raise _refused(wait, message)

    def _registration_wait(self, ip: str) -> float:
        wait = self._wait(
            (self.registration_failures, "register-failed-ip", ip), (self.registrations, "register-ip", ip)
        )
        burst: Bucket = (self.registration_burst, "register-burst-ip", ip)
        if wait or self._hit(*burst):
            return wait
        return self._wait(burst) or 0.001  # refused just now, even if its oldest attempt expired since

    async def registration_failed(self, ip: str) -> None:
        """Count a failed registration from ``ip`` (a bad or taken name, a bad password)."""
        await in_thread(self._hit, self.registration_failures, "register-failed-ip", ip)

    async def registered(self, ip: str) -> None:
        """Count an account created from ``ip``."""
        await in_thread(self._hit, self.registrations, "register-ip", ip)

    # -- mails asked for ----------------------------------------------------------------------
    async def mail_request(self, ip: str, address_key: str) -> None:
        """Count a mail asked for to ``address_key`` from ``ip``, or raise 429 ``rate_limited`` (nothing
        counted) while either has none left."""
        wait = await in_thread(self._mail_wait, ip, address_key)
        if wait:
            message = _(
                "Слишком много писем на этот адрес или с этого устройства; попробуйте через %(minutes)s мин.",
                minutes=max(1, math.ceil(wait / 60)),
            )
            raise _refused(wait, message)

    def _mail_wait(self, ip: str, address_key: str) -> float:
        buckets: tuple[Bucket, Bucket] = (
            (self.mail_per_address, "mail-address", address_key),
            (self.mail_per_ip, "mail-ip", ip),
        )
        wait = self._wait(*buckets)
        if not wait:
            self._count(*buckets)
        return wait

    # -- the library (blocking: Redis I/O) ---------------------------------------------------
    def _wait(self, *buckets: Bucket) -> float:
        """Seconds until every bucket has room again (0: they all have room now)."""
        wait = 0.0
        for item, scope, key in buckets:
            try:
                if self.limiter.test(item, scope, key):
                    continue
                reset = self.limiter.get_window_stats(item, scope, key).reset_time
            except Exception:
                log.warning("rate limiter storage failed; letting the request through", exc_info=True)
                continue
            wait = max(wait, reset - time.time(), 0.001)
        return wait

    def _count(self, *buckets: Bucket) -> None:
        for bucket in buckets:
            self._hit(*bucket)

    def _hit(self, item: RateLimitItem, scope: str, key: str) -> bool:
        """Count one in the bucket; False if it was full (nothing counted). True when the storage fails."""
        try:
            return self.limiter.hit(item, scope, key)
        except Exception:
            log.warning("rate limiter storage failed; attempt not counted", exc_info=True)
            return True


def _refused(wait: float, message: str) -> ApiError:
    """A 429 whose ``Retry-After`` is the first whole second after ``wait``: a window counts an attempt until
    the end of its last second, inclusive (``limits``' moving window)."""
    return ApiError(429, "rate_limited", message, headers={"Retry-After": str(math.floor(wait) + 1)})


def _pair(username_key: str, ip: str) -> str:
    """One counter key for a (username, IP) pair (``/`` cannot occur in an address)."""
    return f"{ip}/{username_key}"


def _storage(redis_url: str | None) -> Storage:
    """Redis counters shared by all workers when ``redis_url`` is set, else this process's memory."""
    if not redis_url:
        return MemoryStorage()
    storage = storage_from_string(redis_url, key_prefix=KEY_PREFIX)
    assert isinstance(storage, Storage)  # a redis:// URL gives the synchronous storage
    return storage


def get_limiter(conn: HTTPConnection) -> AuthLimiter:
    """The app's :class:`AuthLimiter`."""
    limiter: AuthLimiter = conn.app.state.limiter
    return limiter


def client_ip(conn: HTTPConnection) -> str:
    """The client's address as the server sees it (see the module docstring about proxies)."""
    return conn.client.host if conn.client is not None else "unknown"
