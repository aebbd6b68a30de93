"""Web Push over HTTP (web/routes/push.py): subscribing browsers (several per member), refusing bad
subscriptions with 422 ``bad_subscription``, unsubscribing, account deletion, the service worker at /sw.js,
and a push queued in the app reaching a local push service (tests/notify/push_box.py) through the app's own
background sender."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient
from push_box import PushBox, b64url
from sqlalchemy import func, select

from duelclub.notify.push import queue_push
from duelclub.store import users
from duelclub.store.models import PushSubscription

URL = "/api/me/push-subscriptions"


@asynccontextmanager
async def _app(app_factory: Any, url: str, box: PushBox, **settings: Any) -> AsyncIterator[FastAPI]:
    values = {"VAPID_PRIVATE_KEY": box.vapid_private_key, "PUSH_POLL_SECONDS": 0.1, **settings}
    async with app_factory(url, **values) as app:
        yield app


@asynccontextmanager
async def _members(app: FastAPI, *names: str) -> AsyncIterator[list[AsyncClient]]:
    clients = [AsyncClient(transport=ASGITransport(app), base_url="http://testserver") for _ in names]
    try:
        for client, name in zip(clients, names, strict=True):
            r = await client.post("/api/auth/register", json={"username": name, "password": "password123"})
            assert r.status_code == 201, r.text
        yield clients
    finally:
        for client in clients:
            await client.aclose()


def _endpoints(listing: dict[str, Any]) -> list[str]:
    return sorted(s["endpoint"] for s in listing["subscriptions"])


async def test_a_member_subscribes_several_browsers_and_unsubscribes_one(
    database_url: str, app_factory: Any, push_box: PushBox
) -> None:
    async with (
        _app(app_factory, database_url, push_box, PUSH_HTTP_LOOPBACK=True) as app,
        _members(app, "anna", "boris") as (anna, boris),
    ):
        phone, laptop = push_box.browser("phone"), push_box.browser("laptop")
        for browser in (phone, laptop, phone):  # the phone again: its keys are updated, not doubled
            r = await anna.post(URL, json=browser.subscription())
            assert r.status_code == 201, r.text
            assert r.json()["endpoint"] == browser.endpoint
        listing = (await anna.get(URL)).json()
        assert listing["public_key"] == push_box.vapid_public_key
        assert _endpoints(listing) == sorted([phone.endpoint, laptop.endpoint])
        assert (await boris.get(URL)).json()["subscriptions"] == []
        r = await boris.request("DELETE", URL, json={"endpoint": phone.endpoint})  # not his: nothing happens
        assert r.status_code == 204
        assert len((await anna.get(URL)).json()["subscriptions"]) == 2
        assert (await anna.request("DELETE", URL, json={"endpoint": phone.endpoint})).status_code == 204
        assert _endpoints((await anna.get(URL)).json()) == [laptop.endpoint]
        # boris logs in on anna's laptop and subscribes it: the browser is his now
        assert (await boris.post(URL, json=laptop.subscription())).status_code == 201
        assert (await anna.get(URL)).json()["subscriptions"] == []
        assert _endpoints((await boris.get(URL)).json()) == [laptop.endpoint]


async def test_the_oldest_browsers_go_beyond_the_limit(
    database_url: str, app_factory: Any, push_box: PushBox
) -> None:
    async with (
        _app(app_factory, database_url, push_box, PUSH_HTTP_LOOPBACK=True, PUSH_MAX_SUBSCRIPTIONS=2) as app,
        _members(app, "anna") as (anna,),
    ):
        browsers = [push_box.browser(f"b{i}") for i in range(3)]
        for browser in browsers:
            assert (await anna.post(URL, json=browser.subscription())).status_code == 201
            await asyncio.sleep(0.01)  # distinct subscription times
        assert _endpoints((await anna.get(URL)).json()) == sorted(b.endpoint for b in browsers[1:])


def _key(size: int) -> str:
    return b64url(os.urandom(size))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"endpoint": "http://push.example/x"}, "endpoint"),  # not https
        ({"endpoint": "https://10.1.2.3/push/x"}, "endpoint"),  # a private address
        ({"endpoint": "https://[::1]/push/x"}, "endpoint"),
        ({"endpoint": "https://localhost/push/x"}, "endpoint"),
        ({"endpoint": "https://user:pw@push.example/x"}, "endpoint"),
        ({"endpoint": "https://push.example/" + "x" * 2100}, "endpoint"),
        ({"endpoint": "https://push.example/a b"}, "endpoint"),
        ({"endpoint": "ftp://push.example/x"}, "endpoint"),
        ({"p256dh": "not base64url!"}, "p256dh"),
        ({"p256dh": _key(64)}, "p256dh"),
        ({"p256dh": b64url(b"\x04" + b"\x01" * 64)}, "p256dh"),  # 65 bytes, not a point on the curve
        ({"auth": _key(15)}, "auth"),
        ({"auth": "@@@@"}, "auth"),
    ],
)
async def test_a_bad_subscription_is_refused_with_a_clear_error(
    sqlite_url: str, app_factory: Any, push_box: PushBox, change: dict[str, str], field: str
) -> None:
    async with _app(app_factory, sqlite_url, push_box) as app, _members(app, "anna") as (anna,):
        body = push_box.browser("phone").subscription()
        body["endpoint"] = "https://push.example/send/abc"
        assert (await anna.post(URL, json=body)).status_code == 201  # the good one is taken
        body["endpoint"] = change.get("endpoint", "https://push.example/send/other")
        body["keys"] = {**body["keys"], **{k: v for k, v in change.items() if k != "endpoint"}}
        r = await anna.post(URL, json=body)
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "bad_subscription" and f"({field}:" in r.json()["message"]
        assert len((await anna.get(URL)).json()["subscriptions"]) == 1


async def test_a_body_without_the_keys_is_malformed_and_a_visitor_is_refused(
    sqlite_url: str, app_factory: Any, push_box: PushBox
) -> None:
    async with _app(app_factory, sqlite_url, push_box) as app, _members(app, "anna") as (anna,):
        r = await anna.post(URL, json={"endpoint": "https://push.example/x"})
        assert r.status_code == 422 and r.json()["code"] == "malformed"
        async with AsyncClient(transport=ASGITransport(app), base_url="http://testserver") as visitor:
            r = await visitor.post(URL, json=push_box.browser("x").subscription())
            assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


async def test_http_on_loopback_needs_the_setting(
    sqlite_url: str, app_factory: Any, push_box: PushBox
) -> None:
    async with _app(app_factory, sqlite_url, push_box) as app, _members(app, "anna") as (anna,):
        r = await anna.post(URL, json=push_box.browser("phone").subscription())
        assert r.status_code == 422 and r.json()["code"] == "bad_subscription"


async def test_deleting_the_account_removes_its_subscriptions(
    database_url: str, app_factory: Any, push_box: PushBox
) -> None:
    async with (
        _app(app_factory, database_url, push_box, PUSH_HTTP_LOOPBACK=True) as app,
        _members(app, "anna", "boris") as (anna, boris),
    ):
        for name in ("phone", "laptop"):
            assert (await anna.post(URL, json=push_box.browser(name).subscription())).status_code == 201
        assert (await boris.post(URL, json=push_box.browser("boris").subscription())).status_code == 201
        r = await anna.request("DELETE", "/api/me", json={"password": "password123"})
        assert r.status_code == 204
        with app.state.db.session() as s:
            owners = s.scalars(select(PushSubscription.user_id)).all()
            boris_id = users.find_user(s, "boris").id  # type: ignore[union-attr]
            assert owners == [boris_id]
            assert s.scalar(select(func.count()).select_from(PushSubscription)) == 1


async def test_logging_out_everywhere_forgets_every_browser_of_the_member(
    database_url: str, app_factory: Any, push_box: PushBox
) -> None:
    """«Выйти на всех устройствах» (a lost phone): its turn notices stop with its sessions. A plain logout
    forgets only its own browser (static/js/webpush.js ``forgetBrowser``, tests/js)."""
    async with (
        _app(app_factory, database_url, push_box, PUSH_HTTP_LOOPBACK=True) as app,
        _members(app, "anna", "boris") as (anna, boris),
    ):
        for name in ("phone", "laptop"):
            assert (await anna.post(URL, json=push_box.browser(name).subscription())).status_code == 201
        assert (await boris.post(URL, json=push_box.browser("boris").subscription())).status_code == 201
        assert (await anna.post("/api/auth/logout-all", json={})).status_code == 204
        with app.state.db.session() as s:
            boris_id = users.find_user(s, "boris").id  # type: ignore[union-attr]
            assert s.scalars(select(PushSubscription.user_id)).all() == [boris_id]


async def test_a_push_queued_in_the_app_reaches_the_browser(
    database_url: str, app_factory: Any, push_box: PushBox
) -> None:
    async with (
        _app(app_factory, database_url, push_box, PUSH_HTTP_LOOPBACK=True) as app,
        _members(app, "anna") as (anna,),
    ):
        assert (await anna.post(URL, json=push_box.browser("phone").subscription())).status_code == 201
        with app.state.db.session() as s:
            anna_id = users.find_user(s, "anna").id  # type: ignore[union-attr]
            assert queue_push(s, anna_id, "Ваш ход", "Дві вежі", "/matches/abc", "turn:abc:4") == 1
        app.state.pusher.wake()
        for _ in range(200):  # the app's own sender, in the background: wait for it (up to 10 s)
            if push_box.received:
                break
            await asyncio.sleep(0.05)
        assert push_box.refused == []
        assert [(d.browser, d.message["url"], d.message["title"]) for d in push_box.received] == [
            ("phone", "/matches/abc", "Ваш ход")
        ]


async def test_the_service_worker_is_served_at_the_root(
    sqlite_url: str, app_factory: Any, push_box: PushBox
) -> None:
    async with _app(app_factory, sqlite_url, push_box) as app:
        async with AsyncClient(transport=ASGITransport(app), base_url="http://testserver") as visitor:
            r = await visitor.get("/sw.js")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/javascript")
        assert r.headers["service-worker-allowed"] == "/" and r.headers["cache-control"] == "no-cache"
        assert "content-security-policy" in r.headers
        assert 'addEventListener("push"' in r.text and 'addEventListener("notificationclick"' in r.text


async def test_subscribing_a_browser_chooses_push_and_removing_the_last_one_unchooses_it(
    database_url: str, app_factory: Any, push_box: PushBox
) -> None:
    """The account page's «Включить уведомления в браузере» is the Web Push choice: the first browser turns
    ``push`` on in ``/api/me/notices``, the last one removed turns it off; a mail choice sent without
    ``push`` (the «Письма о ходе» selector) keeps it."""
    async with (
        _app(app_factory, database_url, push_box, PUSH_HTTP_LOOPBACK=True) as app,
        _members(app, "anna") as (anna,),
    ):
        assert (await anna.get("/api/me/notices")).json()["push"] is False
        phone, laptop = push_box.browser("phone"), push_box.browser("laptop")
        for browser in (phone, laptop):
            assert (await anna.post(URL, json=browser.subscription())).status_code == 201
        assert (await anna.get("/api/me/notices")).json()["push"] is True
        r = await anna.put("/api/me/notices", json={"email": "digest"})
        assert r.status_code == 200 and r.json()["push"] is True and r.json()["email"] == "digest"
        await anna.request("DELETE", URL, json={"endpoint": phone.subscription()["endpoint"]})
        assert (await anna.get("/api/me/notices")).json()["push"] is True, "the laptop is still subscribed"
        await anna.request("DELETE", URL, json={"endpoint": laptop.subscription()["endpoint"]})
        assert (await anna.get("/api/me/notices")).json()["push"] is False
        r = await anna.put("/api/me/notices", json={"email": "off", "push": True})
        assert r.json()["push"] is True, "an explicit choice still stands"
