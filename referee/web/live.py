"""Live updates for every connected display: the newest view, computed once per change.

A slow phone never holds the referee back: each client keeps only the newest version number
it has not sent yet (a queue of one), and the view for a version is built once for all.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any


class Hub:
    def __init__(self, make_view: Callable[[], dict[str, Any]]) -> None:
        self._make_view = make_view
        self.version = 0
        self._cached: tuple[int, str] | None = None
        self._clients: set[asyncio.Queue[int]] = set()
        self.closed = False

    def publish(self) -> None:
        """Something changed; may be called from the event loop's thread only."""
        self.version += 1
        for queue in self._clients:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(self.version)

    def current_json(self) -> str:
        if self._cached is None or self._cached[0] != self.version:
            view = self._make_view()
            view["version"] = self.version
            self._cached = (self.version, json.dumps(view, ensure_ascii=False))
        return self._cached[1]

    def close(self) -> None:
        """End every stream (the daemon is stopping): a version of -1 tells a stream to finish."""
        self.closed = True
        for queue in self._clients:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(-1)

    @property
    def clients(self) -> int:
        return len(self._clients)

    async def stream(self, keepalive_s: float = 15.0) -> AsyncIterator[str]:
        """Server-sent events: the current view at once, then each newer one."""
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._clients.add(queue)
        try:
            yield f"data: {self.current_json()}\n\n"
            while not self.closed:
                try:
                    if await asyncio.wait_for(queue.get(), keepalive_s) < 0:
                        return
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                yield f"data: {self.current_json()}\n\n"
        finally:
            self._clients.discard(queue)
