"""``gamehall serve``'s HTTP protocol: a WebSocket handshake leaves no garbage for the collector
(:class:`gamehall.web.http.server.HttpProtocol`), so the server's rare full walks find little."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.sync.client import connect

from gamehall.web.http.server import HttpProtocol
from tests.live_server import uvicorn_thread


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI app that accepts a WebSocket and echoes its messages."""
    assert scope["type"] == "websocket"
    await receive()
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": message.get("text") or ""})


@pytest.fixture
def collector_paused() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def garbage_after_sockets(protocol: type[HttpToolsProtocol], sockets: int = 5) -> Counter[str]:
    """The types of the cyclic garbage ``sockets`` WebSocket connections to a server speaking
    ``protocol`` leave once closed."""
    gc.collect()
    with uvicorn_thread(echo, http=protocol, lifespan="off") as port:
        for n in range(sockets):
            with connect(f"ws://127.0.0.1:{port}/") as ws:
                ws.send(f"hello {n}")
                assert ws.recv(timeout=5) == f"hello {n}"
    # The server has stopped, and its shutdown waited for every connection to close and every
    # task to end: it has seen every close.
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    found = Counter(type(o).__name__ for o in gc.garbage)
    gc.set_debug(0)
    gc.garbage.clear()
    return found


@pytest.mark.parametrize(("protocol", "leaves"), [(HttpToolsProtocol, True), (HttpProtocol, False)])
def test_a_websocket_handshake_leaves_its_http_protocol_to_reference_counting(
    collector_paused: None, protocol: type[HttpToolsProtocol], leaves: bool
) -> None:
    found = garbage_after_sockets(protocol)
    # uvicorn's own protocol leaves itself and its parser in a cycle for each handshake (this
    # case fails, and HttpProtocol can go, once uvicorn breaks that cycle itself); the server's
    # leaves nothing of it for the collector.
    assert (found["HttpToolsProtocol"] + found[protocol.__name__] >= 5) is leaves, found
    assert (found["HttpRequestParser"] >= 5) is leaves, found
