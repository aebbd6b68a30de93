"""Commit–reveal randomness, scheme ``duelclub/v1`` (rules/fairness.md).

Every random event of a match is read from one :class:`Stream`, keyed by :func:`match_key`.
The commitment :func:`commitment` is shown before the deal; the server seed after the match.
:func:`recording` lists every ``randint`` of a match's stream in order (the draw log of a finished match,
which a verifier recomputes from ``K`` alone, without the game's rules).

Example (the fairness.md test vector)::

    >>> S = bytes(range(32))
    >>> commitment(S, "m-0001")[:16]
    '45f1c0709b643590'
"""

from __future__ import annotations

import hashlib
import re
import secrets
import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple, TypeVar

SCHEME = "duelclub/v1"
SERVER_SEED_BYTES = 32
_CLIENT_SEED_RE = re.compile(r"[0-9a-f]{0,64}")
_T = TypeVar("_T")


def new_server_seed() -> bytes:
    """Return a fresh 32-byte server seed ``S`` from :mod:`secrets` (fairness.md §Values)."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def is_valid_client_seed(seed: str) -> bool:
    """True if ``seed`` is 0–64 lowercase hex characters (fairness.md §Values)."""
    return _CLIENT_SEED_RE.fullmatch(seed) is not None


def _check(server_seed: bytes, match_id: str) -> None:
    if len(server_seed) != SERVER_SEED_BYTES:
        raise ValueError("server seed must be 32 bytes")
    if "\0" in match_id:
        raise ValueError("match id must not contain NUL")


def commitment(server_seed: bytes, match_id: str) -> str:
    """``C = hex(SHA-256("duelclub/v1/commit" ‖ 0 ‖ S ‖ 0 ‖ G))`` — 64 lowercase hex chars.

    Raises ValueError if ``server_seed`` is not 32 bytes or ``match_id`` contains NUL.
    """
    _check(server_seed, match_id)
    return hashlib.sha256(b"duelclub/v1/commit\0" + server_seed + b"\0" + match_id.encode()).hexdigest()


def match_key(server_seed: bytes, match_id: str, seed_a: str = "", seed_b: str = "") -> bytes:
    """``K = SHA-256("duelclub/v1/key" ‖ 0 ‖ S ‖ 0 ‖ G ‖ 0 ‖ a ‖ 0 ‖ b)`` — 32 raw bytes.

    ``seed_a``/``seed_b`` are the client seeds of seat 0 and seat 1 (0–64 lowercase hex).
    Raises ValueError on a malformed seed or match id.
    """
    _check(server_seed, match_id)
    for s in (seed_a, seed_b):
        if not is_valid_client_seed(s):
            raise ValueError("client seed must be 0-64 lowercase hex characters")
    return hashlib.sha256(
        b"duelclub/v1/key\0"
        + server_seed
        + b"\0"
        + match_id.encode()
        + b"\0"
        + seed_a.encode()
        + b"\0"
        + seed_b.encode()
    ).digest()


class Draw(NamedTuple):
    """One ``randint(bound)`` of the stream and the ``value`` it returned (``0 <= value < bound``).

    A shuffle of ``m`` items is the ``m - 1`` draws ``randint(m), randint(m - 1), …, randint(2)``."""

    bound: int
    value: int


_RECORDING: ContextVar[tuple[bytes, list[Draw]] | None] = ContextVar("duelclub_draws", default=None)


@contextmanager
def recording(key: bytes) -> Iterator[list[Draw]]:
    """Record the draws of the match keyed by ``key``: every ``randint`` (shuffles included) of each
    :class:`Stream` built as ``Stream(key)`` inside the block, in the order they happen (such a stream goes
    on recording after the block; streams built after it do not).

    Streams with another key (a bot's determinized copy), resumed streams (:meth:`Stream.at`) and copies
    (:meth:`Stream.copy`, hypothetical futures) never record. Outside the block nothing is recorded and a
    draw costs one attribute test. Yields the list, which fills as the streams are read::

        with recording(key) as draws:
            state = game.new_match(key, options)
        # draws == [Draw(bound=2, value=…), Draw(bound=20, value=…), …]
    """
    draws: list[Draw] = []
    token = _RECORDING.set((key, draws))
    try:
        yield draws
    finally:
        _RECORDING.reset(token)


_WORDS_PER_BLOCK = 8
_BLOCK_WORDS = struct.Struct(">8I")
_SPAN = 2**32


class Stream:
    """SHA-256 counter-mode stream of 32-bit big-endian words (fairness.md §Match key and stream).

    ``position`` (words consumed so far) is part of a game's position format, so a stream can be
    rebuilt exactly with :meth:`at`. A stream made inside :func:`recording` with the recorded key appends
    each :meth:`randint` to the recording.
    """

    __slots__ = ("_block", "_draws", "_key", "_next", "_words", "position")

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("stream key must be 32 bytes")
        self._key = key
        self._block = 0  # the next SHA-256 block to hash
        self._words: tuple[int, ...] = ()  # the current block's 8 words
        self._next = _WORDS_PER_BLOCK  # index of the next unread word in _words (8: none left)
        self.position = 0
        rec = _RECORDING.get()
        self._draws: list[Draw] | None = rec[1] if rec is not None and rec[0] == key else None

    @classmethod
    def at(cls, key: bytes, position: int) -> Stream:
        """A stream keyed by ``key`` that has already consumed ``position`` words."""
        st = cls(key)
        st._draws = None  # its earlier draws are unknown: a resumed stream never records
        st._block, rem = divmod(position, _WORDS_PER_BLOCK)
        if rem:
            st._words = st._hash_block()
            st._next = rem
        st.position = position
        return st

    @property
    def key(self) -> bytes:
        return self._key

    def copy(self) -> Stream:
        """An independent stream at the same place; it does not record (a copy is a hypothetical future)."""
        st = Stream.__new__(Stream)
        st._key, st._block, st._words, st._next = self._key, self._block, self._words, self._next
        st.position = self.position
        st._draws = None
        return st

    def _hash_block(self) -> tuple[int, ...]:
        """The 8 big-endian words of block ``_block`` (SHA-256 of key ‖ block as 8 bytes), advancing it."""
        words = _BLOCK_WORDS.unpack(hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest())
        self._block += 1
        return words

    def word(self) -> int:
        """The next 32-bit unsigned word."""
        i = self._next
        if i == _WORDS_PER_BLOCK:
            self._words = self._hash_block()
            i = 0
        self._next = i + 1
        self.position += 1
        return self._words[i]

    def randint(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` by rejection sampling; ``2 <= n <= 2**32`` (ValueError otherwise)."""
        if not 2 <= n <= 2**32:
            raise ValueError("randint needs 2 <= n <= 2**32")
        limit = _SPAN - (_SPAN % n)
        while True:
            u = self.word()
            if u < limit:
                if self._draws is not None:
                    self._draws.append(Draw(n, u % n))
                return u % n

    def shuffled(self, items: Sequence[_T]) -> list[_T]:
        """Fisher–Yates from the end (fairness.md); position 0 of the result is the top of a deck.

        The same draws as ``randint(i + 1)`` for i = m − 1 … 1, with the word loop inlined (a deal is most
        of a new match's work)."""
        d = list(items)
        if self._draws is not None:  # recording: the plain path appends each draw
            for i in range(len(d) - 1, 0, -1):
                j = self.randint(i + 1)
                d[i], d[j] = d[j], d[i]
            return d
        words, nxt, used = self._words, self._next, 0
        for i in range(len(d) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - (_SPAN % n)
            while True:
                if nxt == _WORDS_PER_BLOCK:
                    words, nxt = self._hash_block(), 0
                u = words[nxt]
                nxt += 1
                used += 1
                if u < limit:
                    break
            j = u % n
            d[i], d[j] = d[j], d[i]
        self._words, self._next = words, nxt
        self.position += used
        return d
