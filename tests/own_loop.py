"""Run a coroutine on a fresh event loop in its own thread.

Playwright's sync API (the browser tests) may hold the test thread's event loop for the rest of
the session, and `asyncio.run` refuses to start inside a running loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_own_loop(coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
    results: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(asyncio.run(coro))
        except BaseException as exc:  # handed back to the test's thread
            errors.append(exc)

    worker = threading.Thread(target=target, name="own-loop")
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise TimeoutError(f"the coroutine did not finish within {timeout} s")
    if errors:
        raise errors[0]
    return results[0]
