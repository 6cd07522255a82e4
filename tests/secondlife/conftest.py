"""The in-world HuD's fights run its LSL through ``lummao`` (the dev extra; GPL-3, so a test-only dependency, never
imported by src/). Without it they are left out; the protocol's own tests (test_protocol.py) still run."""

from __future__ import annotations

import importlib.util

collect_ignore = [] if importlib.util.find_spec("lummao") else ["test_hud_fights.py", "harness.py"]
