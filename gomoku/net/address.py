"""A typed host address ("192.168.1.20", "[fe80::1]:15515", "alice-pc.local:16000") checked
before anything connects: plain-words errors, no I/O (names are resolved later, off the UI)."""

from __future__ import annotations

import ipaddress
import re
import unicodedata

from gomoku.net.events import DEFAULT_PORT

MAX_ADDRESS_CHARS = 255
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def _port(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 5:
        raise ValueError(f"the port must be a number from 1 to 65535, not {text!r}")
    port = int(text)
    if not 1 <= port <= 65535:
        raise ValueError(f"the port must be from 1 to 65535, not {port}")
    return port


def _host_name(text: str) -> str:
    name = text[:-1] if text.endswith(".") else text
    labels = name.split(".")
    if not name or len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise ValueError(f"{text!r} is not an IP address or a host name "
                         "(letters, digits and hyphens between dots)")
    if labels[-1].isdigit():  # "300.1.1.1" or "1.2.3": looks like an address, is not one
        raise ValueError(f"{text!r} is not a valid IPv4 address")
    return name


def parse_address(text: str) -> tuple[str, int]:
    """(host, port) from what a player typed; the port defaults to 15515.

    Accepts an IPv4 address, an IPv6 address (bare, or in brackets when a port follows), or a
    host name, each with an optional ":port". Raises ValueError with a sentence a player can
    read. Does not resolve names or touch the network.
    """
    # Full-width digits and dots, as a Chinese or Japanese input method types them, are the
    # ASCII ones (NFKC), and so is the ideographic full stop (as in domain names, IDNA).
    text = unicodedata.normalize("NFKC", text[: 4 * MAX_ADDRESS_CHARS]).replace("\u3002", ".").strip()
    if not text:
        raise ValueError("type the host's address, e.g. 192.168.1.20 or 192.168.1.20:15515")
    if len(text) > MAX_ADDRESS_CHARS or not text.isprintable():
        raise ValueError("that is not an address")
    port = DEFAULT_PORT
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket:
            raise ValueError("an IPv6 address in brackets needs its closing ]")
        if rest:
            if not rest.startswith(":"):
                raise ValueError("after ] only :port may follow")
            port = _port(rest[1:])
        try:
            return str(ipaddress.IPv6Address(host)), port
        except ValueError:
            raise ValueError(f"{host!r} is not an IPv6 address") from None
    if text.count(":") > 1:  # a bare IPv6 address: no port possible without brackets
        try:
            return str(ipaddress.IPv6Address(text)), port
        except ValueError:
            raise ValueError(f"{text!r} is not an IPv6 address (put it in [brackets] to add a port)") from None
    host, colon, port_text = text.partition(":")
    if colon:
        port = _port(port_text)
    try:
        return str(ipaddress.IPv4Address(host)), port
    except ValueError:
        return _host_name(host), port


def shown_host(host: str) -> str:
    """A host as a player reads (and may type) it beside a port: IPv6 addresses in brackets."""
    return f"[{host}]" if ":" in host else host
