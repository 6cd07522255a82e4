"""The in-world HuD's tests run its LSL through ``lummao`` (a test-only dependency: GPL-3, never imported by src/)."""

from __future__ import annotations

import pytest

pytest.importorskip("lummao", reason="lummao (the dev extra) runs the HuD's LSL")
