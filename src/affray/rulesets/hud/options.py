"""Sim HuD rule options: every ruling of ``rules/hud.md`` with its documented default (contract 8)."""

from __future__ import annotations

from dataclasses import dataclass

from affray.core.options import option


@dataclass(frozen=True, slots=True)
class HudOptions:
    zero_based_dice: bool = option(
        False,
        rule="WL-B1",
        doc="Show dice as 0..N-1 like some Second Life scripts instead of 1..N. Every HuD roll is opposed, "
        "so this changes the numbers shown, never an outcome.",
    )
    riposte_margin: int = option(
        6, low=0, high=26, rule="WL-B3", doc="Defense - Attack needed for a riposte (and for a counter-riposte)."
    )
    charge_bonus_to: str = option(
        "damage",
        rule="WL-B4",
        choices=("damage", "injury"),
        doc="Where the charge's +2 goes: the charger's Damage roll for that blow (ruling), or the seed's "
        "literal 'INJURY roll' (the charger's own Injury rolls that round).",
    )
    riposte_costs_defense: bool = option(
        True,
        rule="WL-B5",
        doc="Defending against a riposte uses one of the original attacker's remaining defense actions "
        "(with none left the riposte is undefended). False: that defense is free.",
    )
    max_additional_actions: int = option(
        1,
        low=0,
        high=10,
        rule="WL-B6",
        doc="Additional actions a combatant may take per round (declared or emergency).",
    )
    action_order: str = option(
        "declared",
        rule="WL-B7",
        choices=("declared", "interleave"),
        doc="'declared': each combatant performs all its non-defense actions on its initiative step; "
        "'interleave': one action per combatant per pass, highest initiative first.",
    )
    initiative_ties: str = option(
        "reroll",
        rule="WL-B8",
        choices=("reroll", "file_order"),
        doc="Tied Chance rolls: re-roll among the tied (ruling), or keep the scenario's order.",
    )
    pursuit_start_gap: int = option(
        0, low=0, high=1000, rule="WL-B9", doc="Pursuit gap in metres when a disengage starts."
    )
    pursuit_catch_gap: int = option(
        2,
        low=0,
        high=1000,
        rule="WL-B9",
        doc="A gap of this many metres or less ends the pursuit: back in combat, pursuers holding initiative.",
    )
    pursuit_escape_gap: int = option(
        15, low=1, high=1000, rule="WL-B9", doc="A gap beyond this many metres means escaped."
    )
    pursuit_shots_defended: bool = option(
        True, rule="WL-B9", doc="The fleeing target defends against a ranged pursuer's two shots."
    )
    disengage_forfeits_follow_up: bool = option(
        True, rule="WL-B10", doc="A disengage gives up the exchange's follow-up (the Damage phase or a riposte)."
    )
    additional_penalty_scope: str = option(
        "all",
        rule="WL-B11",
        choices=("all", "attack_defense"),
        doc="Rolls the additional-action -2 applies to: Attack, Defense, Damage, Injury and pursuit "
        "Chance (ruling), or Attack and Defense only.",
    )
    free_move_metres: int = option(
        10,
        rule="WL-B13",
        doc="A scenario distance in metres up to this is 'near' (the free move closes it: WL-10's about 10 m); "
        "beyond it is 'far', reached only by a charge. Up to pursuit_catch_gap metres is 'engaged'.",
    )
    emergency_actions: str = option(
        "any",
        rule="WL-17",
        choices=("any", "defense"),
        doc="What an emergency additional action may be: 'any' (an attack or a complex activity at the "
        "combatant's initiative step, or a defense when none is left; the seed's 'at any time in the "
        "round'), or 'defense' only.",
    )
    emergency_rearm_draw_cost: bool = option(
        True,
        rule="WL-B15",
        doc="An emergency rearm drops the weapon in hand for free but still pays the draw's WL-20 cost (a bow, a "
        "two-handed weapon in a sheath... cost an action), so it is never cheaper than drawing into a free "
        "hand. False: always free (the literal text of WL-19).",
    )
    default_actions_per_round: int = option(
        2, low=1, high=10, rule="WL-B12", doc="Actions per round of a combatant whose content does not say."
    )
    simplified_hp: int = option(
        3, low=1, high=100, rule="WL-04", doc="Hit points of everyone in Dice Simplified and Free Form."
    )
    round_limit: int = option(
        200,
        low=1,
        high=10000,
        rule="engine",
        doc="Rounds (or posts in Free Form) after which an unfinished fight is a draw.",
    )
