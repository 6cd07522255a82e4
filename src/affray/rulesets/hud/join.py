"""Reinforcements on a Sim HuD fight (the ``add`` change, :class:`affray.core.adjust.Joiner`): a combatant joins a
side from the next round. ``docs/hud.md``, "Reinforcements", is the table's version.

The rules are silent on a combatant who comes mid-fight; by the rule option "joiners next round":

- **Combat Nerdified**: it stands at the place the GM chose from the list the GM's tools offer for a move (a place
  where someone in the fight stands, engaging them, or a place of its own near or far: WL-B13) and takes no part in
  the round under way (it is in no declaration, no initiative and no action queue of it); the next round rolls its
  initiative with everyone's (WL-09: :func:`.nerdified.start_round`) and it declares from then on.
- **Dice Simplified** and **Free Form**: it takes its place in the post order (WL-05, WL-00) just before the
  combatant whose turn it is, so its first turn (or post) comes in the next round, after every other combatant's.

No die is drawn when it joins: ``affray verify`` replays it.
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.engine import Rejected
from affray.core.json import Json
from affray.rulesets.hud.setup import build_state
from affray.rulesets.hud.state import Fighter, HudState


def build_fighter(entry: Mapping[str, Json], side: str, state: HudState) -> Fighter | Rejected:
    """The fighter of a resolved setup entry, as :func:`.setup.build_state` builds one in this fight's mode;
    ``bad_combatant`` when the entry is not a HuD combatant."""
    setup = {"mode": state.mode, "combatants": [{**entry, "side": side}]}
    try:
        built, _ = build_state(setup, state.options)  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError) as exc:
        return Rejected("bad_combatant", f"The combatant added is not a Sim HuD combatant (field {exc}).")
    return next(iter(built.fighters.values()))


def enter_order(state: HudState, f: Fighter) -> None:
    """Dice Simplified and Free Form: ``f`` goes into the post order just before the combatant whose turn it is
    (its first turn comes in the next round); Combat Nerdified rolls it into the next round's order. Before the
    fight's first order is set, that order takes it with everyone."""
    if state.mode == "nerdified" or not state.order:
        return
    # a new list: the order's events (InitiativeSet) hold the old one, which must stay what they told
    state.order = [*state.order[: state.turn], f.id, *state.order[state.turn :]]
    state.turn += 1  # the turn under way stays its actor's
