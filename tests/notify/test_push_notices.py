"""Turn notices by Web Push (notify/push_channel.py): the sweep's notice reaches the browsers of a member who
chose push — once per turn, through the real push sender and a local push service that checks VAPID and
decrypts (push_box.py) — in the member's language; a member who did not choose push gets none, and the
digest is not pushed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from fake_clock import FakeClock
from push_box import PushBox
from smtp_box import PUBLIC_URL, Mailbox
from sqlalchemy import func, select, update
from test_push import _sender, _subscribe
from test_turn_notices import AFTER, SECRET, match, members, move, to_move

from duelclub.notify.dispatch import Dispatcher, EmailChannel, NoticeSite
from duelclub.notify.notice_types import DigestNotice, Member, TurnNotice, WaitingMatch
from duelclub.notify.push_channel import PushChannel
from duelclub.play.notices import NoticeSweeper
from duelclub.play.service import MatchService
from duelclub.store.db import Database
from duelclub.store.models import OutboxItem, PushJob, User, utcnow

WAITING = WaitingMatch("m1", "duel", "boris", utcnow(), f"{PUBLIC_URL}/matches/m1")


async def test_a_turn_that_waited_is_pushed_once_to_a_member_who_chose_push(
    db: Database, mailbox: Mailbox, push_box: PushBox, service_factory: Callable[..., MatchService]
) -> None:
    clock = FakeClock()
    service = service_factory(db)
    service.now = clock
    dispatcher = Dispatcher([EmailChannel(NoticeSite(SECRET, PUBLIC_URL)), PushChannel()])
    sweeper = NoticeSweeper(service, dispatcher, public_url=PUBLIC_URL, after_seconds=AFTER)
    sender = _sender(db, push_box)
    ids = members(db, "anna", "boris", mode="off")
    with db.session() as s:
        s.execute(update(User).values(push_notices=True, lang="uk"))
    for n, uid in enumerate(ids):
        _subscribe(db, uid, push_box.browser(f"phone{n}").subscription())
    mid = await match(service, *ids)
    mover = await move(service, mid, ids, "m1")
    waiting = await to_move(service, mid, ids)
    clock.advance(AFTER + 1)
    assert await sweeper.sweep() == 1
    assert await sender.run_once() == 1
    for _ in range(3):  # a poll is not a turn
        clock.advance(600)
        await sweeper.sweep()
        assert await sender.run_once() == 0
    [delivery] = push_box.received
    assert push_box.refused == []
    assert delivery.browser == f"phone{ids.index(waiting)}"
    opponent = "anna" if mover == ids[0] else "boris"
    assert delivery.message["title"].startswith("Ваш хід: ")
    assert delivery.message["body"] == f"{opponent} чекає на ваш хід."
    assert delivery.message["url"] == f"/matches/{mid}"
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(OutboxItem)) == 0, "mail is off for both"


def test_no_push_without_the_choice_and_no_pushed_digest(db: Database, push_box: PushBox) -> None:
    (uid,) = members(db, "anna", mode="digest")
    _subscribe(db, uid, push_box.browser("phone").subscription())
    channel = PushChannel()
    member = Member(uid, "anna", "anna@mail.example", "digest", True, "ru")
    with db.session() as s:
        channel(s, DigestNotice(member, date(2026, 12, 6), ()), utcnow())
        assert s.scalar(select(func.count()).select_from(PushJob)) == 0, "the digest is a mail's form"
        channel(s, TurnNotice("turn", replace(member, push=False), WAITING, 3), utcnow())
        assert s.scalar(select(func.count()).select_from(PushJob)) == 0, "push not chosen"
        channel(s, TurnNotice("turn", member, WAITING, 3), utcnow())
        assert s.scalar(select(func.count()).select_from(PushJob)) == 1, "the channel does write"
