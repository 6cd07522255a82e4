"""WitchHammer rule options: every ruling of ``rules/witchhammer.md`` with its documented default (contract 8).

Rulings the spec gives an ID (WH-Bn) keep it; rulings this implementation had to add where neither the seed
nor the spec decides are marked ``WH-An`` and listed in ``docs/witchhammer.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from affray.core.options import option


@dataclass(frozen=True, slots=True)
class WitchHammerOptions:
    penetration: str = option(
        "within",
        rule="WH-B3",
        choices=("within", "extra"),
        doc="'within': the tens digit of the damage goes to Health and only the rest through Poise (12 = 1 to "
        "Health + 11 through Poise); 'extra': the tens digit is added on top (12 = 1 + 12).",
    )
    clamp_margin: bool = option(
        False, rule="WH-B2", doc="Clamp Attack - Defense at 0 before the d20 is added (the ruling never clamps)."
    )
    crit_wound: str = option(
        "always",
        rule="WH-B4",
        choices=("always", "on_hit"),
        doc="A natural 20 on an attack deals its bonus Wound straight to Health even on a miss ('always'), "
        "or only when the attack hits ('on_hit').",
    )
    solid_hit_on: str = option(
        "base",
        rule="WH-B5",
        choices=("base", "total"),
        doc="Decide a Solid Hit on the base damage (value - 10) before bonuses ('base'), or on the total.",
    )
    malus_applies_to_monsters: bool = option(True, rule="WH-B6", doc="Monsters suffer the Health-loss Malus like PCs.")
    crit_scope: str = option(
        "checks",
        rule="WH-B7",
        choices=("checks", "attacks", "every_d20"),
        doc="Which d20 rolls get +10 on a natural 20 and -10 on a natural 1: attacks, saves and skill checks "
        "('checks'); attacks only; or every d20 including the affliction roll.",
    )
    deaths_door_malus: bool = option(
        False, rule="WH-B8", doc="Apply the Health-loss Malus to the death's-door save (the ruling does not)."
    )
    deaths_door_failure: str = option(
        "dies",
        rule="WH-B8",
        choices=("dies", "gm_decides"),
        doc="A failed death's-door save kills the PC ('dies'), or the GM rules on each failure ('gm_decides').",
    )
    monster_at_zero: str = option(
        "removed",
        rule="WH-B9",
        choices=("removed", "stays_down"),
        doc="A monster at 0 Health or less is defeated and taken off the map ('removed'), or lies where it fell "
        "and still blocks its square ('stays_down'). Neither makes a death's-door save.",
    )
    poise_reset_after_combat: bool = option(
        True, rule="WH-B10", doc="Poise goes back to max when the combat ends (it carries over between vignettes)."
    )
    tick_when_stunned: bool = option(
        True,
        rule="WH-B11",
        doc="Ongoing effects tick at a character's slot in initiative order even when it is "
        "stunned or its card fizzles.",
    )
    initiative_ties: str = option(
        "base_then_pcs",
        rule="WH-B12",
        choices=("base_then_pcs", "roll_off"),
        doc="After Init and current Poise: higher base Init, then PCs before monsters, then a seeded d20 "
        "roll-off ('base_then_pcs'); or go straight to the roll-off.",
    )
    facing: str = option(
        "last_move",
        rule="WH-B14",
        choices=("last_move", "none"),
        doc="A combatant faces its last move step, or its last attack target if it did not move ('last_move'); "
        "'none' turns the from-behind bonus off.",
    )
    flank_mode: str = option(
        "sides",
        rule="WH-B15",
        choices=("sides", "opposite"),
        doc="Two attackers flank when their N/E/S/W side sets relative to the target are disjoint ('sides'), or "
        "only when their offset vectors point apart, a negative dot product ('opposite').",
    )
    halve_rounding: str = option(
        "floor",
        rule="WH-B16",
        choices=("floor", "toward_zero"),
        doc="How non-melee attacks halve the normal Defense: floor division toward minus infinity (ruling) or "
        "toward zero.",
    )
    default_card: str = option("hesitate", rule="WH-B18", doc="The card played in a slot left empty (content id).")
    planning_withdraw: bool = option(
        True,
        rule="WH-03",
        doc="In the Planning phase a combatant not yet ready may take back its last card still face down "
        "({'type': 'withdraw', 'slot': N}); the card returns to the hand (a ruling: the rules are silent).",
    )
    drama_timer: bool = option(
        False,
        rule="WH-B20",
        doc="Put the Planning phase on a real-time clock. The table enforces it and the GM "
        "submits {'type': 'timeout'}; unfilled slots get the default card.",
    )
    drama_timer_seconds: int = option(
        90,
        low=1,
        high=3600,
        rule="WH-B20",
        doc="The Drama Timer's limit in seconds, carried in the match state for the table.",
    )
    target_lock: str = option(
        "turn",
        rule="WH-A1",
        choices=("turn", "reveal"),
        doc="When a card's target selector ('nearest enemy') picks its enemy: at the start of the card's turn, "
        "shared by its move and attack; or at the reveal, so a foe that moves away first can dodge it.",
    )
    initiative_updates: str = option(
        "fixed",
        rule="WH-A2",
        choices=("fixed", "live"),
        doc="The order is fixed at the reveal ('fixed'), or re-sorted after each card as wounds change the "
        "Malus ('live').",
    )
    flank_partner: str = option(
        "adjacent",
        rule="WH-A3",
        choices=("adjacent", "attacking"),
        doc="The second flanker is any ally adjacent to the target who can act ('adjacent'), or only one whose "
        "card this round has an attack ('attacking').",
    )
    difficult_terrain: bool = option(
        True,
        rule="WH-A4",
        doc="Entering '~' costs 2 squares of a move and '^' costs 3 (the shared grid, X-3), "
        "and '%' the whole move (SC-20's 5 ft per move action); a step that costs more "
        "than is left ends the move.",
    )
    general_school_deck: str = option(
        "learned",
        rule="WH-A5",
        choices=("learned", "all"),
        doc="A PC's deck holds only the techniques it learned, General ones included ('learned': WH-34, knowing a "
        "school only makes its techniques available), or every General Combat School card on top for quick "
        "play ('all').",
    )
    status_stacking: str = option(
        "refresh",
        rule="WH-A7",
        choices=("refresh", "stack"),
        doc="A status applied again keeps one copy with the longer duration ('refresh'), or adds a second copy.",
    )
    vignette_limit: int = option(
        40, low=1, high=1000, rule="engine", doc="Vignettes after which an unfinished fight is a draw."
    )
