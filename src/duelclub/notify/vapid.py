"""The site's VAPID key pair and contact (RFC 8292; issue 28 §3, Web Push).

A push service accepts a message for a subscription only when it is signed with the key the browser
subscribed with (the page passes the public key to ``PushManager.subscribe`` as ``applicationServerKey``),
so the key must stay the same for as long as the subscriptions live.

- The private key is a P-256 scalar: ``VAPID_PRIVATE_KEY`` in the form the Web Push tools print (32 bytes,
  base64url, as ``web-push generate-vapid-keys`` or ``vapid --gen`` give it) or a PEM (PKCS#8 or SEC 1).
  Unset, it is read from ``DATA_DIR/vapid_private_key``, generated there on first use like the secret key.
- The public key is derived from it (65 bytes, the uncompressed point, base64url without padding: what
  ``applicationServerKey`` takes); ``VAPID_PUBLIC_KEY``, when set, must be that same key.
- The subject (``sub`` claim) is how a push service reaches the site's operator: ``mailto:address`` or an
  ``https://host`` address.
"""

from __future__ import annotations

import base64
import binascii
from email.utils import parseaddr
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from duelclub.notify.addresses import has_control

RAW_PRIVATE_BYTES = 32


class BadVapidKey(ValueError):
    """A VAPID key that is not a P-256 private key in one of the accepted forms, or a public key that does
    not belong to it."""


def b64url(data: bytes) -> str:
    """``data`` as base64url without padding (the Web Push forms of keys)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """The bytes of a base64url text, padded or not; ``binascii.Error``/``ValueError`` when it is not one."""
    clean = text.strip()
    if not clean or any(c not in _B64URL for c in clean.rstrip("=")):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(clean.rstrip("=") + "=" * (-len(clean.rstrip("=")) % 4))


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def generate_private_key() -> str:
    """A new private key in the raw base64url form (what :func:`load_private_key` reads)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(RAW_PRIVATE_BYTES, "big"))


def load_private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """The P-256 private key in ``text`` (raw base64url or PEM); :class:`BadVapidKey` otherwise."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode("ascii"), password=None)
        else:
            raw = b64url_decode(text)
            if len(raw) != RAW_PRIVATE_BYTES:
                raise BadVapidKey(f"a raw VAPID private key is {RAW_PRIVATE_BYTES} bytes, not {len(raw)}")
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except (ValueError, TypeError, binascii.Error, UnicodeEncodeError) as exc:
        if isinstance(exc, BadVapidKey):
            raise
        raise BadVapidKey(f"not a VAPID private key (raw base64url or PEM): {type(exc).__name__}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise BadVapidKey("a VAPID key is an elliptic-curve key on P-256 (prime256v1)")
    return key


def raw_private_key(key: ec.EllipticCurvePrivateKey) -> str:
    """``key`` in the raw base64url form (pywebpush's ``vapid_private_key`` string)."""
    return b64url(key.private_numbers().private_value.to_bytes(RAW_PRIVATE_BYTES, "big"))


def public_key_of(key: ec.EllipticCurvePrivateKey) -> str:
    """The public key of ``key``: the uncompressed point (65 bytes), base64url without padding."""
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def check_public_key(private: ec.EllipticCurvePrivateKey, public: str) -> str:
    """``public`` (normalized to base64url without padding) if it is the public key of ``private``;
    :class:`BadVapidKey` otherwise."""
    try:
        given = b64url(b64url_decode(public))
    except (ValueError, binascii.Error):
        raise BadVapidKey("VAPID_PUBLIC_KEY is not base64url") from None
    if given != public_key_of(private):
        raise BadVapidKey("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY")
    return given


def check_subject(value: str) -> str:
    """``mailto:address`` or ``https://host`` (no path, query or fragment); ValueError otherwise."""
    value = value.strip()
    if value.startswith("mailto:"):
        local, at, domain = value.removeprefix("mailto:").rpartition("@")
        if not (local and at and domain) or has_control(value) or any(c.isspace() for c in value):
            raise ValueError("VAPID_SUBJECT mailto: needs an e-mail address")
        return value
    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise ValueError("VAPID_SUBJECT must be mailto:address or https://host")
    return value.rstrip("/")


def default_subject(public_url: str, mail_from: str) -> str:
    """The site's own address when it is served over HTTPS (``https://club.example``), else ``mailto:``
    the ``MAIL_FROM`` address."""
    parts = urlsplit(public_url)
    if parts.scheme == "https" and parts.hostname:
        return f"https://{parts.netloc}"
    return f"mailto:{parseaddr(mail_from)[1]}"
