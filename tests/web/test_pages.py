"""The HTML page routes over ASGI (no browser): HEAD, unknown matches, ``?next=`` and the security headers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from httpx import AsyncClient

PAGES = ["/", "/login", "/register"]


@pytest.mark.parametrize("path", PAGES)
async def test_pages_answer_head_for_visitors(client_factory: Callable[[], AsyncClient], path: str) -> None:
    r = await client_factory().head(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert r.content == b""


async def test_pages_answer_head_for_members(alice: AsyncClient) -> None:
    for path in ("/", "/admin"):
        get, head = await alice.get(path), await alice.head(path)
        assert head.status_code == get.status_code
        assert head.content == b""
