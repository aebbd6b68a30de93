"""Errors of the match service: a stable ``code``, a message, and the HTTP status the API answers with."""

from __future__ import annotations


class PlayError(Exception):
    """A refused request. Codes (status): ``match_not_found`` (404), ``invite_not_found`` (404),
    ``not_your_seat`` (403), ``not_your_match`` (403), ``own_invite`` (409), ``invite_taken`` (409),
    ``invite_closed`` (409), ``match_not_open`` (409),
    ``stale_seq`` (409), ``match_not_active`` (409), ``match_not_finished`` (409), ``unknown_game`` (422),
    ``bad_bot_level`` (422), ``bad_client_seed`` (422), ``clock_only`` (422: an action only the clock plays),
    and every engine ``IllegalAction`` code (422: ``malformed_action``, ``bad_options``, ``not_your_turn``,
    …)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def not_found(match_id: str) -> PlayError:
    return PlayError(404, "match_not_found", f"no match {match_id!r}")


def stale(seq: int) -> PlayError:
    return PlayError(409, "stale_seq", f"the match is at seq {seq}; sync and retry")


STORE_UNAVAILABLE = "store_unavailable"
STORE_UNAVAILABLE_MESSAGE = "the database is unavailable; try again in a few seconds"


def store_unavailable() -> PlayError:
    """503 ``store_unavailable``: the database cannot be reached now (store/health.py ``is_outage``), e.g.
    on the match's owner that a write was forwarded to (play/forward.py, issue 29 §6)."""
    return PlayError(503, STORE_UNAVAILABLE, STORE_UNAVAILABLE_MESSAGE)
