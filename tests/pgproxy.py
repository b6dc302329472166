"""A TCP proxy in front of PostgreSQL that can cut the network without closing sockets.

A partition, a failover behind a virtual IP or a lost NAT entry sends no reset: the
connections stay open and nothing arrives on them again. :meth:`Proxy.partition` does
that to every connection open at that moment (their bytes are read and dropped) and
makes new ones wait; :meth:`Proxy.heal` lets new connections through again, while the
old ones stay dead, as after a failover. (From the outside review atk41a's ``proxy.py``.)
"""

from __future__ import annotations

import asyncio


class Proxy:
    """Forwards 127.0.0.1:<port> to the server's port until told to cut."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.down = False
        self.generation = 0
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        """Listen on a free loopback port; that port."""
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    def url(self, url: str) -> str:
        """``url`` (of the server behind) through this proxy."""
        return url.replace(f":{self.target_port}/", f":{self.port}/")

    def partition(self) -> None:
        """Existing connections stop delivering anything, for ever; new ones wait."""
        self.generation += 1
        self.down = True

    def heal(self) -> None:
        """New connections work again; the old ones stay dead."""
        self.down = False

    async def close(self) -> None:
        """Stop accepting connections."""
        if self._server is not None:
            self._server.close()

    async def _handle(self, creader: asyncio.StreamReader, cwriter: asyncio.StreamWriter) -> None:
        while self.down:
            await asyncio.sleep(0.1)
        generation = self.generation
        sreader, swriter = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    if self.generation == generation:  # else a black hole: read, never delivered
                        dst.write(data)
                        await dst.drain()
            except (ConnectionError, OSError):
                pass
            if self.generation == generation:
                dst.close()

        await asyncio.gather(pump(creader, swriter), pump(sreader, cwriter))
