"""The WebSocket messages (issue 15 §3), each kind told apart by ``type``.

Server → client messages are ``TypedDict``s: plain dicts at run time, encoded as they are (the ``state``
message is built by orjson from plain fields, ``play/views.state_message``: no model on the push path, issue
12 §2). :data:`MATCH_SERVER_MESSAGE`, :data:`LOBBY_SERVER_MESSAGE` and :data:`TURNS_SERVER_MESSAGE` validate
what a socket sends (tests read every message through them). Client → server messages are validated on
receipt (:data:`MATCH_CLIENT_MESSAGE`, :data:`LOBBY_CLIENT_MESSAGE`: pydantic discriminated unions).

- ``/ws/matches/{id}`` (web/ws.py): sends :class:`StateSent`, :class:`AckSent`, :class:`ErrorSent`,
  :class:`PongSent`, :class:`PresenceSent`, :class:`RematchSent`, :class:`ChatSent`, :class:`ChatHiddenSent`;
  accepts :class:`SyncMessage`, :class:`ActMessage`, :class:`PingMessage`.
- ``/ws/lobby`` (web/lobby_ws.py): sends :class:`ChallengesSent`, :class:`QueueSent`, :class:`MatchSent`,
  :class:`LobbyErrorSent` (each with the socket's push counter ``seq``); accepts :class:`LobbySync`.
- ``/ws/turns`` (web/turns.py): sends :class:`TurnsSent` and :class:`MatchStartedSent`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import BaseModel, Field, TypeAdapter
from typing_extensions import TypedDict

# -- the match socket, server → client -------------------------------------------------------------------


class StateSent(TypedDict):
    """What the socket's reader sees now (the fields of ``play/schemas.StatePayload``) with the events
    after the last state it got."""

    type: Literal["state"]
    seq: int
    seat: int | None
    status: str
    view: dict[str, Any] | None
    legal: list[dict[str, Any]]
    clock: dict[str, Any] | None
    events: list[dict[str, Any]]
    result: dict[str, Any] | None
    to_move: list[int]
    abortable: bool
    ack: NotRequired[str]
    """On a socket opened with ``?ack=state``: the id of this socket's act that this state answers (the
    state is its ack: one frame per act, issue 29 §1)."""


class AckSent(TypedDict):
    """The act ``id`` was stored as action ``seq``."""

    type: Literal["ack"]
    id: str
    seq: int


class ErrorSent(TypedDict):
    """A refused message: ``code`` (stable, machine-readable) and ``message``; ``id`` of the act if any."""

    type: Literal["error"]
    id: str | None
    code: str
    message: str


class PongSent(TypedDict):
    type: Literal["pong"]


class PresenceSent(TypedDict):
    """Both seats' connection status (``play/schemas.Presence``) at the state ``seq`` the socket last got."""

    type: Literal["presence"]
    seq: int | None
    seats: list[dict[str, Any]]
    grace_seconds: float
    claim_at: str | None
    can_claim: bool


class RematchSent(TypedDict):
    """A rematch ``id`` of this match was offered or accepted."""

    type: Literal["rematch"]
    seq: int | None
    id: str


class ChatSent(TypedDict):
    """A chat message the reader may see (``play/chat.message_json``)."""

    type: Literal["chat"]
    message: dict[str, Any]


class ChatHiddenSent(TypedDict):
    """An admin hid the chat message ``id``."""

    type: Literal["chat_hidden"]
    id: int


MatchServerMessage = (
    StateSent | AckSent | ErrorSent | PongSent | PresenceSent | RematchSent | ChatSent | ChatHiddenSent
)
MATCH_SERVER_MESSAGE: TypeAdapter[MatchServerMessage] = TypeAdapter(
    Annotated[MatchServerMessage, Field(discriminator="type")]
)

# -- the match socket, client → server -------------------------------------------------------------------


class SyncMessage(BaseModel):
    """Send the state again, with the events after ``seq``."""

    type: Literal["sync"]
    seq: Annotated[int, Field(ge=0)] = 0


class ActMessage(BaseModel):
    """An action (as ``POST /api/matches/{id}/actions``): client action ``id``, the ``seq`` the player saw."""

    type: Literal["act"]
    id: Annotated[str, Field(min_length=1, max_length=40, coerce_numbers_to_str=True)]
    seq: Annotated[int, Field(ge=0)]
    action: dict[str, Any]


class PingMessage(BaseModel):
    """The page's heartbeat: answered with ``pong``."""

    type: Literal["ping"]


MatchClientMessage = SyncMessage | ActMessage | PingMessage
MATCH_CLIENT_MESSAGE: TypeAdapter[MatchClientMessage] = TypeAdapter(
    Annotated[MatchClientMessage, Field(discriminator="type")]
)

# -- the lobby socket ----------------------------------------------------------------------------------------


class ChallengesSent(TypedDict):
    """The open challenge table (``play/schemas.Challenge`` items)."""

    type: Literal["challenges"]
    seq: int
    items: list[dict[str, Any]]


class QueueSent(TypedDict):
    """The member's queue status (``play/schemas.QueueStatus``)."""

    type: Literal["queue"]
    seq: int
    queue: dict[str, Any]


class MatchSent(TypedDict):
    """A match of the member started (``why``: ``challenge``, ``invite``, ``queue``, ``rematch``)."""

    type: Literal["match"]
    seq: int
    id: str
    why: str


class LobbyErrorSent(TypedDict):
    """A refused message (``rate_limited``, ``too_large``, ``malformed``)."""

    type: Literal["error"]
    seq: int
    code: str
    message: str


LobbyServerMessage = ChallengesSent | QueueSent | MatchSent | LobbyErrorSent
LOBBY_SERVER_MESSAGE: TypeAdapter[LobbyServerMessage] = TypeAdapter(
    Annotated[LobbyServerMessage, Field(discriminator="type")]
)


class LobbySync(BaseModel):
    """Send the table and the queue status again."""

    type: Literal["sync"]


LOBBY_CLIENT_MESSAGE: TypeAdapter[LobbySync] = TypeAdapter(LobbySync)

# -- the turns socket ----------------------------------------------------------------------------------------


class TurnsSent(TypedDict):
    """The member's active matches where it is their turn: ``count`` and their ``ids``."""

    type: Literal["turns"]
    count: int
    ids: list[str]


class MatchStartedSent(TypedDict):
    """A match of the member started."""

    type: Literal["match"]
    id: str
    why: str | None


TurnsServerMessage = TurnsSent | MatchStartedSent
TURNS_SERVER_MESSAGE: TypeAdapter[TurnsServerMessage] = TypeAdapter(
    Annotated[TurnsServerMessage, Field(discriminator="type")]
)
