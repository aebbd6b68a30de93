"""Configuration from environment variables (DESIGN.md §Configuration), via pydantic-settings.

Unset values fall back to the embedded defaults: a SQLite file ``duelclub.db`` in the data directory
(``DATA_DIR``, by default ``$XDG_DATA_HOME/duelclub``, i.e. ``~/.local/share/duelclub``), the in-process
bus, and a secret key generated once into ``secret_key`` beside it (and the Web Push key into
``vapid_private_key``). ``make run`` sets ``DATA_DIR`` to the
checkout's ``var/``.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from limits import parse as parse_limit
from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from duelclub import resources
from duelclub.ratings.glicko2 import Rating
from duelclub.ratings.rules import RatingRules

APP_NAME = "duelclub"


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/duelclub``, or ``~/.local/share/duelclub`` when XDG_DATA_HOME is unset or relative
    (the XDG Base Directory specification ignores relative values).

    Not the working directory: ``duelclub serve``, ``create-admin`` and ``ratings rebuild`` run from any
    directory must reach the same database; and not the package directory, which an installed wheel may not
    be allowed to write (and which a reinstall replaces)."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / APP_NAME


class Settings(BaseSettings):
    """Process settings; every field maps to the environment variable of the same name.

    - ``DATABASE_URL``: SQLAlchemy URL (``sqlite:///…`` or ``postgresql+psycopg://…``).
    - ``REDIS_URL``: ``redis://…`` for the Redis bus; None = in-process bus.
    - ``SECRET_KEY``: signs session cookies.
    - ``BOT_THINK_SECONDS``: wall-clock budget per decision of a searching bot; None = the level's default.
    - ``BOT_WORKERS``: bot worker processes ``duelclub serve`` starts beside the web worker (default
      ``max(1, cpu_count - 1)``; 0 = none, then ``duelclub bots`` must run somewhere); also the default of
      ``duelclub bots --workers`` (issue 12 item 1: bots never think in a web process).
    - ``BOT_LEASE_SECONDS``: how long a bot worker holds a job before another may take it (longer than any
      level's think budget: a worker killed mid-think delays its bot by at most this, and on PostgreSQL
      the 5 s between an idle worker's looks, bots/worker.py ``PG_RECHECK_SECONDS``).
    - ``BOT_POLL_SECONDS``: on SQLite, how often bot workers look for jobs and web workers for answers
      (idle bot workers back off to 5×); PostgreSQL uses LISTEN/NOTIFY instead.
    - ``ANALYSIS_EFFORT``: scales the search iterations per decision of the post-game analysis
      (``iterations`` of each game's ``bots/<slug>/analysis.py``; 1 analyses a 60-action match in well under
      a minute on one core; 0.25 is a quick, rougher analysis).
    - ``TEMPLATES_DIR``/``STATIC_DIR``: UI files.
    - ``COOKIE_SECURE``: mark the session cookie Secure (behind HTTPS).
    - ``DATA_DIR`` (alias ``VAR_DIR``, the older name; ``DATA_DIR`` wins when both are set): where the default
      SQLite database (``duelclub.db``), the generated secret (``secret_key``) and the bot workers' metrics
      files live; default :func:`default_data_dir` (``~/.local/share/duelclub``). Created on first use.
    - ``LOGIN_FAILURES_PER_USERNAME_IP``/``LOGIN_FAILURES_PER_IP``: throttling (``web/ratelimit.py``), in
      the ``limits`` notation (``"10 per 15 minutes"``): failed logins per (username, client IP) pair and per
      client IP, so that guessing from one client never locks the owner out of their account from another
      (issue 13 §1.6).
    - ``REGISTRATIONS_PER_IP``/``REGISTRATION_FAILURES_PER_IP``/``REGISTRATION_BURST_PER_IP``: registrations
      per client IP (issue 31 §5, one club room's Wi-Fi is one address): accounts created (generous: 30 in
      3 hours, an evening's newcomers), failed attempts (a bad or taken name, a bad password: strict, 10 an
      hour) and every attempt (5 a minute, against bursts); ``REGISTRATIONS_PER_IP`` counted every attempt
      before.
    - ``ARGON2_TIME_COST``/``ARGON2_MEMORY_KIB``/``ARGON2_PARALLELISM``: the argon2id parameters of new
      password hashes (default: OWASP's first profile, m=19 MiB, t=2, p=1); older hashes are re-hashed at
      the next login. ``HASH_CONCURRENCY``: password hashes computed at once per process (their own
      limiter, never holding a database connection; issue 13 §1.1); default ``max(1, cpu_count - 1)``, so
      that a burst of logins leaves a core to everybody else.
    - ``WS_MESSAGE_BUDGET``: messages one WebSocket may send (``limits`` notation, default
      ``"100 per 20 seconds"``, in the spirit of Lichess); beyond it the message gets error ``rate_limited``,
      and after ``WS_OVER_BUDGET_CLOSE`` refused messages the socket is closed with 1008 (policy violation).
      ``WS_MAX_NESTING``: the deepest JSON nesting accepted in a message (error ``malformed``).
    - ``FORWARDED_ALLOW_IPS``: comma-separated addresses (or ``*``) of reverse proxies whose
      ``X-Forwarded-For``/``-Proto`` are believed; empty (the default) = none, the client is the TCP peer.
    - ``METRICS_ALLOW_IPS``: comma-separated addresses or networks that may read ``/metrics`` (default the
      loopback addresses); ``METRICS_TOKEN``: a bearer token that opens it from anywhere (unset = none).
    - ``LOG_FORMAT``: ``text`` (default) or ``json`` (one JSON object a line, with request id, user id and
      match id where known, duelclub/logs.py); ``LOG_LEVEL``: the root level (``INFO``).
    - ``MAX_BODY_BYTES``: the largest HTTP request body and WebSocket message accepted (413 / ``too_large``).
    - ``ABANDON_GRACE_SECONDS``: how long a player of a match without a clock may be disconnected before
      the opponent may claim the win (play/presence.py).
    - ``TOURNAMENT_GRACE_SECONDS``: how long a seat of a tournament match may take for its first move before
      it loses by forfeit (a no-show; two withdraw the player: play/tournament_driver.py).
    - ``WS_PER_MESSAGE_DEFLATE``: compress WebSocket messages (off: CPU and memory per socket, issue 12).
    - ``WS_PROTOCOL``: the WebSocket implementation, one of uvicorn's own: its sans-I/O one by default
      (issue 12 and issue 29 §4, benchmarks/load.py; cli.uvicorn_options).
    - ``WS_PING_SECONDS``: how often the server pings each socket to find peers that vanished without a
      close (0: never); cli.uvicorn_options has the cost and the trade-off.
    - ``SQLITE_SYNCHRONOUS``: ``PRAGMA synchronous`` of the embedded store: ``NORMAL`` keeps every
      acknowledged action through a killed process, ``FULL`` through a power cut too (store/db.py; with
      ``FULL`` the moves are committed in a worker thread, not on the event loop: store/sqlite_writer.py).
    - ``DB_POOL_SIZE``: pooled database connections per process, and as many threads for blocking work
      (store/db.py; PostgreSQL's default ``max_connections`` of 100 fits two web workers and the bot workers;
      a web worker on PostgreSQL also opens up to 8 for its moves, store/pg_writer.py, 1–4 in use).
    - ``SMTP_URL``: where mail goes (issue 28, notify/smtp.py): ``smtp://[user:password@]host[:port]``
      (plain, STARTTLS when the server offers it; port 25), ``smtp+starttls://…`` (STARTTLS required; port
      587) or ``smtps://…`` (TLS from the start; port 465); user and password percent-encoded. Unset: mails
      are written to the log and kept for the admins' «Почта» page (/admin/mail), nothing leaves the site.
      ``SMTP_CA_FILE``: a CA bundle (PEM) to verify the server's certificate with, instead of the system's.
    - ``MAIL_FROM``: the ``From`` of every mail (``Name <address>`` or an address).
    - ``PUBLIC_URL``: the site's address as members reach it, for links in mails (``https://club.example``).
    - ``PASSWORD_RESET_TTL_SECONDS``/``EMAIL_VERIFY_TTL_SECONDS``: how long a mailed reset or confirmation
      link works (an hour; two days).
    - ``MAIL_REQUESTS_PER_ADDRESS``/``MAIL_REQUESTS_PER_IP``: password-reset and confirmation mails asked
      for per address and per client IP (``limits`` notation), whether or not the address is known.
    - ``MAIL_POLL_SECONDS``: how often each worker's sender looks for due mails (its own are sent at once);
      ``MAIL_LEASE_SECONDS``: how long a sender holds the mails it took; ``MAIL_RETRY_SECONDS``/
      ``MAIL_RETRY_MAX_SECONDS``: the first wait after a failed send, doubled per try up to the cap;
      ``MAIL_MAX_ATTEMPTS``: tries before a mail is given up (``failed`` on the «Почта» page).
    - ``NOTIFY_EMAIL_AFTER_SECONDS``: how long a member's turn waits, with no page of the site open, before
      it is mailed to a member who chose a mail per turn (issue 28 §3; six hours). ``NOTIFY_DIGEST_HOUR``:
      the hour (UTC) from which the daily digests go out; ``NOTIFY_SWEEP_SECONDS``: how often each worker
      looks for turn notices, low-time reminders and digests owed (play/notices.py).
    - ``VAPID_PRIVATE_KEY``: the site's Web Push signing key (notify/vapid.py): a P-256 private key, raw
      base64url (32 bytes, what ``web-push generate-vapid-keys`` prints) or PEM; unset, it is read from
      ``DATA_DIR/vapid_private_key``, generated there on first use. Keep it: the browsers' subscriptions
      belong to it. ``VAPID_PUBLIC_KEY``: derived from it (when set, it must be that key).
      ``VAPID_SUBJECT``: the operator's contact for the push services, ``mailto:address`` or
      ``https://host`` (unset: ``PUBLIC_URL``'s origin when it is https, else ``mailto:`` the ``MAIL_FROM``
      address).
    - ``PUSH_TTL_SECONDS``: how long a push service keeps a message for a device that is offline;
      ``PUSH_MAX_SUBSCRIPTIONS``: browsers one member may subscribe (the oldest goes beyond it);
      ``PUSH_POLL_SECONDS``/``PUSH_LEASE_SECONDS``/``PUSH_RETRY_SECONDS``/``PUSH_RETRY_MAX_SECONDS``/
      ``PUSH_MAX_ATTEMPTS``/``PUSH_TIMEOUT_SECONDS``: the push sender, as the ``MAIL_*`` ones for mail
      (notify/push_sender.py). ``PUSH_HTTP_LOOPBACK``: accept ``http://`` subscription endpoints on the
      loopback addresses (a push service run locally, the tests); off, an endpoint must be ``https://``.
    - ``RATING_*``: the Glicko-2 ratings (ratings/rules.py, issue 14): the start rating, RD and volatility,
      τ, the RD bounds, the RD growth while idle (rating periods per day: 0.21436 takes a typical RD from 60
      to 110 in a year) and the RD above which a rating is provisional. After changing them, run
      ``duelclub ratings rebuild``.
    """

    model_config = SettingsConfigDict(case_sensitive=True, extra="ignore")

    DATA_DIR: Path = Field(
        default_factory=default_data_dir, validation_alias=AliasChoices("DATA_DIR", "VAR_DIR")
    )
    DATABASE_URL: str = ""
    REDIS_URL: str | None = None
    SECRET_KEY: str = Field(default="", repr=False)
    BOT_THINK_SECONDS: float | None = Field(default=None, ge=0)
    BOT_WORKERS: int = Field(default_factory=lambda: default_bot_workers(), ge=0)
    BOT_LEASE_SECONDS: float = Field(default=10.0, gt=0)
    BOT_POLL_SECONDS: float = Field(default=0.05, gt=0, le=5)
    ANALYSIS_EFFORT: float = Field(default=1.0, gt=0, le=20)
    TEMPLATES_DIR: Path = resources.TEMPLATES_DIR
    STATIC_DIR: Path = resources.STATIC_DIR
    COOKIE_SECURE: bool = False
    MAX_BODY_BYTES: int = Field(default=64 * 1024, ge=1024)
    LOGIN_FAILURES_PER_USERNAME_IP: str = "10 per 15 minutes"
    LOGIN_FAILURES_PER_IP: str = "30 per 15 minutes"
    REGISTRATIONS_PER_IP: str = "30 per 3 hours"
    REGISTRATION_FAILURES_PER_IP: str = "10 per hour"
    REGISTRATION_BURST_PER_IP: str = "5 per minute"
    ABANDON_GRACE_SECONDS: float = Field(default=60.0, ge=0)
    TOURNAMENT_GRACE_SECONDS: float = Field(default=180.0, ge=1)
    DB_POOL_SIZE: int = Field(default=32, ge=2, le=500)
    SQLITE_SYNCHRONOUS: Literal["NORMAL", "FULL"] = "NORMAL"
    WS_PER_MESSAGE_DEFLATE: bool = False
    WS_PROTOCOL: Literal["websockets-sansio", "websockets", "wsproto"] = "websockets-sansio"
    WS_PING_SECONDS: float = Field(default=60.0, ge=0)
    RATING_START: float = 1500.0
    RATING_START_RD: float = Field(default=350.0, gt=0)
    RATING_START_VOLATILITY: float = Field(default=0.06, gt=0)
    RATING_TAU: float = Field(default=0.5, gt=0)
    RATING_RD_MIN: float = Field(default=45.0, gt=0)
    RATING_RD_MAX: float = Field(default=350.0, gt=0)
    RATING_PERIODS_PER_DAY: float = Field(default=0.21436, ge=0)
    RATING_PROVISIONAL_RD: float = Field(default=110.0, gt=0)
    ARGON2_TIME_COST: int = Field(default=2, ge=1, le=20)
    ARGON2_MEMORY_KIB: int = Field(default=19 * 1024, ge=1024, le=4 * 1024 * 1024)
    ARGON2_PARALLELISM: int = Field(default=1, ge=1, le=16)
    HASH_CONCURRENCY: int = Field(default_factory=lambda: default_bot_workers(), ge=1, le=64)
    WS_MESSAGE_BUDGET: str = "100 per 20 seconds"
    WS_OVER_BUDGET_CLOSE: int = Field(default=20, ge=1)
    WS_MAX_NESTING: int = Field(default=32, ge=4, le=256)
    FORWARDED_ALLOW_IPS: str = ""
    METRICS_ALLOW_IPS: str = "127.0.0.1,::1"
    METRICS_TOKEN: str | None = Field(default=None, repr=False)
    LOG_FORMAT: Literal["text", "json"] = "text"
    LOG_LEVEL: str = "INFO"
    SMTP_URL: str | None = Field(default=None, repr=False)
    SMTP_CA_FILE: str | None = None
    MAIL_FROM: str = "duelclub <noreply@localhost>"
    PUBLIC_URL: str = "http://127.0.0.1:8000"
    PASSWORD_RESET_TTL_SECONDS: int = Field(default=3600, ge=60, le=7 * 86400)
    EMAIL_VERIFY_TTL_SECONDS: int = Field(default=2 * 86400, ge=60, le=30 * 86400)
    MAIL_REQUESTS_PER_ADDRESS: str = "3 per hour"
    MAIL_REQUESTS_PER_IP: str = "10 per hour"
    MAIL_POLL_SECONDS: float = Field(default=10.0, gt=0, le=60)
    MAIL_LEASE_SECONDS: float = Field(default=120.0, ge=5)
    MAIL_RETRY_SECONDS: float = Field(default=30.0, gt=0)
    MAIL_RETRY_MAX_SECONDS: float = Field(default=3600.0, gt=0)
    MAIL_MAX_ATTEMPTS: int = Field(default=20, ge=1, le=1000)
    NOTIFY_EMAIL_AFTER_SECONDS: int = Field(default=6 * 3600, ge=1, le=30 * 86400)
    NOTIFY_DIGEST_HOUR: int = Field(default=8, ge=0, le=23)
    NOTIFY_SWEEP_SECONDS: float = Field(default=60.0, gt=0, le=3600)
    VAPID_PRIVATE_KEY: str = Field(default="", repr=False)
    VAPID_PUBLIC_KEY: str = ""
    VAPID_SUBJECT: str = ""
    PUSH_TTL_SECONDS: int = Field(default=86400, ge=0, le=28 * 86400)
    PUSH_MAX_SUBSCRIPTIONS: int = Field(default=10, ge=1, le=100)
    PUSH_POLL_SECONDS: float = Field(default=10.0, gt=0, le=60)
    PUSH_LEASE_SECONDS: float = Field(default=60.0, ge=5)
    PUSH_RETRY_SECONDS: float = Field(default=30.0, gt=0)
    PUSH_RETRY_MAX_SECONDS: float = Field(default=3600.0, gt=0)
    PUSH_MAX_ATTEMPTS: int = Field(default=10, ge=1, le=1000)
    PUSH_TIMEOUT_SECONDS: float = Field(default=10.0, gt=0, le=120)
    PUSH_HTTP_LOOPBACK: bool = False

    @field_validator("DATA_DIR")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        """``~`` expanded and a relative path taken from the working directory, once, at start-up."""
        return value.expanduser().absolute()

    @field_validator(
        "LOGIN_FAILURES_PER_USERNAME_IP",
        "LOGIN_FAILURES_PER_IP",
        "REGISTRATIONS_PER_IP",
        "REGISTRATION_FAILURES_PER_IP",
        "REGISTRATION_BURST_PER_IP",
        "WS_MESSAGE_BUDGET",
        "MAIL_REQUESTS_PER_ADDRESS",
        "MAIL_REQUESTS_PER_IP",
    )
    @classmethod
    def _a_rate_limit(cls, value: str) -> str:
        parse_limit(value)  # raises ValueError on a string the limits library cannot read
        return value

    def rating_rules(self) -> RatingRules:
        """The ``RATING_*`` settings as the rating rules."""
        return RatingRules(
            start=Rating(self.RATING_START, self.RATING_START_RD, self.RATING_START_VOLATILITY),
            tau=self.RATING_TAU,
            rd_min=self.RATING_RD_MIN,
            rd_max=self.RATING_RD_MAX,
            periods_per_day=self.RATING_PERIODS_PER_DAY,
            provisional_rd=self.RATING_PROVISIONAL_RD,
        )

    @field_validator("SMTP_URL")
    @classmethod
    def _smtp_url(cls, value: str | None) -> str | None:
        from duelclub.notify.smtp import parse_smtp_url

        if value:
            parse_smtp_url(value)  # ValueError on an unknown scheme, no host, a bad port
        return value or None

    @field_validator("MAIL_FROM")
    @classmethod
    def _mail_from(cls, value: str) -> str:
        from duelclub.notify.addresses import check_from

        return check_from(value)

    @field_validator("PUBLIC_URL")
    @classmethod
    def _public_url(cls, value: str) -> str:
        from urllib.parse import urlsplit

        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("PUBLIC_URL must be http(s)://host[:port][/path], without ? or #")
        return value.strip().rstrip("/")

    @field_validator("VAPID_PRIVATE_KEY")
    @classmethod
    def _vapid_private_key(cls, value: str) -> str:
        from duelclub.notify.vapid import load_private_key

        if value.strip():
            load_private_key(value)  # BadVapidKey (a ValueError) on anything but a P-256 key
        return value.strip()

    @field_validator("VAPID_SUBJECT")
    @classmethod
    def _vapid_subject(cls, value: str) -> str:
        from duelclub.notify.vapid import check_subject

        return check_subject(value) if value.strip() else ""

    @field_validator("METRICS_ALLOW_IPS")
    @classmethod
    def _networks(cls, value: str) -> str:
        for part in value.split(","):
            if part.strip():
                ipaddress.ip_network(part.strip(), strict=False)  # ValueError on anything else
        return value

    @model_validator(mode="after")
    def _embedded_defaults(self) -> Settings:
        if not self.REDIS_URL:
            self.REDIS_URL = None
        if not self.METRICS_TOKEN:
            self.METRICS_TOKEN = None
        if not self.DATABASE_URL:
            self.DATABASE_URL = f"sqlite:///{self.DATA_DIR / 'duelclub.db'}"
        return self

    def prepared(self) -> Settings:
        """These settings with the data directory's part made real: an unset ``SECRET_KEY`` is read from
        ``DATA_DIR/secret_key``, generated there on first use (:func:`_stored_secret`). Reading settings
        touches no disk (issue 30): the process entry points (the app factory, the commands) call this
        once; the SQLite engine creates its own file's folder (store/db.py)."""
        from duelclub.notify import vapid

        if not self.SECRET_KEY:
            self.SECRET_KEY = _stored_secret(self.DATA_DIR / "secret_key")
        if not self.VAPID_PRIVATE_KEY:
            path = self.DATA_DIR / "vapid_private_key"
            self.VAPID_PRIVATE_KEY = _stored_secret(path, vapid.generate_private_key)
        key = vapid.load_private_key(self.VAPID_PRIVATE_KEY)
        if self.VAPID_PUBLIC_KEY:
            self.VAPID_PUBLIC_KEY = vapid.check_public_key(key, self.VAPID_PUBLIC_KEY)
        else:
            self.VAPID_PUBLIC_KEY = vapid.public_key_of(key)
        return self

    def vapid_subject(self) -> str:
        """``VAPID_SUBJECT``, or its default from ``PUBLIC_URL`` and ``MAIL_FROM`` (read when a push is sent:
        ``duelclub serve`` sets ``PUBLIC_URL`` after reading the settings)."""
        from duelclub.notify.vapid import default_subject

        return self.VAPID_SUBJECT or default_subject(self.PUBLIC_URL, self.MAIL_FROM)

    @property
    def VAR_DIR(self) -> Path:
        """The older name of :attr:`DATA_DIR`."""
        return self.DATA_DIR


def default_bot_workers() -> int:
    """``max(1, cpu_count - 1)``: one core left for the web worker."""
    return max(1, (os.cpu_count() or 2) - 1)


def _stored_secret(path: Path, make: Callable[[], str] | None = None) -> str:
    """The secret in ``path``, generated on first use (mode 0600) by ``make`` (default: 48 random bytes from
    :mod:`secrets`, base64url).

    Created with O_EXCL, so several workers starting at once agree on one key.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another process may be between create and write
            stored = path.read_text().strip()
            if stored:
                return stored
            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty; delete it or set the setting it stands for") from None
    key = make() if make is not None else secrets.token_urlsafe(48)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key
