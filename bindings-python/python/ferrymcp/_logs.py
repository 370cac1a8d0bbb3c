"""The thread that writes core's log lines to `logging` (`ferrymcp-logging`).

Core logs what the official SDK logs (a refused `Host`, a refused `requestState`, ...) on
tokio threads, in answer to requests anyone can send; the native side
(`bindings-python/src/logs.rs`) only queues those lines and writes a byte to a socket, so
no tokio thread ever takes the GIL or runs a logging handler. This thread waits on that
socket in Python, takes the queued lines in one short native call and logs each on its
logger, so a slow handler delays only this thread, never the server. The ASGI app drains
the queue itself before it sends an answer (`drain()`), so a line logged while an answer
was made is logged before the client has it.

It is a daemon thread (it never holds the process open); at exit the lines still queued
are logged from the exiting thread, and a forked child starts its own thread with a
fresh queue.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
import traceback

from ferrymcp._native import reopen_log_pump, take_log_records

# Held while one batch is taken and logged, so the exit flush waits for a batch in flight.
_writing = threading.Lock()
# How long the exit flush waits for a batch a handler is still logging.
_EXIT_WAIT = 5.0
# How long an answer waits for a batch the logging thread's handler is still logging.
_DRAIN_WAIT = 1.0


def start(fileno: int) -> None:
    """Starts the logging thread on the read end `fileno` (now owned here); once per
    process, by the native side."""
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_after_fork)
    atexit.register(_flush)
    _spawn(fileno)


def _spawn(fileno: int) -> None:
    sock = socket.socket(fileno=fileno)
    sock.setblocking(True)
    threading.Thread(target=_pump, args=(sock,), name="ferrymcp-logging", daemon=True).start()


def _after_fork() -> None:
    global _writing
    _writing = threading.Lock()  # the parent's thread may have held it at fork()
    _spawn(reopen_log_pump())


def _pump(sock: socket.socket) -> None:
    with sock:
        while sock.recv(256):
            with _writing:
                try:
                    _write()
                except Exception:  # never let one bad line end the thread (and silence the rest)
                    traceback.print_exc()


def _write() -> None:
    lines, dropped = take_log_records()
    for name, level, message in lines:
        logger = logging.getLogger(name)
        if logger.isEnabledFor(level):
            logger.log(level, "%s", message)
    if dropped:
        logging.getLogger("ferrymcp").warning(
            "%d log lines of ferrymcp were dropped: more arrived than the logging thread could keep up with",
            dropped,
        )


def drain() -> None:
    """Logs, on the calling thread, the lines core queued so far. The ASGI app calls it
    before it sends an answer, so what core logged while making that answer (a refused
    `Host`, a refused `requestState`) is on its logger when the client has the answer, as
    the official server logs it in the request itself."""
    if not _writing.acquire(timeout=_DRAIN_WAIT):
        return  # a handler on the logging thread is stuck: it logs the rest when it returns
    try:
        _write()
    finally:
        _writing.release()


def _flush() -> None:
    """At exit: logs what is still queued, after the batch in flight (a handler stuck
    longer than `_EXIT_WAIT` does not hold the exit up)."""
    if _writing.acquire(timeout=_EXIT_WAIT):
        try:
            _write()
        finally:
            _writing.release()
