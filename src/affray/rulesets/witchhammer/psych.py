"""The Psych reveal, which no order decides: neither the order the cards resolve in nor which side a scenario
lists first changes its result.

Rules: WH-02 (the Psych cards turn over together; "resolve them in any order you want"), WH-B24 (the ruling):

- Every Psych card resolves against the combatants **as they stood when the cards were revealed**: its saves and
  checks read the Defenses, skills, statuses and Malus of that moment, its selectors and groups the positions,
  Poise and Health of that moment, and every combatant up at the reveal plays its card and can be named by one.
- What each card starts, its ``effect``, ``recover`` and ``damage`` nodes, is **held** (:class:`.effects.Held`)
  and takes effect once all of them have resolved. So a brace (Steel Yourself's +2 Fear Defense) does not count
  against a Fear save of the same Psych phase, on either side.
- The held writes then land in an order no listing decides: Poise recovered first (so a recovery tops up the
  Poise its recipient had at the reveal, and "cannot regain Poise" is the block in force at the reveal, since no
  status has started yet), then damage, then statuses; within each, by the id of the combatant who played the
  card, a card's own writes in the card's order. Recoveries add up to the same Poise in any order, and so do the
  statuses' modifiers; the order only names which card's events come first, and which damage lands first.

The dice are still drawn in the order of the combatants (the Psych cards resolve in that order): a deterministic
order, which decides only which die goes to which save, never what a save is against.
"""

from __future__ import annotations

from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.witchhammer import nodes, violence
from affray.rulesets.witchhammer.effects import Held, Turn
from affray.rulesets.witchhammer.state import CardDef, Fighter, WitchHammerState

#: The order the kinds of held writes land in (WH-B24): Poise recovered, damage, then statuses.
LANDING = {"recover": 0, "damage": 1, "effect": 2}


def reveal(state: WitchHammerState, rng: RNG, journal: Journal) -> None:
    """Turn over every Psych card of a combatant still up, resolve each against the combatants as they stood, then
    land what they started (WH-02, WH-B24)."""
    # A selector picks at this reveal, never by a lock left from the last round of the previous vignette (WH-A1).
    state.targets.clear()
    played: list[tuple[Fighter, CardDef]] = []
    for f in state.fighters.values():
        if f.psych is not None and f.up:
            card = violence.reveal(state, f, 0, journal)
            f.psych_card = card.id
            played.append((f, card))
    held: list[Held] = []
    for f, card in played:
        nodes.run(state, Turn(f, card.name, rng, journal, held=held), card.below)
    land(state, held, rng, journal)


def land(state: WitchHammerState, held: list[Held], rng: RNG, journal: Journal) -> None:
    """What the Psych cards started takes effect, in the order of :data:`LANDING`, then by who played the card (a
    stable sort: one card's writes keep its order). Rule: WH-B24."""
    for h in sorted(held, key=lambda h: (LANDING[h.node["type"]], h.by)):
        nodes.write(state, h.node, h.to, h.card, rng, journal)
