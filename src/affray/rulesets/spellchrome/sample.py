"""Drawing Spellchrome states for a seat: the ruleset's :class:`~affray.core.plugin.Sampler` (the ``search``
policy's look-ahead, :mod:`affray.ai.search`).

Every Spellchrome action is public and no number is GM-level (``SpellchromeRuleset.secrets`` and ``gm_secrets`` are
empty), so a seat may know the whole state. Its knowledge is the state its observation reads, kept as bytes
(:class:`~affray.core.plugin.Frozen`, the options and the map shared), and every draw is a fresh copy of it:
nothing is hidden, so nothing is drawn, and the search plays on from the very position.
"""

from __future__ import annotations

from affray.core.plugin import Drawn, Frozen, Sampler
from affray.core.policy import Observation
from affray.core.rng import RNG
from affray.rulesets.spellchrome.observe import SpellchromeObservation
from affray.rulesets.spellchrome.state import SpellchromeState


def known(seen: Observation) -> Frozen[SpellchromeState]:
    """What the seat of ``seen`` knows: the whole state (nothing in Spellchrome is hidden from any seat)."""
    if not isinstance(seen, SpellchromeObservation):
        raise TypeError(f"the Spellchrome sampler reads a Spellchrome observation, not {type(seen).__name__}")
    state = seen._state  # the ruleset's own observation: every seat may see all of it
    return Frozen(state, (state.options, state.grid))


def draw(knowledge: Frozen[SpellchromeState], rng: RNG) -> Drawn:
    """A fresh copy of the known state (``rng`` is not used: nothing is hidden)."""
    return Drawn(knowledge.copy())


SAMPLER = Sampler(known, draw)
