"""A local push service for the Web Push tests: an aiohttp server in the test's event loop that does what a
real push service does before it delivers, and what the browser does when it receives.

- It checks the VAPID authorization (RFC 8292) itself, with ``cryptography``: the ``vapid t=…, k=…``
  header, ``k`` the site's public key, the JWT's header (ES256), its signature (raw r‖s, ECDSA P-256 with
  SHA-256) against that key, and its claims: ``aud`` the endpoint's origin, ``exp`` in the future and at most
  24 hours on, ``sub`` a ``mailto:`` or ``https:`` contact. A push that fails any check is answered 401 and
  its reason kept in :attr:`PushBox.refused`.
- It decrypts the body as the browser would (RFC 8291, ``Content-Encoding: aes128gcm``) with the browser's
  private key and auth secret (:class:`Browser`, made by :meth:`PushBox.browser`), using ``http_ece``, and
  keeps the JSON in :attr:`PushBox.received`.
- :attr:`PushBox.answers` makes an endpoint answer another status (410: the browser unsubscribed).
"""

from __future__ import annotations

import base64
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One subscribed browser: its endpoint at the box, its ECDH key pair and auth secret."""

    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives for it."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }


@dataclass
class Delivery:
    """A push the box accepted: to which browser, the decrypted JSON, the VAPID claims and the headers
    (lowercase names)."""

    browser: str
    message: dict[str, Any]
    claims: dict[str, Any]
    headers: dict[str, str]


@dataclass
class PushBox:
    """The local push service (module docstring); ``vapid_public_key`` is the site's (base64url), whose
    private key (``vapid_private_key``) the tests give the sender."""

    vapid_private_key: str
    vapid_public_key: str
    port: int
    browsers: dict[str, Browser] = field(default_factory=dict)
    received: list[Delivery] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)
    _runner: web.AppRunner | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def browser(self, name: str) -> Browser:
        made = Browser(
            name, f"{self.origin}/push/{name}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
        )
        self.browsers[name] = made
        return made

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/push/{name}", self._push)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def _claims(self, authorization: str) -> dict[str, Any]:
        """The VAPID claims if the authorization is the site's valid signature; ValueError(reason)."""
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"scheme {scheme!r}")
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        if parts.get("k") != self.vapid_public_key:
            raise ValueError("k is not the site's public key")
        header_b64, claims_b64, signature_b64 = parts["t"].split(".")
        header = json.loads(unb64url(header_b64))
        if header.get("alg") != "ES256":
            raise ValueError(f"alg {header.get('alg')!r}")
        raw = unb64url(signature_b64)
        if len(raw) != 64:
            raise ValueError("signature is not 64 bytes")
        signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(self.vapid_public_key))
        try:
            key.verify(signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("bad signature") from None
        claims: dict[str, Any] = json.loads(unb64url(claims_b64))
        now = time.time()
        if claims.get("aud") != self.origin:
            raise ValueError(f"aud {claims.get('aud')!r}")
        if not now < int(claims.get("exp", 0)) <= now + 86400:
            raise ValueError(f"exp {claims.get('exp')!r}")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError(f"sub {claims.get('sub')!r}")
        return claims

    async def _push(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name in self.answers:
            return web.Response(status=self.answers[name], text="answered as told")
        browser = self.browsers.get(name)
        if browser is None:
            return web.Response(status=404, text="no such subscription")
        try:
            claims = self._claims(request.headers.get("Authorization", ""))
        except (ValueError, KeyError) as exc:
            self.refused.append(f"{name}: {exc}")
            return web.Response(status=401, text=str(exc))
        if request.headers.get("Content-Encoding") != "aes128gcm" or "TTL" not in request.headers:
            self.refused.append(f"{name}: headers {dict(request.headers)}")
            return web.Response(status=400, text="aes128gcm and TTL required")
        body = await request.read()
        plain = http_ece.decrypt(
            body, private_key=browser.private_key, auth_secret=browser.auth, version="aes128gcm"
        )
        message = json.loads(plain)
        self.received.append(
            Delivery(name, message, claims, {k.lower(): v for k, v in request.headers.items()})
        )
        return web.Response(status=201)
