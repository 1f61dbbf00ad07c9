"""A real server for tests: an ASGI app served by uvicorn on a free loopback port, in a thread."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

import uvicorn

STARTUP = 60.0
"""The longest an app's startup may take (the timeout fails only a broken run)."""


@contextlib.contextmanager
def uvicorn_thread(app: Any, **options: Any) -> Iterator[int]:
    """Serve ``app`` with uvicorn (``options`` are its Config's) until the block ends; yields the
    port it listens on at 127.0.0.1, once the app's startup is complete.

    The port listens before the server runs, so a client may connect at once: its connection
    waits in the backlog until the server accepts it. Leaving the block stops the server and
    waits for its thread, whose shutdown waits for every connection to close and every task to
    end."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    started = threading.Event()
    if options.get("lifespan") == "off":
        started.set()  # no startup to wait for
    else:
        app = _telling(app, started)
    running = uvicorn.Server(uvicorn.Config(app, log_level="warning", **options))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        assert started.wait(STARTUP), "the app did not start"
        assert thread.is_alive(), "the server stopped as it started"
        yield listener.getsockname()[1]
    finally:
        running.should_exit = True
        thread.join(timeout=30)
        listener.close()
    assert not thread.is_alive(), "the server did not stop"


def _telling(app: Any, started: threading.Event) -> Any:
    """``app``, setting ``started`` when its lifespan startup is over (complete or failed)."""

    async def told(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return

        async def telling(message: dict[str, Any]) -> None:
            await send(message)
            if message["type"] in ("lifespan.startup.complete", "lifespan.startup.failed"):
                started.set()

        await app(scope, receive, telling)

    return told
