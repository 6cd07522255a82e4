"""Reinforcements on a WitchHammer fight (the ``add`` change, :class:`affray.core.adjust.Joiner`): a combatant joins
a side on a free square and arrives at the next vignette. ``docs/witchhammer.md``, "Reinforcements", is the table's
version.

The rules play a fight in vignettes, each a Psych, a Planning and a Violence phase played by everyone who was there
when it began (WH-01..WH-04); they are silent on a combatant who comes mid-vignette. By the rule option "joiners next
vignette" it stands on its square from the ruling (nobody may enter it: WH-B13) but is not yet in the fight
(``out`` :data:`~.state.ARRIVING`: no card, no turn, no blow given or taken, not counted for a side still standing,
WH-01) until the next vignette begins (:func:`.planning.new_hands`), when its hand is dealt as every hand is (WH-04,
WH-B19: the whole deck, so no die is drawn) and it takes part from that vignette's Psych or Planning on. Its deck is
its entry's (the cards its sheet learned or its monster holds: WH-B18), which must be cards this fight already has; a
PC joins without the General school's cards that ``general_school_deck: all`` gives the PCs at setup.
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.engine import Rejected
from affray.core.json import Json
from affray.rulesets.witchhammer import targeting
from affray.rulesets.witchhammer.mechanics import malus_table
from affray.rulesets.witchhammer.setup import FACINGS, CombatantSetup
from affray.rulesets.witchhammer.state import ARRIVING, Fighter, WitchHammerState


def build_fighter(entry: Mapping[str, Json], side: str, state: WitchHammerState) -> Fighter | Rejected:
    """The fighter of a resolved setup entry (as :mod:`.setup` builds one), arriving (:data:`ARRIVING`), its hand
    empty for the vignette in progress; ``bad_combatant`` when the entry is not a WitchHammer combatant or its deck
    holds a card this fight does not have."""
    c: CombatantSetup = {**entry, "side": side}  # type: ignore[typeddict-item]
    try:
        poise = c["poise"] if c["start_poise"] is None else min(c["start_poise"], c["poise"])
        health = c["health"] if c["start_health"] is None else min(c["start_health"], c["health"])
        f = Fighter(
            c["id"],
            c["name"],
            side,
            c["kind"],
            len(state.fighters),  # after everyone already there (WH-B13's stable order)
            c["size"],
            c["poise"],
            poise,
            c["health"],
            health,
            c["attack"],
            c["defense"],
            c["init"],
            c["solid_damage"],
            c["move"],
            dict(c["defenses"]),
            dict(c["skills"]),
            malus_table(c["health"]),
            (int(c["at"][0]), int(c["at"][1])),
            FACINGS.get(c["facing"] or "", (0, 0)),
            dict(c["deck"]),
            ARRIVING,
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return Rejected("bad_combatant", f"The combatant added is not a WitchHammer combatant (field {exc}).")
    missing = sorted(card for card in f.deck if card not in state.cards)
    if missing:
        return Rejected(
            "bad_combatant",
            f"add.deck: cards this fight has (it has no {', '.join(missing)}): a newcomer plays the fight's cards.",
        )
    f.ready = True  # it chooses nothing in the vignette in progress
    return f


def place(state: WitchHammerState, f: Fighter) -> None:
    """Put ``f`` in the fight's combatants on its square, facing the nearest foe unless its entry says (WH-B14)."""
    state.fighters[f.id] = f
    if f.facing == (0, 0):
        targeting.face_nearest_enemy(state, f)
    state.board += 1  # the board changed: views built from the old one are stale
