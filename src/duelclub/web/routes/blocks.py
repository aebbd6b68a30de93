"""Blocking over HTTP (issue 28 §5; the rules are in play/blocks.py):

- ``GET /api/me/blocks`` → ``[{username, blocked_at}]``: the members the caller blocked, newest first;
- ``PUT /api/me/blocks/{username}`` (also ``POST /api/members/{username}/block``, the issue's form) →
  ``{username, blocked: true, changed}``: block them (``changed`` false when already blocked);
- ``DELETE /api/me/blocks/{username}`` (also ``DELETE /api/members/{username}/block``) → ``{username,
  blocked: false, changed}``: lift the block (``changed`` false when there was none).

Errors: 404 ``member_not_found`` (an unknown name or a deleted account), 422 ``block_self``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from duelclub.play import blocks
from duelclub.play.blocks import BlockedMember, BlockResult
from duelclub.play.service import MatchService
from duelclub.web.deps import CurrentUser, get_service
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["members"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
Service = Annotated[MatchService, Depends(get_service)]
Name = Annotated[str, Path(min_length=1, max_length=64)]


@router.get("/me/blocks", response_model=list[BlockedMember])
async def my_blocks(user: CurrentUser, service: Service) -> list[BlockedMember]:
    """The members you blocked, newest block first."""
    return await blocks.listing(service, user.id)


@router.put("/me/blocks/{username}", response_model=BlockResult)
async def block_member(username: Name, user: CurrentUser, service: Service) -> BlockResult:
    """Block a member: they cannot take your challenges or invites (nor you theirs), matchmaking never
    pairs you, and neither of you can write to the chat of the other's matches. Idempotent. 404
    ``member_not_found``, 422 ``block_self``."""
    return await blocks.block(service, user.id, username)


@router.delete("/me/blocks/{username}", response_model=BlockResult)
async def unblock_member(username: Name, user: CurrentUser, service: Service) -> BlockResult:
    """Lift your block of a member. Idempotent. 404 ``member_not_found``, 422 ``block_self``."""
    return await blocks.unblock(service, user.id, username)


@router.post("/members/{username}/block", response_model=BlockResult)
async def block_member_post(username: Name, user: CurrentUser, service: Service) -> BlockResult:
    """The same as ``PUT /api/me/blocks/{username}``."""
    return await blocks.block(service, user.id, username)


@router.delete("/members/{username}/block", response_model=BlockResult)
async def unblock_member_delete(username: Name, user: CurrentUser, service: Service) -> BlockResult:
    """The same as ``DELETE /api/me/blocks/{username}``."""
    return await blocks.unblock(service, user.id, username)
