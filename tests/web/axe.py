"""axe-core in a Playwright page: the accessibility rules a page breaks (tests/web/test_axe.py).

axe-core is the npm package at the version the Makefile pins, installed into build/axe by ``make axe`` (``make test``
runs it); the tests never fetch it. It is injected through the DevTools protocol (``page.evaluate``), which the
pages' Content-Security-Policy (``script-src 'self'``) does not govern, so the pages are checked under their own
headers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).parents[2] / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts a page may not have: every one but "minor".
SERIOUS = ("moderate", "serious", "critical")

_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")}: ${n.failureSummary.replace(/\\s+/g, " ")}`) }));
}"""


def axe_source() -> str:
    """axe.min.js, or a failure (never a skip) that says how to install it."""
    if not AXE.exists():
        pytest.fail(f"The accessibility tests need axe-core in {AXE.parent}: run 'make axe' (it needs npm).")
    return AXE.read_text(encoding="utf-8")


def violations(page: Any, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """The axe-core violations on ``page`` as it is now, of the given impacts: each its rule ``id``, ``impact``,
    ``help`` and up to four ``nodes`` (the element's selector and why it fails)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate(_RUN)
    return [v for v in found if v["impact"] in impacts]
