"""Minecraft Classic clients (protocol 7, 0.30c, with CPE) on the Boxel server.

`packets` is the wire format (sans-I/O: bytes in, packets out), `blocks` maps Boxel's blocks to
Classic ids, `level` cuts the map window out of the world and encodes it, `movement` holds a
client that sends positions to Boxel's physics, and `gateway` is the asyncio listener that makes
Classic players real players of the server's Session. docs/PROTOCOL.md, "Classic protocol".
"""
