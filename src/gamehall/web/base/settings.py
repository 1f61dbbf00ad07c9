"""Every limit and policy of the web server, in one place: :class:`Settings`.

A server runs on one :class:`Settings` value (frozen): its defaults suit a public server on a small
machine, ``gamehall serve --config FILE`` reads a TOML file of the same names, and
``--set NAME=VALUE`` (repeatable) overrides single ones. docs/web-protocol.md ("Limits") says what
each limit does to a client that reaches it; every refusal names the setting.

A TOML file holds the names below as top-level keys, for example::

    https = true                                 # behind a TLS proxy: Secure cookies
    trusted_proxies = ["127.0.0.1"]              # the proxy, whose X-Forwarded-For is believed
    host_names = ["games.example.org"]           # the public name the server answers for
    computer_games = 3
    computer_seconds = 20.0
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, get_type_hints

from gamehall.core import Limit


class SettingsError(ValueError):
    """A setting that does not exist or has a value it cannot take."""


def _default_workers() -> int:
    """Search workers: one per CPU but one (that one serves the event loop and the store)."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class Settings:
    """The web server's limits and policies (see the module docstring)."""

    # --- where the server stands ---
    https: bool = False
    """The server is reached over HTTPS (behind a TLS proxy): cookies are ``Secure`` and the
    same origin is ``https://<host>``."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may play (``scheme://host[:port]``)."""
    host_names: tuple[str, ...] = ()
    """Host names the server answers besides ``localhost``, ``127.0.0.1``, ``[::1]`` and the
    address it listens on (the public name behind a proxy); a request for any other ``Host`` is
    refused (a page of a made-up name resolving to this machine may not drive it)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/8``) of the proxies in front: from these alone the
    client's address is read from ``X-Forwarded-For``; from anyone else it is the connection's
    own (none by default)."""

    # --- input ---
    max_body_bytes: int = 64 * 1024
    """The largest REST request body read (413 beyond)."""
    max_message_bytes: int = 16 * 1024
    """The largest WebSocket message accepted (the socket is closed beyond)."""
    max_action_chars: int = 200
    """The longest action text a ``move`` may carry."""
    max_str_option: int = 200
    """The longest value of a ``str`` or ``choice`` option (an option's own limit may be less)."""
    max_data_option: int = 16 * 1024
    """The longest value of a ``data`` option, an inline document (an option's own limit may be
    less)."""
    max_int_option: int = 1_000_000
    """Integer options lie within ±this, whatever their own bounds."""
    max_actions: int = 25_000
    """The most actions (chance included) one game may have; a game whose rules bound its length
    above this is refused when created."""

    # --- per client (a browser's identity; the address counts too) ---
    computer_games: int = 5
    """Ongoing games against the computer one browser may have at once."""
    games_per_minute: int = 10
    """Games (rematches included) one browser may create per minute."""
    address_factor: int = 4
    """One network address may do this many times what one browser may (games per minute),
    so a client that drops its cookie gains little."""
    messages_per_second: float = 20.0
    """WebSocket messages one connection may send per second (bursts of twice that)."""
    resyncs_per_minute: int = 12
    """Full states (``hello`` from nothing, or ``resync``) one connection may ask for per
    minute."""
    chat_burst: int = 5
    """Chat messages one browser may send at once (then ``chat_per_second``)."""
    chat_per_second: float = 0.5
    """Chat messages one browser may send per second, past its burst."""
    chat_address_burst: int = 20
    """Chat messages one network address may send at once (then ``chat_address_per_second``),
    whatever identities it comes with."""
    chat_address_per_second: float = 2.0
    """Chat messages one network address may send per second, past its burst."""
    takebacks_per_minute: int = 6
    """Takeback requests (offers, answers) one browser may send per minute (bursts of half)."""
    max_connections: int = 4096
    """WebSocket connections the server holds at once."""
    sockets_per_address: int = 100
    """WebSocket connections (games, watching, the lobby) one network address may hold at once,
    so one client cannot take the sockets of everyone else."""

    # --- connections (per server process) ---
    connections_per_address: int = 100
    """TCP connections one network address may hold open at once (not counted for trusted
    proxies, whose own limits apply)."""
    header_seconds: float = 10.0
    """A connection whose request headers are not complete this long after they began (or after
    it opened) is closed."""
    max_header_bytes: int = 16 * 1024
    """The largest request line and headers read (431 beyond)."""
    keep_alive_seconds: float = 10.0
    """An idle connection between requests is closed after this long."""

    # --- computers ---
    computer_seconds: float = 30.0
    """A computer move's wall-clock bound: past it the worker is stopped and the fallback plays."""
    computer_memory_mb: int = 1024
    """A computer move's memory bound (the worker's address space beyond its size at start)."""
    search_workers: int = field(default_factory=_default_workers)
    """Worker processes for the search levels (medium, hard, perfect)."""
    quick_workers: int = 1
    """Worker processes for the quick levels (beginner, easy), so they never queue behind a
    search."""

    # --- memory and loading ---
    idle_seconds: float = 300.0
    """A game nobody watches and no computer thinks in leaves memory after this long (it is
    loaded again when asked for)."""
    max_live_games: int = 5000
    """The most games kept in memory; past it the longest idle go first."""
    load_seconds: float = 10.0
    """Loading one stored game may take this long; a game that does not load in time, or does
    not replay, is quarantined."""

    collect_seconds: float = 3600.0
    """How often the server's garbage collector walks every object it holds, for cycles that
    died after it froze them (:mod:`gamehall.web.http.collector`); each walk stops the server in
    proportion to what it holds."""

    def __post_init__(self) -> None:
        for name, value in self.describe().items():
            if isinstance(value, bool | tuple):
                continue
            if isinstance(value, int | float) and not value > 0:
                raise SettingsError(f"setting {name} must be positive, not {value}")
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise SettingsError(
                    f"trusted proxy {proxy!r} must be an IP address or a network such as 10.0.0.0/8"
                ) from None
        for name in self.host_names:
            if not name or any(c in name for c in "/ @?#") or name.count(":") == 1:
                raise SettingsError(
                    f"host name {name!r} must be a name or an address, with no scheme, port "
                    "or path (games.example.org, 192.0.2.7, [2001:db8::7])"
                )
        for origin in self.allowed_origins:
            if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
                raise SettingsError(
                    f"allowed origin {origin!r} must be scheme://host[:port], with no path"
                )

    @property
    def computer_limit(self) -> Limit:
        """The bound of one computer move, as the search budget value."""
        return Limit(seconds=self.computer_seconds, memory_mb=self.computer_memory_mb)

    # --- reading ---

    def replace(self, values: Mapping[str, Any]) -> Settings:
        """These settings with ``values`` (names and values as a TOML file gives them, or text
        from the command line) put in, each checked."""
        hints = get_type_hints(Settings)
        known = {spec.name for spec in fields(self)}
        changes: dict[str, Any] = {}
        for name, value in values.items():
            if name not in known:
                raise SettingsError(
                    f"unknown setting {name!r}; settings are: {', '.join(sorted(known))}"
                )
            changes[name] = _convert(name, hints[name], value)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_toml(cls, path: str | Path, base: Settings | None = None) -> Settings:
        """Settings from a TOML file of the names above (on top of ``base``)."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise SettingsError(f"cannot read settings {str(path)!r}: {error.strerror}") from None
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise SettingsError(f"settings {str(path)!r} are not valid TOML: {error}") from None
        return (base or cls()).replace(data)

    @staticmethod
    def assignments(items: list[str]) -> dict[str, str]:
        """``NAME=VALUE`` texts (``--set``) as a mapping."""
        found: dict[str, str] = {}
        for item in items:
            name, sep, value = item.partition("=")
            if not sep or not name.strip():
                raise SettingsError(f"setting {item!r} is not NAME=VALUE")
            found[name.strip()] = value.strip()
        return found

    def describe(self) -> dict[str, Any]:
        """Every setting and its value (for documentation and the tests)."""
        return dataclasses.asdict(self)


def _convert(name: str, kind: Any, value: Any) -> Any:
    text = isinstance(value, str)
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            if text and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                return value.lower() in ("true", "1", "yes")
            raise ValueError
        if kind is int:
            if isinstance(value, bool) or not (isinstance(value, int) or text):
                raise ValueError
            return int(value)
        if kind is float:
            if isinstance(value, bool) or not (isinstance(value, int | float) or text):
                raise ValueError
            return float(value)
        if kind == tuple[str, ...]:
            if text:
                return tuple(v.strip() for v in value.split(",") if v.strip())
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return tuple(value)
            raise ValueError
    except ValueError:
        pass
    else:
        raise SettingsError(f"setting {name} has an unsupported type")  # pragma: no cover
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    what = {bool: "true or false", int: "an integer", float: "a number"}.get(kind, "a list of text")
    raise SettingsError(f"setting {name} takes {what}, not {shown}")


__all__ = ["Settings", "SettingsError"]
