"""Fixtures of the mail tests: a real SMTP server (tests/notify/smtp_box.py) and apps that mail to it."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient

sys.path.insert(0, str(Path(__file__).parent))
from push_box import PushBox
from smtp_box import PUBLIC_URL, Mailbox
from support import free_port

from duelclub.notify import vapid


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox(free_port())
    box.start()
    yield box
    box.stop()


@pytest.fixture
async def push_box() -> AsyncIterator[PushBox]:
    """A local push service (tests/notify/push_box.py) on a free port, trusting a fresh site key."""
    private = vapid.generate_private_key()
    box = PushBox(private, vapid.public_key_of(vapid.load_private_key(private)), free_port())
    await box.start()
    yield box
    await box.stop()


@pytest.fixture
def mail_app(app_factory: Callable[..., Any], mailbox: Mailbox) -> Callable[..., Any]:
    """``async with mail_app(url, **settings) as (app, client_factory):`` — an app mailing to ``mailbox``
    (``PUBLIC_URL`` https://club.example, a fast sender poll)."""

    @asynccontextmanager
    async def make(url: str, **overrides: Any) -> AsyncIterator[tuple[FastAPI, Callable[..., AsyncClient]]]:
        settings = {"SMTP_URL": mailbox.url, "PUBLIC_URL": PUBLIC_URL, "MAIL_POLL_SECONDS": 0.1, **overrides}
        clients: list[AsyncClient] = []

        def client(**headers: str) -> AsyncClient:
            c = AsyncClient(transport=ASGITransport(app), base_url="http://testserver", headers=headers)
            clients.append(c)
            return c

        async with app_factory(url, **settings) as app:
            try:
                yield app, client
            finally:
                for c in clients:
                    await c.aclose()

    return make
