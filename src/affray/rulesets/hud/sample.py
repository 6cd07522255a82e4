"""Drawing Sim HuD states for a seat: the ruleset's :class:`~affray.core.plugin.Sampler` (the ``search`` policy's
look-ahead, :mod:`affray.ai.search`).

The HuD declares everything in the open (WL-09): no face-down choice and no GM-level number
(``HudRuleset.secrets`` and ``gm_secrets`` are empty), so a seat may know the whole state. Its knowledge is the
state its observation reads, kept as bytes (:class:`~affray.core.plugin.Frozen`), and every draw is a fresh copy of
it: nothing is hidden, so nothing is drawn, and the search plays on from the very position.
"""

from __future__ import annotations

from affray.core.plugin import Drawn, Frozen, Sampler
from affray.core.policy import Observation
from affray.core.rng import RNG
from affray.rulesets.hud.observe import HudObservation
from affray.rulesets.hud.state import HudState


def known(seen: Observation) -> Frozen[HudState]:
    """What the seat of ``seen`` knows: the whole state (nothing in the HuD is hidden from any seat)."""
    if not isinstance(seen, HudObservation):
        raise TypeError(f"the HuD sampler reads a HuD observation, not {type(seen).__name__}")
    state = seen._state  # the ruleset's own observation: every seat may see all of it (WL-09)
    return Frozen(state, (state.options,))


def draw(knowledge: Frozen[HudState], rng: RNG) -> Drawn:
    """A fresh copy of the known state (``rng`` is not used: nothing is hidden)."""
    return Drawn(knowledge.copy())


SAMPLER = Sampler(known, draw)
