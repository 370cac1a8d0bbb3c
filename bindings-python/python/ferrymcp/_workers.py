"""The worker threads that run sync handlers (tools, resources, prompts, completions
written as plain functions).

asyncio's default executor joins its threads when `asyncio.run` ends and again at
interpreter exit, so one sync tool stuck in a long call would keep a stdio server from
stopping on EOF or Ctrl-C. These workers are daemon threads: the process ends when its
main thread is done, as a server must, and a handler still running then is abandoned
with its request. Threads start on demand, up to the default executor's count, and a
forked child starts afresh (its parent's threads do not exist there).
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

_Job = tuple["Future[Any] | None", Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class DaemonWorkers(Executor):
    """A thread pool whose threads never hold the process open."""

    def __init__(self, max_workers: int | None = None) -> None:
        self._max_workers = max_workers or min(32, (os.cpu_count() or 1) + 4)
        self._reset()

    def _reset(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._threads = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._put((future, fn, args, kwargs))
        return future

    def run(self, job: Callable[[], None]) -> None:
        """Runs `job()` on a worker with no future around it: for a job that reports its
        own outcome and never raises (the native module's sync handler calls)."""
        self._put((None, job, (), {}))

    def _put(self, job: _Job) -> None:
        self._jobs.put(job)
        if not self._idle.acquire(blocking=False):
            with self._lock:
                if self._threads < self._max_workers:
                    self._threads += 1
                    name = f"ferrymcp-worker-{self._threads}"
                    threading.Thread(target=self._work, name=name, daemon=True).start()

    def _work(self) -> None:
        while True:
            future, fn, args, kwargs = self._jobs.get()
            if future is None:
                fn()
            elif future.set_running_or_notify_cancel():
                try:
                    result = fn(*args, **kwargs)
                except BaseException as exc:
                    future.set_exception(exc)
                else:
                    future.set_result(result)
            del future, fn, args, kwargs
            self._idle.release()


WORKERS = DaemonWorkers()
os.register_at_fork(after_in_child=WORKERS._reset)
