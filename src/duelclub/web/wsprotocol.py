"""uvicorn's sans-I/O WebSocket protocol with a lighter receive queue (issue 12: memory per idle socket).

``duelclub serve`` runs this by default (``WS_PROTOCOL=lean``; cli.uvicorn_options). It is
``uvicorn.protocols.websockets.websockets_sansio_impl.WebSocketsSansIOProtocol`` unchanged except that its
receive queue, an ``asyncio.Queue`` that only ever has one reader and is used through ``put_nowait``,
``get`` and ``empty``, is a :class:`~duelclub.aio.LeanQueue` (~3 KB less per open socket, tracemalloc
under benchmarks/load.py --idle-sockets). uvicorn is pinned exactly (pyproject.toml); the WebSocket tests
run over this class, so a uvicorn that used its queue otherwise would fail them.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from duelclub.aio import LeanQueue


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` whose receive queue is a :class:`~duelclub.aio.LeanQueue`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = LeanQueue()  # type: ignore[assignment]
