"""The server's edge: what every request passes before the app sees it (an ASGI middleware).

* **Security headers** on every HTTP answer (:func:`security_headers`): a Content-Security-Policy
  that allows scripts, styles and connections from the server itself only (no inline script, no
  ``eval``), ``frame-ancestors 'none'`` (no page may frame the app), ``nosniff``, and
  ``Referrer-Policy: no-referrer`` (an invite link never leaks through a Referer).
* **Origin** (:func:`origin_allowed`): a WebSocket, and any request that changes state (every
  method but GET, HEAD and OPTIONS), from a page of another origin is refused (``bad_origin``;
  a WebSocket is closed before it opens). The same origin is the ``Host`` the request came to,
  with the scheme the server is reached by (``https`` when told it is behind HTTPS); more origins
  may be allowed (``allowed_origins``). A request without ``Origin`` is not a browser page's
  (browsers always send it on these requests) and passes.
* **Bodies** are read up to ``max_body_bytes`` (``too_large`` beyond, whatever
  ``Content-Length`` says), and a NUL byte in the path or the query is ``bad_text``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_to_bytes

from gamehall.protocol import ErrorAnswer, ErrorBody, ErrorCode
from gamehall.web.base.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def security_headers(settings: Settings) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries."""
    headers = [
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]
    if settings.https:
        headers.append((b"strict-transport-security", b"max-age=31536000"))
    return headers


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def own_origin(scope: Scope, settings: Settings) -> str | None:
    """The origin a browser shows for the server's own pages: scheme and ``Host``."""
    host = _header(scope, b"host")
    if not host:
        return None
    secure = settings.https or scope.get("scheme") in ("https", "wss")
    return f"{'https' if secure else 'http'}://{host.lower()}"


def origin_allowed(scope: Scope, settings: Settings) -> bool:
    """Whether a request may act: it has no ``Origin`` (not a page's), or the server's own, or
    one of ``allowed_origins``."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    origin = origin.lower().rstrip("/")
    if origin == own_origin(scope, settings):
        return True
    return origin in {allowed.lower().rstrip("/") for allowed in settings.allowed_origins}


def _error_body(code: ErrorCode, message: str) -> bytes:
    answer = ErrorAnswer(error=ErrorBody(code=code, message=message))
    return json.dumps(answer.model_dump(mode="json")).encode()


class Edge:
    """The ASGI middleware that applies the checks and headers above around ``app``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.headers = security_headers(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if not origin_allowed(scope, self.settings) or self._bad_text(scope):
                await send({"type": "websocket.close", "code": 4403})
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        problem = self._bad_text(scope)
        if problem:
            await self._refuse(send_with_headers, 400, ErrorCode.BAD_TEXT, problem)
            return
        method = scope.get("method", "GET")
        if method not in SAFE_METHODS and not origin_allowed(scope, self.settings):
            await self._refuse(
                send_with_headers,
                403,
                ErrorCode.BAD_ORIGIN,
                "this request comes from a page of another origin, which may not play here "
                "(setting allowed_origins)",
            )
            return
        body, too_large = await self._read_body(scope, receive)
        if too_large:
            await self._refuse(
                send_with_headers,
                413,
                ErrorCode.TOO_LARGE,
                f"the request body is larger than {self.settings.max_body_bytes} bytes "
                "(limit max_body_bytes)",
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # the disconnect, when the app waits for one

        await self.app(scope, replay, send_with_headers)

    @staticmethod
    def _bad_text(scope: Scope) -> str | None:
        raw = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogatepass")
        if b"\x00" in unquote_to_bytes(raw):
            return "the path holds a NUL byte; text must be valid Unicode without NUL bytes"
        if b"\x00" in unquote_to_bytes(scope.get("query_string", b"")):
            return "the query holds a NUL byte; text must be valid Unicode without NUL bytes"
        return None

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[bytes, bool]:
        """The whole body, unless it is longer than the limit (then True, and it is not read
        further)."""
        limit = self.settings.max_body_bytes
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return b"", True
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return b"", True
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks), False

    @staticmethod
    async def _refuse(send: Send, status: int, code: ErrorCode, message: str) -> None:
        body = _error_body(code, message)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


__all__ = ["CSP", "Edge", "origin_allowed", "own_origin", "security_headers"]
