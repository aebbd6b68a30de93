"""The unsubscribe token (notify/unsubscribe.py) and the notice mails' headers (notify/notice_mail.py,
notify/compose.py): signed per member, refused when altered; no control character reaches a header."""

from __future__ import annotations

import pytest

from duelclub.notify import unsubscribe
from duelclub.notify.compose import message
from duelclub.notify.notice_mail import one_line
from duelclub.store.outbox import Claimed

SECRET = "test-secret-key-0123456789abcdef"


def test_the_token_names_its_member_only_when_signed_with_the_secret() -> None:
    token = unsubscribe.make(SECRET, 42)
    assert unsubscribe.member(SECRET, token) == 42
    uid, mac = token.split(".")
    for bad in (
        f"43.{mac}",  # another member's id with this signature
        f"{uid}.{mac[:-1]}{'B' if mac[-1] == 'A' else 'A'}",
        f"{uid}.",
        uid,
        f"0{uid}.{mac}",
        f"{uid}.{mac}\n",
        "",
    ):
        assert unsubscribe.member(SECRET, bad) is None, bad
    assert unsubscribe.member("another-secret-0123456789abcdef", token) is None


def test_names_lose_their_line_breaks_and_headers_refuse_control_characters() -> None:
    assert one_line("anna\r\nBcc: eve@mail.example\u2028x") == "anna  Bcc: eve@mail.example x"
    link = "https://club.example/unsubscribe/" + unsubscribe.make(SECRET, 1)
    ok = Claimed(
        1, "email", "turn", "anna@mail.example", "ru", {"subject": "s", "text": "t", "unsubscribe": link}, 1
    )
    msg = message(ok, "Клуб <club@mail.example>")
    assert msg["List-Unsubscribe"] == f"<{link}>"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    for payload in (
        {"subject": "s\r\nBcc: eve@mail.example", "text": "t"},
        {"subject": "s", "text": "t", "unsubscribe": link + "\r\nBcc: eve@mail.example"},
        {"subject": "s", "text": "t", "unsubscribe": link + ">, <https://evil.example"},
    ):
        with pytest.raises(ValueError):
            message(Claimed(1, "email", "turn", "anna@mail.example", "ru", payload, 1), "club@mail.example")
