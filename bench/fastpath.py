"""What several benches share: the fast path's rate on one scenario file (``sim/fast.py``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import affray
from affray.ai.base import get_policy
from affray.core.options import parse_options
from affray.sim.fast import play_fast
from affray.sim.session import spec_for


def fast_fights(path: Path, n: int) -> float:
    """Fights per second of ``n`` fights of the scenario at ``path`` on the fast path (seeds 0 to n - 1, its own
    policies, one shared setup store, as ``affray sim`` plays them)."""
    scenario = affray.load_scenario(path)
    spec, _ = spec_for(scenario, {}, 0, None)
    policies = {actor: get_policy(spec.ruleset, name) for actor, name in spec.policies.items()}
    options = parse_options(scenario.ruleset.options_type, scenario.options)
    shared: dict[Any, Any] = {}
    start = time.perf_counter()
    for i in range(n):
        play_fast(scenario.ruleset, scenario.setup, options, policies, i, shared=shared)
    return n / (time.perf_counter() - start)
