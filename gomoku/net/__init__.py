"""LAN play: framing, messages, the asyncio session and discovery (asyncio, zeroconf, msgpack live here only)."""
