"""The messages carried on the bus (issue 15 §3): one ``TypedDict`` per kind, told apart by ``type``.

They are plain dicts at run time — built from plain fields and encoded with orjson, no model per message on
the push path (issue 12 §2) — and :data:`BUS_MESSAGE` (a pydantic ``TypeAdapter`` over the discriminated
union) validates one where that is cheap and useful: tests, and whoever receives from an untrusted place.
Receivers dispatch on ``message["type"]``; an unknown type is ignored (a newer worker during a rolling
deploy may send one).

Channels (``bus/base.py`` is the transport; it carries any JSON object):

- ``match:{id}`` — :class:`Change` after every committed change of the match (``MatchService.changed``),
  :class:`PresenceChanged`, :class:`RematchOffered`, :class:`ChatPosted`, :class:`ChatHidden`;
- ``lobby`` — :class:`ChallengesChanged`; ``user:{id}`` — :class:`MatchStarted`, :class:`RollCall`;
- ``sessions`` — :class:`SessionEnded`; ``worker:{id}`` — :class:`ForwardedOp`, :class:`ForwardAnswer`;
- every channel — :class:`Resync` (delivered locally by the bus after a reconnect: re-read the database).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict


class ActAck(TypedDict):
    """Which act a change is: the mover's seat and the act's client id."""

    seat: int
    id: str


class Change(TypedDict):
    """A committed change of a match: its ``seq`` and ``status``; ``push`` holds each seated member's socket
    ``state`` message (seat ``"0"``/``"1"`` → JSON text) with the events after ``since``, in ``lang`` when
    the game's events are worded (absent: language-free texts). ``ack``: the change is a player's act —
    its seat and the act's client id; a socket of that seat which sent that act sends its push as the act's
    ack (web/ws.py: one frame per act, on whichever worker the socket is)."""

    type: Literal["change"]
    seq: int
    status: str
    since: int
    push: dict[str, str]
    lang: NotRequired[str]
    ack: NotRequired[ActAck]


class PresenceChanged(TypedDict):
    """A seat's socket connected or left: read the presence again."""

    type: Literal["presence"]


class RematchOffered(TypedDict):
    """A rematch of this match was offered or accepted: the new match's ``id``."""

    type: Literal["rematch"]
    id: str


class ChatPosted(TypedDict):
    """A chat message (``play/chat.py`` ``message_json``); each reader's socket checks its channel."""

    type: Literal["chat"]
    message: dict[str, Any]


class ChatHidden(TypedDict):
    """An admin hid the chat message ``id``."""

    type: Literal["chat_hidden"]
    id: int


class ChallengesChanged(TypedDict):
    """The open challenge table changed: lobby pages read it again."""

    type: Literal["challenges"]


class MatchStarted(TypedDict):
    """A match of this member started: ``why`` is ``challenge``, ``invite``, ``queue`` or ``rematch``."""

    type: Literal["match"]
    id: str
    why: str


class RollCall(TypedDict):
    """A lobby socket of this member closed: every other one answers with a queue heartbeat."""

    type: Literal["lobby_roll_call"]


class SessionEnded(TypedDict):
    """A session of member ``user`` ended (logout, password change) on worker ``origin``."""

    type: Literal["session_end"]
    user: int
    origin: str


class ForwardedOp(TypedDict):
    """A write for the match's owner (``play/forward.py``): request ``rid``, answer to worker ``reply``."""

    type: Literal["op"]
    rid: int
    reply: str
    op: dict[str, Any]


class ForwardAnswer(TypedDict):
    """The owner's answer to request ``rid``: ``ok`` (the result) or ``err`` (``[status, code, message]``);
    ``held``: the answering worker holds the match's lease (the caller may keep forwarding without asking
    Redis again; absent from older workers); ``lease``: the owner handed the caller the match's lease, this
    value (play/ownership.py ``hand_over``)."""

    type: Literal["answer"]
    rid: int
    ok: NotRequired[Any]
    err: NotRequired[list[Any]]
    held: NotRequired[bool]
    lease: NotRequired[str]


class Resync(TypedDict):
    """The bus reconnected and news may have been lost: re-read from the database."""

    type: Literal["resync"]


BusMessage = (
    Change
    | PresenceChanged
    | RematchOffered
    | ChatPosted
    | ChatHidden
    | ChallengesChanged
    | MatchStarted
    | RollCall
    | SessionEnded
    | ForwardedOp
    | ForwardAnswer
    | Resync
)
BUS_MESSAGE: TypeAdapter[BusMessage] = TypeAdapter(Annotated[BusMessage, Field(discriminator="type")])
"""Validates one bus message (``BUS_MESSAGE.validate_python(m)``; pydantic ValidationError otherwise)."""
