"""How much of a sweep the run takes: all of it in ``make test``, a fixed sample in ``make test-quick``.

A sweep is a test run over every example scenario (the conformance suite, the API's secrets test, the fast path's
differential test...) or over many rounds of one thing. ``make test`` runs every case and round, always. ``make
test-quick``, the inner loop, sets ``AFFRAY_QUICK=1``; then :func:`sample` keeps, of each ruleset's cases in their
sorted order, the first and every :data:`EVERY`-th after it (so each ruleset is still swept, by a third of its
examples), and :func:`rounds` gives the quick count. The sample is fixed, not random, so that a quick run that fails
fails again the same way; the cases it leaves out are exactly those of ``make test`` that the sample skips.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

QUICK = os.environ.get("AFFRAY_QUICK") == "1"
EVERY = 3

_EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def ruleset_of(case: object) -> str:
    """The group a case belongs to: the first folder of an example's path under examples/ (its ruleset), or the
    case itself (the toy ruleset's name, a string id)."""
    text = str(case)
    with contextlib.suppress(ValueError):  # not a path under examples/: the case names its group itself
        text = str(Path(text).resolve().relative_to(_EXAMPLES))
    return text.replace("\\", "/").split("/", 1)[0]


def sample(cases: Iterable[T], group: Callable[[T], str] | None = None, quick: bool | None = None) -> list[T]:
    """Every case (``make test``), or in a quick run the first of each group (default: :func:`ruleset_of`) and every
    :data:`EVERY`-th after it, in the order given."""
    cases = list(cases)
    group_of: Callable[[T], str] = ruleset_of if group is None else group
    if not (QUICK if quick is None else quick):
        return cases
    seen: dict[str, int] = {}
    kept = []
    for case in cases:
        name = group_of(case)
        index = seen[name] = seen.get(name, -1) + 1
        if index % EVERY == 0:
            kept.append(case)
    return kept


def rounds(full: int, quick: int) -> int:
    """How many rounds a repeated test runs: ``full`` in ``make test``, ``quick`` in ``make test-quick``."""
    return quick if QUICK else full
