"""Waiting for a condition with a deadline: the one polling loop of the suite (servers starting, a table moving, a
socket's close reaching the server, a page catching up).

A condition is polled, never slept for: the first checks come 2 ms apart, and the gap doubles up to 50 ms, so that
what happens at once (a click's answer, a local server's start) is seen at once, and what takes seconds (a
PostgreSQL start) is not polled a thousand times. Every wait is bounded and says what it waited for.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

FIRST_GAP = 0.002
LONGEST_GAP = 0.05


def until(condition: Callable[[], T], timeout: float, ignoring: tuple[type[BaseException], ...] = ()) -> T | None:
    """``condition()``'s first truthy value within ``timeout`` seconds, or None. An exception of a type in
    ``ignoring`` counts as not yet (a server that does not accept connections yet); any other goes up."""
    deadline = time.monotonic() + timeout
    gap = FIRST_GAP
    while True:
        try:
            value = condition()
        except ignoring:
            value = None
        if value:
            return value
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        time.sleep(min(gap, left))
        gap = min(gap * 2, LONGEST_GAP)


def wait_for(
    condition: Callable[[], T],
    timeout: float = 10.0,
    what: str = "a condition",
    ignoring: tuple[type[BaseException], ...] = (),
) -> T:
    """Like :func:`until`, but a timeout fails the test with a sentence naming ``what``."""
    value = until(condition, timeout, ignoring)
    if not value:
        raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
    return value


def lines_of(stream: Iterable[str]) -> queue.SimpleQueue[str]:
    """The lines of ``stream`` (a child's stdout), read by a daemon thread into a queue, so that a wait for the next
    line (``get(timeout=...)``) stays bounded even if the child hangs without a word."""
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()

    def read() -> None:
        for line in stream:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines
