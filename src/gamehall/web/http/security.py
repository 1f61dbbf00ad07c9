"""The server's edge: what every request passes before the app sees it (an ASGI middleware).

* **Who is asking** (:mod:`gamehall.web.http.addresses`): the client's address is the
  connection's, or, from a trusted proxy (``trusted_proxies``), the one it forwards; it is
  counted as every per-address limit counts it (IPv6 per /64) and put in the request's
  ``client``, so ``request.client.host`` is that address everywhere behind the edge.
* **Host** (:func:`host_allowed`): the server answers only the host names it is configured for
  (``localhost``, ``127.0.0.1``, ``[::1]``, the address it listens on, and ``host_names``);
  any other ``Host`` (or none) is 400 with a plain message, and a WebSocket is closed before it
  opens. A page of a made-up name that resolves to this machine cannot drive it.
* **Security headers** on every HTTP answer (:func:`security_headers`): a Content-Security-Policy
  that allows scripts, styles and connections from the server itself only (no inline script, no
  ``eval``), ``frame-ancestors 'none'`` (no page may frame the app), ``nosniff``, and
  ``Referrer-Policy: no-referrer`` (an invite link never leaks through a Referer).
* **Origin** (:func:`origin_allowed`): a WebSocket, and any request that changes state (every
  method but GET, HEAD and OPTIONS), from a page of another origin is refused (``bad_origin``;
  a WebSocket is closed before it opens). The same origin is the server's own host name (one it
  answers for, with the port the request came to), with the scheme the server is reached by
  (``https`` when told it is behind HTTPS); more origins may be allowed (``allowed_origins``). A
  request without ``Origin`` is not a browser page's (browsers always send it on these requests)
  and passes.
* **Sockets per address**: one address holds at most ``sockets_per_address`` WebSockets at once
  (games, watching and the lobby together); past it a socket is told ``over_limit`` and closed.
* **HEAD** is answered wherever GET is, with GET's headers and no body.
* **Bodies** are read up to ``max_body_bytes`` (``too_large`` beyond, whatever
  ``Content-Length`` says), and a NUL byte in the path or the query is ``bad_text``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_to_bytes

from gamehall.protocol import ErrorAnswer, ErrorBody, ErrorCode, ErrorMessage
from gamehall.web.base.limits import over_limit
from gamehall.web.base.settings import Settings
from gamehall.web.http.addresses import TrustedProxies, counted_address

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
LOCAL_HOST_NAMES = ("localhost", "127.0.0.1", "[::1]")
"""The host names every server answers for (the machine itself), besides ``host_names``."""


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


def host_name(host: str) -> str:
    """The name in a ``Host`` header (or a ``host_names`` entry), without its port, in lower
    case: ``games.example.org``, ``127.0.0.1``, ``[::1]``."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[: end + 1] if end > 0 else ""
    if host.count(":") > 1:  # an IPv6 address written without brackets (a setting)
        return f"[{host}]"
    return host.split(":", 1)[0].rstrip(".")


def allowed_hosts(settings: Settings) -> frozenset[str]:
    """The host names the server answers for."""
    return frozenset(host_name(name) for name in (*LOCAL_HOST_NAMES, *settings.host_names))


def host_allowed(scope: Scope, hosts: frozenset[str]) -> bool:
    """Whether the request's ``Host`` names one of ``hosts`` (any port)."""
    host = _header(scope, b"host")
    return host is not None and host_name(host) in hosts


def own_origin(scope: Scope, settings: Settings) -> str | None:
    """The origin a browser shows for the server's own pages: scheme and ``Host``, when that
    host is one the server answers for (None otherwise)."""
    host = _header(scope, b"host")
    if not host or host_name(host) not in allowed_hosts(settings):
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
        self.hosts = allowed_hosts(settings)
        self.proxies = TrustedProxies(settings.trusted_proxies)
        self.sockets: dict[str, int] = {}
        """WebSockets open now, per client address."""

    def client_address(self, scope: Scope) -> str:
        """The client's address as the hall counts it (see the module docstring)."""
        client = scope.get("client")
        peer = str(client[0]) if client else ""
        forwarded = (
            [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"x-forwarded-for"]
            if self.proxies
            else []
        )
        return counted_address(self.proxies.client(peer, forwarded))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = self.client_address(scope)
        scope["client"] = (address, client[1] if client else 0)
        if kind == "websocket":
            if (
                not host_allowed(scope, self.hosts)
                or not origin_allowed(scope, self.settings)
                or self._bad_text(scope)
            ):
                await send({"type": "websocket.close", "code": 4403})
                return
            await self._socket(scope, receive, send, address)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        if not host_allowed(scope, self.hosts):
            await self._wrong_host(scope, send_with_headers)
            return
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

        if method == "HEAD":  # GET's answer, without its body
            inner = {**scope, "method": "GET"}

            async def send_head(message: Message) -> None:
                if message["type"] == "http.response.body":
                    message = {**message, "body": b""}
                await send_with_headers(message)

            await self.app(inner, replay, send_head)
            return
        await self.app(scope, replay, send_with_headers)

    async def _socket(self, scope: Scope, receive: Receive, send: Send, address: str) -> None:
        """A WebSocket within its address's share, counted while it is open."""
        held = self.sockets.get(address, 0)
        if held >= self.settings.sockets_per_address:
            refusal = over_limit(
                "sockets_per_address",
                f"{held} connections are open from your network address, the most one address "
                "may hold",
            )
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            message = ErrorMessage(code=refusal.code, message=refusal.message, version=None)
            await send({"type": "websocket.send", "text": message.model_dump_json()})
            await send({"type": "websocket.close", "code": 1013})  # try again later
            return
        self.sockets[address] = held + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.sockets[address] - 1
            if left:
                self.sockets[address] = left
            else:
                del self.sockets[address]

    async def _wrong_host(self, scope: Scope, send: Send) -> None:
        host = _header(scope, b"host")
        shown = "no host name" if not host else f"the host name {host_name(host)[:80]!r}"
        names = ", ".join(sorted(self.hosts))
        text = (
            f"This server does not answer for {shown}: it answers for {names} "
            "(setting host_names).\n"
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(text)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": text})

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


__all__ = [
    "CSP",
    "LOCAL_HOST_NAMES",
    "Edge",
    "allowed_hosts",
    "host_allowed",
    "host_name",
    "origin_allowed",
    "own_origin",
    "security_headers",
]
