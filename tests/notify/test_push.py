"""The Web Push sender (notify/push.py, notify/push_sender.py, store/push.py) against a local push service
that checks the VAPID signature and decrypts the payload as a browser would (tests/notify/push_box.py): no
part of the push path is replaced."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from push_box import PushBox, b64url
from sqlalchemy import func, select, update
from support import free_port

from duelclub.notify import vapid
from duelclub.notify.push import check_subscription, queue_push
from duelclub.notify.push_sender import PublicResolver, PushSender
from duelclub.store import push, users
from duelclub.store.db import Database
from duelclub.store.models import PushJob, PushSubscription, utcnow


def _member(db: Database, name: str) -> int:
    with db.session() as s:
        return users.create_user(s, name, "password123").id


def _subscribe(db: Database, user_id: int, sub: dict[str, Any]) -> int:
    checked = check_subscription(
        sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], http_loopback=True
    )
    with db.session() as s:
        return push.subscribe(s, user_id, checked, utcnow())


def _queue(db: Database, user_id: int, key: str, url: str = "/matches/m1") -> int:
    with db.session() as s:
        return queue_push(s, user_id, "Ваш ход", "Межа: против boris", url, key)


def _sender(db: Database, box: PushBox, **kw: Any) -> PushSender:
    kw.setdefault("private_key", box.vapid_private_key)
    kw.setdefault("http_loopback", True)
    return PushSender(db, subject="mailto:club@mail.example", retry_seconds=30, **kw)


def _jobs(db: Database) -> list[PushJob]:
    with db.session() as s:
        return list(s.scalars(select(PushJob).order_by(PushJob.id)))


async def test_a_queued_push_arrives_signed_and_decrypted(db: Database, push_box: PushBox) -> None:
    anna = _member(db, "anna")
    _subscribe(db, anna, push_box.browser("phone").subscription())
    assert _queue(db, anna, "turn:m1:7", url="/matches/m1") == 1
    sender = _sender(db, push_box)
    assert await sender.run_once() == 1
    assert push_box.refused == []
    [delivery] = push_box.received
    assert delivery.browser == "phone"
    assert delivery.message == {
        "title": "Ваш ход",
        "body": "Межа: против boris",
        "url": "/matches/m1",
        "tag": "/matches/m1",
    }
    assert delivery.claims["aud"] == push_box.origin and delivery.claims["sub"] == "mailto:club@mail.example"
    assert delivery.headers["ttl"] == "86400" and delivery.headers["urgency"] == "normal"
    [job] = _jobs(db)
    assert job.status == "sent" and job.sent_at is not None and job.attempts == 1
    assert await sender.run_once() == 0  # sent once


async def test_a_push_signed_with_another_key_is_refused_and_retried(db: Database, push_box: PushBox) -> None:
    anna = _member(db, "anna")
    _subscribe(db, anna, push_box.browser("phone").subscription())
    _queue(db, anna, "turn:m1:1")
    stranger = _sender(db, push_box, private_key=vapid.generate_private_key())
    assert await stranger.run_once() == 1
    assert push_box.received == [] and push_box.refused == ["phone: k is not the site's public key"]
    [job] = _jobs(db)
    assert job.status == "queued" and job.attempts == 1 and "401" in (job.last_error or "")
    assert 29 <= (job.due_at - utcnow()).total_seconds() <= 31  # the first backoff


async def test_a_cause_is_pushed_once_to_each_browser_of_the_member(db: Database, push_box: PushBox) -> None:
    anna, boris = _member(db, "anna"), _member(db, "boris")
    for name in ("phone", "laptop"):
        _subscribe(db, anna, push_box.browser(name).subscription())
    _subscribe(db, boris, push_box.browser("boris-phone").subscription())
    assert _queue(db, anna, "turn:m1:3") == 2
    assert _queue(db, anna, "turn:m1:3") == 0  # the same turn again: nothing new
    assert _queue(db, anna, "turn:m1:5") == 2
    assert _queue(db, _member(db, "vera"), "turn:m1:5") == 0  # no browser subscribed
    sender = _sender(db, push_box)
    while await sender.run_once():
        pass
    assert sorted(d.browser for d in push_box.received) == ["laptop", "laptop", "phone", "phone"]


async def test_two_senders_push_each_job_once(database_url: str, push_box: PushBox) -> None:
    setup = Database(database_url)
    members = [_member(setup, f"member{i}") for i in range(4)]
    for i, member in enumerate(members):
        for j in range(3):
            _subscribe(setup, member, push_box.browser(f"b{i}-{j}").subscription())
        for turn in range(2):
            _queue(setup, member, f"turn:m{i}:{turn}", url=f"/matches/m{i}")
    setup.dispose()
    workers = [Database(database_url), Database(database_url)]
    senders = [_sender(db, push_box, batch=2, name=f"w{n}") for n, db in enumerate(workers)]

    async def drain(sender: PushSender) -> None:
        while await sender.run_once():
            pass

    await asyncio.gather(*(drain(s) for s in senders))
    assert push_box.refused == []
    deliveries = sorted((d.browser, d.message["url"]) for d in push_box.received)
    expected = sorted((f"b{i}-{j}", f"/matches/m{i}") for i in range(4) for j in range(3) for _ in range(2))
    assert deliveries == expected  # 24 pushes, each once
    assert all(s.sent > 0 for s in senders), [s.sent for s in senders]  # both took part
    assert {j.status for j in _jobs(workers[0])} == {"sent"}
    for db in workers:
        db.dispose()


async def test_an_endpoint_answering_410_removes_the_subscription(db: Database, push_box: PushBox) -> None:
    anna = _member(db, "anna")
    _subscribe(db, anna, push_box.browser("old-phone").subscription())
    _subscribe(db, anna, push_box.browser("laptop").subscription())
    _queue(db, anna, "turn:m1:1")
    push_box.answers["old-phone"] = 410
    sender = _sender(db, push_box)
    assert await sender.run_once() == 2
    assert sender.gone == 1 and sender.sent == 1
    assert [d.browser for d in push_box.received] == ["laptop"]
    with db.session() as s:
        assert [r.endpoint for r in push.for_user(s, anna)] == [push_box.browsers["laptop"].endpoint]
        assert s.scalar(select(func.count()).select_from(PushJob)) == 1  # the gone one's job went with it
    assert _queue(db, anna, "turn:m1:2") == 1  # only the laptop from now on


@pytest.mark.parametrize(("status", "final"), [(400, True), (413, True), (429, False), (503, False)])
async def test_a_refusal_fails_for_good_or_is_retried_by_its_status(
    db: Database, push_box: PushBox, status: int, final: bool
) -> None:
    anna = _member(db, "anna")
    _subscribe(db, anna, push_box.browser("phone").subscription())
    _queue(db, anna, "turn:m1:1")
    push_box.answers["phone"] = status
    assert await _sender(db, push_box).run_once() == 1
    [job] = _jobs(db)
    assert job.status == ("failed" if final else "queued") and str(status) in (job.last_error or "")
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(PushSubscription)) == 1  # kept


async def test_a_push_waits_while_the_service_is_down_and_goes_once_it_is_back(
    db: Database, push_box: PushBox
) -> None:
    anna = _member(db, "anna")
    browser = push_box.browser("phone")
    down = {**browser.subscription(), "endpoint": f"http://127.0.0.1:{free_port()}/push/phone"}
    _subscribe(db, anna, down)
    _queue(db, anna, "turn:m1:1")
    sender = _sender(db, push_box, timeout_seconds=3, max_attempts=3)
    assert await sender.run_once() == 1 and sender.failures == 1
    assert await sender.run_once() == 0  # not due yet: the backoff
    [job] = _jobs(db)
    assert job.status == "queued" and job.attempts == 1 and "Connect" in (job.last_error or "")
    with db.session() as s:  # the service is back (the same browser, reachable), and the wait is over
        s.execute(update(PushSubscription).values(endpoint=browser.endpoint))
        s.execute(update(PushJob).values(due_at=utcnow() - timedelta(seconds=1)))
    assert await sender.run_once() == 1
    assert [d.message["url"] for d in push_box.received] == ["/matches/m1"]
    assert _jobs(db)[0].status == "sent"


def test_queue_push_refuses_a_url_off_the_site_and_a_bad_key(db: Database) -> None:
    anna = _member(db, "anna")
    with db.session() as s:
        for url in ("https://evil.example/", "//evil.example/x", "matches/m1", "/x\n"):
            with pytest.raises(ValueError):
                queue_push(s, anna, "Ваш ход", "", url, "k")
        with pytest.raises(ValueError):
            queue_push(s, anna, "", "", "/matches/m1", "k")
        for key in ("", "k" * 181):
            with pytest.raises(ValueError):
                queue_push(s, anna, "Ваш ход", "", "/matches/m1", key)


def test_the_local_push_service_refuses_what_a_real_one_refuses(push_box: PushBox) -> None:
    """The checks of push_box.py can fail: a forged signature, another audience, an expired or
    far-future token, no contact."""
    from py_vapid import Vapid02

    signer = Vapid02(vapid.load_private_key(push_box.vapid_private_key), conf={"no-strict": True})
    now = int(time.time())

    def header(**claims: Any) -> str:
        return str(
            signer.sign({"aud": push_box.origin, "exp": now + 3600, "sub": "mailto:a@b.example", **claims})[
                "Authorization"
            ]
        )

    assert push_box._claims(header())["aud"] == push_box.origin
    good = header()
    token, k = good.split(",k=")
    forged = f"{token[:-6]}{'AAAAAA' if not token.endswith('AAAAAA') else 'BBBBBB'},k={k}"
    cases = {
        forged: "bad signature",
        header(aud="http://127.0.0.1:1"): "aud",
        header(exp=now - 5): "exp",
        header(exp=now + 2 * 86400): "exp",
        header(sub="club"): "sub",
        good.replace("vapid ", "WebPush "): "scheme",
    }
    for authorization, reason in cases.items():
        with pytest.raises(ValueError, match=reason):
            push_box._claims(authorization)


async def test_the_sender_posts_to_no_address_inside_the_site_network(
    db: Database, push_box: PushBox
) -> None:
    """Checked again when sent (the setting changed since, or a row written by other means), and a host
    name is resolved to public addresses only."""
    anna = _member(db, "anna")
    browser = push_box.browser("phone")
    with db.session() as s:  # stored as it is, past the API's check
        push.subscribe(
            s, anna, push.Subscription(browser.endpoint, browser.p256dh, b64url(browser.auth)), utcnow()
        )
    _queue(db, anna, "turn:m1:1")
    assert await _sender(db, push_box, http_loopback=False).run_once() == 1
    [job] = _jobs(db)
    assert job.status == "failed" and "not posted to" in (job.last_error or "")
    assert push_box.received == []
    with pytest.raises(OSError, match="no public address"):
        await PublicResolver().resolve("localhost", 443)
    assert {r["host"] for r in await PublicResolver(loopback=True).resolve("localhost", 443)} <= {
        "127.0.0.1",
        "::1",
    }
