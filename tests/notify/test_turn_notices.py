"""Turn notices by mail (issue 28 §3, §4; play/notices.py): each notice arrives once (a real SMTP server
in-process), never while a socket of the member is open, once per turn and not per poll; the daily digest;
the low-time reminder of a correspondence clock; two workers sweeping at once send each notice once; no
header injection through a member's name. Time is a FakeClock: nothing sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from fake_clock import FakeClock
from smtp_box import PUBLIC_URL, Mailbox
from sqlalchemy import select, update

from duelclub.notify.dispatch import Dispatcher, EmailChannel, Notice, NoticeSite, TurnNotice
from duelclub.notify.sender import MailSender
from duelclub.notify.smtp import SmtpTransport, parse_smtp_url
from duelclub.play import lobby
from duelclub.play.member_presence import MemberPresence
from duelclub.play.notices import NoticeSweeper
from duelclub.play.presence import PresenceTracker
from duelclub.play.service import MatchService
from duelclub.store import notices, users
from duelclub.store.db import Database
from duelclub.store.models import OutboxItem, User

AFTER = 3600
SECRET = "test-secret-key-0123456789abcdef"


@dataclass
class Club:
    """One worker: a service on a fake clock, its sweep (mail channel + a recorder) and a mail sender."""

    service: MatchService
    sweeper: NoticeSweeper
    sender: MailSender
    seen: list[Notice]

    async def sweep_and_send(self) -> int:
        count = await self.sweeper.sweep()
        while await self.sender.run_once():
            pass
        return count


def _club(db: Database, service: MatchService, mailbox: Mailbox, after_seconds: float = AFTER) -> Club:
    seen: list[Notice] = []
    dispatcher = Dispatcher([EmailChannel(NoticeSite(SECRET, PUBLIC_URL))])
    dispatcher.add(lambda _s, notice, _now: seen.append(notice))  # the seam Web Push plugs into
    sweeper = NoticeSweeper(service, dispatcher, public_url=PUBLIC_URL, after_seconds=after_seconds)
    sender = MailSender(db, SmtpTransport(parse_smtp_url(mailbox.url)), mail_from="Клуб <club@mail.example>")
    return Club(service, sweeper, sender, seen)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def club(
    db: Database, clock: FakeClock, mailbox: Mailbox, service_factory: Callable[..., MatchService]
) -> Club:
    service = service_factory(db)
    service.now = clock
    return _club(db, service, mailbox)


def members(db: Database, *names: str, mode: str = "each") -> list[int]:
    """Members with a confirmed address ``<name>@mail.example`` and the mail choice ``mode``."""
    with db.session() as s:
        out = []
        for name in names:
            user = users.create_user(s, name, "password123")
            user.email = user.email_key = f"{name}@mail.example"
            user.email_notices = mode
            out.append(user.id)
        return out


async def match(service: MatchService, a: int, b: int, seconds: int | None = None) -> str:
    created = await lobby.create_match(service, a, game="duel", vs="invite", options={}, move_seconds=seconds)
    assert created.invite_token is not None
    mid, _ = await lobby.accept_invite(service, created.invite_token, b)
    return mid


async def move(service: MatchService, mid: str, ids: list[int], tag: str) -> int:
    """The member to move makes their first legal move; their id."""
    for uid in ids:
        st = await service.state(mid, uid, None)
        if st.legal:
            await service.act(mid, uid, tag, st.seq, st.legal[0])
            return uid
    raise AssertionError("nobody to move")


async def to_move(service: MatchService, mid: str, ids: list[int]) -> int:
    live = await service.fresh(mid)
    (seat,) = live.to_move()
    return ids[seat]


async def test_a_turn_that_waited_is_mailed_once_naming_the_game_and_the_opponent(
    db: Database, club: Club, clock: FakeClock, mailbox: Mailbox
) -> None:
    ids = members(db, "anna", "boris")
    mid = await match(club.service, *ids)
    mover = await move(club.service, mid, ids, "m1")
    waiting = await to_move(club.service, mid, ids)
    assert waiting != mover
    name = {ids[0]: "anna", ids[1]: "boris"}
    clock.advance(AFTER - 1)
    assert await club.sweep_and_send() == 0  # not yet
    clock.advance(2)
    assert await club.sweep_and_send() == 1
    for _ in range(3):  # a poll is not a turn
        clock.advance(600)
        assert await club.sweep_and_send() == 0
    with (
        db.session() as s
    ):  # the mover's seat (not to move at this seq) is settled too: nothing left to look at
        assert notices.waiting_seats(s, "turn", clock.t, since_before=clock.t) == []
    (mail,) = mailbox.to(f"{name[waiting]}@mail.example")
    assert mailbox.to(f"{name[mover]}@mail.example") == []
    assert "Duel" in mail.message["Subject"] and name[mover] in mail.message["Subject"]
    assert f"{PUBLIC_URL}/matches/{mid}" in mail.text and name[mover] in mail.text
    (notice,) = club.seen
    assert isinstance(notice, TurnNotice) and notice.kind == "turn" and notice.match.match_id == mid


async def test_the_next_turn_is_a_new_notice(
    db: Database, club: Club, clock: FakeClock, mailbox: Mailbox
) -> None:
    ids = members(db, "anna", "boris")
    name = {ids[0]: "anna", ids[1]: "boris"}
    mid = await match(club.service, *ids)
    await move(club.service, mid, ids, "m1")
    first = await to_move(club.service, mid, ids)
    clock.advance(AFTER + 1)
    assert await club.sweep_and_send() == 1
    await move(club.service, mid, ids, "m2")  # the waiting member answers
    second = await to_move(club.service, mid, ids)
    clock.advance(AFTER + 1)
    assert await club.sweep_and_send() == 1
    assert await club.sweep_and_send() == 0
    assert [n.member.user_id for n in club.seen] == [first, second]
    assert len(mailbox.received) == 2 and len(mailbox.to(f"{name[second]}@mail.example")) >= 1


async def test_no_notice_while_a_page_or_the_match_socket_is_open(
    db: Database, club: Club, clock: FakeClock, mailbox: Mailbox
) -> None:
    ids = members(db, "anna", "boris")
    mid = await match(club.service, *ids)
    await move(club.service, mid, ids, "m1")
    waiting = await to_move(club.service, mid, ids)
    site, seats = MemberPresence(club.service), PresenceTracker(club.service)
    await site.connected(waiting)  # a page of the site is open (its /ws/turns)
    for _ in range(4):
        clock.advance(AFTER / 2)
        await site.beat()
        assert await club.sweep_and_send() == 0
    site.disconnected(waiting)
    seat = (await club.service.fresh(mid)).seat_of(waiting)
    assert seat is not None
    await seats.connected(mid, seat)  # now only the match's socket is open
    for _ in range(4):
        clock.advance(AFTER / 2)
        await seats.beat()
        assert await club.sweep_and_send() == 0
    await seats.disconnected(mid, seat)
    clock.advance(AFTER - 1)  # the member left just now: the turn has not waited unseen yet
    assert await club.sweep_and_send() == 0
    clock.advance(2)
    assert await club.sweep_and_send() == 1
    assert len(mailbox.received) == 1


async def test_members_who_chose_no_mail_or_have_no_address_get_none(
    db: Database, club: Club, clock: FakeClock, mailbox: Mailbox
) -> None:
    off = members(db, "anna", "boris", mode="off")
    mid = await match(club.service, *off)
    await move(club.service, mid, off, "m1")
    with db.session() as s:
        (vera,) = [users.create_user(s, "vera", "password123").id]
        s.execute(update(User).where(User.id == vera).values(email_notices="each"))  # no address
    other = await match(club.service, vera, off[0])
    await move(club.service, other, [vera, off[0]], "v1")
    clock.advance(10 * AFTER)
    assert await club.sweep_and_send() == 0
    assert mailbox.received == []


async def test_the_daily_digest_lists_every_match_waiting_once_a_day(
    db: Database, club: Club, clock: FakeClock, mailbox: Mailbox
) -> None:
    (anna,) = members(db, "anna", mode="digest")
    others = members(db, "boris", "vera", "gleb", mode="off")
    mids = [await match(club.service, anna, o) for o in others]
    for n, (mid, other) in enumerate(zip(mids, others, strict=True)):
        target = other if n == 2 else anna  # gleb's match waits for gleb
        for i in range(10):
            if await to_move(club.service, mid, [anna, other]) == target:
                break
            await move(club.service, mid, [anna, other], f"x{i}")
    clock.at(clock.t.replace(hour=7))
    assert await club.sweep_and_send() == 0  # before the digest hour
    clock.at(clock.t.replace(hour=9))
    assert await club.sweep_and_send() == 1
    clock.advance(3600)
    assert await club.sweep_and_send() == 0  # one a day
    (mail,) = mailbox.to("anna@mail.example")
    assert "2" in mail.message["Subject"]
    assert f"/matches/{mids[0]}" in mail.text and f"/matches/{mids[1]}" in mail.text
    assert f"/matches/{mids[2]}" not in mail.text and "boris" in mail.text and "gleb" not in mail.text
    clock.advance(86_400)  # the next day
    assert await club.sweep_and_send() == 1
    assert len(mailbox.to("anna@mail.example")) == 2


async def test_a_low_time_reminder_at_a_tenth_of_a_correspondence_clock(
    db: Database, club: Club, clock: FakeClock, mailbox: Mailbox
) -> None:
    ids = members(db, "anna", "boris")
    day = 86_400
    club = _club(db, club.service, mailbox, after_seconds=2 * day)  # no turn notice before it
    mid = await match(club.service, *ids, seconds=day)
    waiting = await to_move(club.service, mid, ids)
    clock.advance(day * 0.9 - 60)
    assert await club.sweep_and_send() == 0
    clock.advance(120)
    assert await club.sweep_and_send() == 1
    clock.advance(60)
    assert await club.sweep_and_send() == 0, club.seen
    name = "anna" if waiting == ids[0] else "boris"
    (mail,) = [m for m in mailbox.to(f"{name}@mail.example") if "/matches/" in m.text]
    assert mail.message["List-Unsubscribe"] and "UTC" in mail.text


async def test_two_workers_sweeping_at_once_send_each_notice_once(
    database_url: str, mailbox: Mailbox, service_factory: Callable[..., MatchService]
) -> None:
    clock = FakeClock()
    dbs = [Database(database_url), Database(database_url)]
    clubs = []
    for db in dbs:
        service = service_factory(db)
        service.now = clock
        clubs.append(_club(db, service, mailbox))
    pairs = [members(dbs[0], f"anna{i}", f"boris{i}") for i in range(6)]
    for n, ids in enumerate(pairs):
        mid = await match(clubs[n % 2].service, *ids)
        await move(clubs[n % 2].service, mid, ids, f"m{n}")
    clock.advance(AFTER + 1)
    for _ in range(3):
        counts = await asyncio.gather(*(c.sweeper.sweep() for c in clubs))
        await asyncio.gather(*(c.sender.run_once() for c in clubs))
        if _ == 0:
            assert sum(counts) == 6, counts
        else:
            assert sum(counts) == 0
    assert len(mailbox.received) == 6
    assert len({m.message["Message-ID"] for m in mailbox.received}) == 6
    with dbs[0].session() as s:
        assert len(s.scalars(select(OutboxItem)).all()) == 6
    for db in dbs:
        db.dispose()


async def test_a_name_cannot_inject_a_header(
    db: Database, club: Club, clock: FakeClock, mailbox: Mailbox
) -> None:
    ids = members(db, "anna", "boris")
    with db.session() as s:  # a name the API would refuse, written straight into the store
        s.execute(update(User).where(User.id == ids[0]).values(username="anna\r\nBcc: eve@mail.example"))
        s.execute(update(User).where(User.id == ids[1]).values(username="boris\r\nBcc: eve@mail.example"))
    mid = await match(club.service, *ids)
    await move(club.service, mid, ids, "m1")
    clock.advance(AFTER + 1)
    assert await club.sweep_and_send() == 1
    (mail,) = mailbox.received
    assert mail.rcpt_tos in (["anna@mail.example"], ["boris@mail.example"])
    assert mail.message["Bcc"] is None and "\n" not in mail.message["Subject"]
    assert mailbox.to("eve@mail.example") == []
