"""Frames and messages of the LAN protocol (../shared/protocol.md), with no I/O.

Feed bytes in any split to a FrameDecoder and get checked Message values (or ProtocolError
values) out; `encode` turns one message into one frame. Nothing here touches a socket.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 65536


@dataclass(frozen=True)
class Message:
    """One checked message: its `type` and only the contract's fields, normalised."""

    type: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class ProtocolError:
    """What was wrong with what the peer sent; `fatal` means: send `error`, then close."""

    code: str
    message: str
    fatal: bool = False
