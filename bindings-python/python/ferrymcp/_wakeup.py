"""Wakes an asyncio loop that has no `add_reader` for the native bridge's inbox.

The native bridge (`bindings-python/src/bridge.rs`) wakes the loop that runs ferrymcp's
callbacks by writing a byte to a local socket. Most loops watch that socket with
`add_reader`; Windows' default `ProactorEventLoop` cannot (`NotImplementedError`), so
there a task awaits `loop.sock_recv` on it, which the Proactor serves with overlapped
I/O, and runs the inbox after each read. The task is the loop's own: it ends when the
socket closes or when the loop cancels it at shutdown (`asyncio.run` does).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

# Tasks are only weakly held by their loop; these are held until they end.
_pumps: set[asyncio.Task[None]] = set()


def start(loop: asyncio.AbstractEventLoop, fileno: int, inbox: Callable[[], None]) -> None:
    """Starts the task that runs `inbox` whenever the socket `fileno` (now owned here) has
    bytes."""
    sock = socket.socket(fileno=fileno)
    sock.setblocking(False)
    task = loop.create_task(_pump(loop, sock, inbox))
    _pumps.add(task)
    task.add_done_callback(_pumps.discard)


async def _pump(loop: asyncio.AbstractEventLoop, sock: socket.socket, inbox: Callable[[], None]) -> None:
    with sock:
        while await loop.sock_recv(sock, 256):
            inbox()
