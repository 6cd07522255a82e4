"""Where chunks run: this process, a local process pool, or a Dask cluster — one Executor interface.

``--scheduler ADDRESS`` (or the ``DASK_SCHEDULER_ADDRESS`` environment variable) sends chunks to a Dask
``distributed`` scheduler; Dask is an optional extra (``pip install 'affray[dask]'``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager


class ExecutorError(RuntimeError):
    """No executor can be made as asked (e.g. Dask requested but not installed)."""


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


@contextmanager
def executor_for(workers: int | None, scheduler: str | None = None) -> Iterator[Executor | None]:
    """An executor for ``workers`` local processes (``None``: in this process), or for a Dask scheduler."""
    address = scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if address:
        try:
            from distributed import Client
        except ImportError:
            raise ExecutorError(
                "a Dask scheduler was given but Dask is not installed: pip install 'affray[dask]'"
            ) from None
        try:
            client = Client(address, timeout="5s")
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise ExecutorError(
                f"cannot reach the Dask scheduler at {address!r} ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else 'no answer'})"
            ) from None
        try:
            yield client.get_executor()
        finally:
            client.close()
        return
    count = default_workers() if workers is None else workers
    if count < 1:
        raise ExecutorError(f"--workers must be at least 1 (got {count})")
    if count <= 1:
        yield None
        return
    pool = ProcessPoolExecutor(max_workers=count)
    try:
        yield pool
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
