"""E-mail addresses and header values (issue 28 §Bad input: malformed, overlong, header injection).

An address is accepted when it is at most 254 characters (RFC 5321's path limit less the brackets), its
local part at most 64, it has exactly one ``@``, no whitespace, no control character, no ``<>()[],;:"\\``
(no display names, comments or quoted local parts: a member types a plain address), and its domain has a dot
and only letters, digits, hyphens and dots (internationalised letters allowed) with no empty label.
Nothing here looks the domain up: the confirmation link proves the address.
"""

from __future__ import annotations

import re
import unicodedata
from email.headerregistry import Address
from email.utils import parseaddr

MAX_ADDRESS = 254
MAX_LOCAL = 64
_LOCAL_BAD = re.compile(r'[\s<>()\[\],;:"\\@]')
_LABEL = re.compile(r"[^\W_](?:[\w-]{0,61}[^\W_])?")


class BadAddress(ValueError):
    """Not an address this site mails to; ``problem``: ``length``, ``format`` or ``control_chars``."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def has_control(value: str) -> bool:
    """True if ``value`` holds a control character (CR, LF, NUL, …): never put it in a mail header."""
    return any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in value)


def check_address(value: str) -> str:
    """``value`` stripped of surrounding spaces, if it is an address (module docstring); raises BadAddress.
    A control character anywhere (a trailing line feed included) refuses it."""
    if has_control(value):
        raise BadAddress("control_chars")
    address = value.strip(" ")
    if not address or len(address) > MAX_ADDRESS:
        raise BadAddress("length")
    local, at, domain = address.rpartition("@")
    if not at or not local or len(local) > MAX_LOCAL or _LOCAL_BAD.search(local):
        raise BadAddress("format")
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        raise BadAddress("format")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        raise BadAddress("format")
    return address


def address_key(address: str) -> str:
    """The uniqueness key of an address: casefolded (``Anna@Mail.example`` is ``anna@mail.example``)."""
    return address.casefold()


def check_from(value: str) -> str:
    """A ``MAIL_FROM`` setting: ``Name <address>`` or an address, no control characters; raises
    ValueError."""
    if has_control(value):
        raise ValueError("MAIL_FROM must not contain control characters")
    _name, address = parseaddr(value)
    if not address or "@" not in address:
        raise ValueError("MAIL_FROM must be an address or 'Name <address>'")
    return value.strip()


def header_from(value: str) -> Address | str:
    """``MAIL_FROM`` as an ``email`` header value (a display name is encoded as RFC 2047 needs)."""
    name, address = parseaddr(value)
    if not name:
        return address
    user, _at, domain = address.rpartition("@")
    return Address(display_name=name, username=user, domain=domain)
