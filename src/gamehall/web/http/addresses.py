"""Whom a request comes from, as every per-address limit of the hall counts it.

The address is the connection's own, unless the connection comes from a proxy the operator
named (setting ``trusted_proxies``, none by default): then it is the last address in
``X-Forwarded-For`` that is not itself a trusted proxy (read from the right, as each proxy
appends the address it was reached from; a proxy that sets the header to ``$remote_addr`` gives
exactly one). A client that sends the header itself, straight to the server, changes nothing.

Addresses are counted by what one client can hold (:func:`counted_address`): an IPv4 address as
it is, an IPv6 address by its /64 network (one customer's usual allocation, which holds more
addresses than anyone can try), and an IPv4 address written as IPv6 (``::ffff:192.0.2.7``) as the
IPv4 address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

IPV6_PREFIX = 64
"""IPv6 clients are counted per network of this prefix length."""


def counted_address(text: str) -> str:
    """The address as the hall counts it: ``192.0.2.7``, ``2001:db8:1:2::/64``; text that is
    not an IP address (a test client's name) is kept as it is."""
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return text
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` is believed (addresses or networks)."""

    def __init__(self, proxies: Iterable[str]) -> None:
        self.networks = tuple(ipaddress.ip_network(p, strict=False) for p in proxies)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, text: str) -> bool:
        """Whether the peer ``text`` is one of the trusted proxies."""
        if not self.networks:
            return False
        try:
            address = ipaddress.ip_address(text.strip().strip("[]"))
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)

    def client(self, peer: str, forwarded: Iterable[str]) -> str:
        """The client's address (not yet counted): ``peer`` (the connection's), or, when that is
        a trusted proxy, the last hop of the ``X-Forwarded-For`` values ``forwarded`` (in the
        order received) that is not a trusted proxy. A hop that is not an address ends the walk
        at the last trusted one (a proxy that passed on what the client made up)."""
        if not self.trusts(peer):
            return peer
        hops = [hop.strip() for value in forwarded for hop in value.split(",")]
        found = peer
        for hop in reversed(hops):
            try:
                ipaddress.ip_address(hop.strip("[]"))
            except ValueError:
                return found
            found = hop.strip("[]")
            if not self.trusts(found):
                return found
        return found


__all__ = ["IPV6_PREFIX", "TrustedProxies", "counted_address"]
