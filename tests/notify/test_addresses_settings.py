"""Addresses (notify/addresses.py), signed tokens (notify/tokens.py) and the mail settings (settings.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from duelclub.notify import tokens
from duelclub.notify.addresses import BadAddress, check_address
from duelclub.settings import Settings


@pytest.mark.parametrize(
    "address",
    ["anna@mail.example", "Anna.Petrenko+club@Mail.Example", "олег@пошта.укр", "a_b-c@x-y.example.org"],
)
def test_plain_addresses_are_accepted(address: str) -> None:
    assert check_address(f"  {address} ") == address


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("anna@mail.example\r\nBcc: x@mail.example", "control_chars"),
        ("anna@mail.example\n", "control_chars"),
        ("anna\u2028@mail.example", "control_chars"),
        ("", "length"),
        ("a@" + "b" * 250 + ".example", "length"),
        ("a" * 65 + "@mail.example", "format"),
        ("anna.mail.example", "format"),
        ("anna@localhost", "format"),
        ("Anna <anna@mail.example>", "format"),
        ("anna..x@mail.example", "format"),
        ("anna@-mail.example", "format"),
        ("anna@mail..example", "format"),
    ],
)
def test_bad_addresses_are_refused_with_their_problem(address: str, problem: str) -> None:
    with pytest.raises(BadAddress) as err:
        check_address(address)
    assert err.value.problem == problem


def test_a_token_is_bound_to_its_purpose_and_secret() -> None:
    token = tokens.make("s" * 40, "password_reset")
    assert len(token) == 66 and tokens.valid("s" * 40, "password_reset", token)
    assert not tokens.valid("s" * 40, "verify_email", token)
    assert not tokens.valid("t" * 40, "password_reset", token)
    assert not tokens.valid("s" * 40, "password_reset", token[:-1] + ("A" if token[-1] != "A" else "B"))
    assert not tokens.valid("s" * 40, "password_reset", token + "\n")


def _settings(tmp_path: Path, **values: str) -> Settings:
    return Settings(DATA_DIR=tmp_path, SECRET_KEY="k" * 40, **values)  # type: ignore[arg-type]


def test_mail_settings_are_checked_at_start_up(tmp_path: Path) -> None:
    s = _settings(tmp_path, PUBLIC_URL="https://club.example/duel/", MAIL_FROM="Клуб <club@mail.example>")
    assert s.PUBLIC_URL == "https://club.example/duel" and s.SMTP_URL is None
    assert "secret" not in repr(_settings(tmp_path, SMTP_URL="smtps://u:secret@mail.example"))
    for bad in (
        {"PUBLIC_URL": "club.example"},
        {"PUBLIC_URL": "https://club.example/?x=1"},
        {"MAIL_FROM": "nobody"},
        {"MAIL_FROM": "club@mail.example\r\nBcc: x@mail.example"},
        {"SMTP_URL": "http://mail.example"},
        {"MAIL_REQUESTS_PER_IP": "lots"},
    ):
        with pytest.raises(ValidationError):
            _settings(tmp_path, **bad)
