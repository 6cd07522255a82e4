"""Spellchrome rule options: every ruling of ``rules/spellchrome.md``, the seed's "the GM may" switches, and
the rulings this implementation had to add (``SC-R*``, see ``docs/spellchrome.md``), with their defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

from affray.core.options import option


@dataclass(frozen=True, slots=True)
class SpellchromeOptions:
    # -- SC-B1: the SRD-standard assumption for attacks -----------------------------------------------
    natural_attack_rolls: bool = option(
        True, rule="SC-B1", doc="SRD-standard assumption: a natural 1 always misses and a natural 20 always hits."
    )
    critical_multiplier: int = option(
        1,
        low=1,
        high=10,
        rule="SC-B1",
        doc="SRD-standard assumption: damage multiplier on a natural 20 (1 = no criticals until the source is found).",
    )
    ability_modifier: str = option(
        "srd",
        rule="SC-B2",
        choices=("srd", "toward_zero"),
        doc="Ability modifier: ⌊(score − 10)/2⌋ (d20 SRD), or the same rounded toward zero.",
    )
    # -- dying and stabilising ---------------------------------------------------------------------------
    dying_loss_in_first_round: bool = option(
        True, rule="SC-B3", doc="A dying character loses 1d4 at the end of the round in which it dropped too."
    )
    dying_after_the_fight: bool = option(
        True,
        rule="SC-04",
        doc="A fight that ends with someone dying goes on round by round until each dying "
        "character is dead or stable (SC-04: 'This continues until the character dies or "
        "becomes stable'): no more blows, but first aid and healing. Off: the fight ends "
        "at the last blow and the dying stay dying.",
    )
    first_stabilise_check: str = option(
        "next_round",
        rule="SC-B3",
        choices=("next_round", "next_turn"),
        doc="When the DC 22 save starts: at the start of its own turn from the round after it dropped "
        "(ruling), or at its very next turn, even later in the same round.",
    )
    nonlethal_overkill_kills: bool = option(
        True, rule="SC-B4", doc="A non-lethal blow that takes the target to −30 or lower still kills it."
    )
    stabilise_is_save: bool = option(
        True,
        rule="SC-B5",
        doc="The DC 22 Fortitude check is a save: d20 + base Fort + Con, natural 1 fails, natural 20 succeeds.",
    )
    reduction_before_ex_hp: bool = option(
        True,
        rule="SC-B6",
        doc="Damage order: deflection affects the hit, then damage reduction, then EX-HP, then "
        "HP. False: EX-HP absorbs the raw damage and reduction applies to the rest.",
    )
    nonlethal_unarmed: bool = option(
        False,
        rule="SC-11",
        doc="The GM's non-lethal option: unarmed blows that leave the target at −1..−29 "
        "only knock it out (it is stable at once).",
    )
    failed_treatment_waits: bool = option(
        False,
        rule="SC-08",
        doc="A failed treat-injury check also makes the patient wait 24 h. Off (the seed): "
        "only a treatment that heals does ('24 hours before they can be healed again').",
    )
    knockout_damage: str = option(
        "weapon",
        rule="SC-10",
        choices=("weapon", "d4"),
        doc="A knockout blow's lethal damage: 'weapon', the blunt weapon's own dice + Str modifier (dice smaller "
        "than a d4 roll 1d4: 'the minimum damage from any blunt object is 1d4'), at least 1; 'd4': always 1d4.",
    )
    damage_wakes_the_stable: bool = option(
        True, rule="SC-R5", doc="A stable character who takes damage is dying again (SRD standard)."
    )
    nonlethal_spares_only_the_conscious: bool = option(
        True,
        rule="SC-B11",
        doc="With nonlethal_unarmed, only a blow on a conscious target (1 HP or more, not "
        "knocked out) is a knock-out: a blow on one already dying, stable below 0 or "
        "unconscious is lethal damage as usual: it does not stabilise it, and a dying "
        "target keeps losing HP at the round's end. Off: such a blow leaves it stable.",
    )
    # -- initiative and the round --------------------------------------------------------------------------
    reroll_initiative_each_round: bool = option(
        False, rule="SC-16", doc="Re-roll initiative every round instead of keeping it for the fight."
    )
    surprise_on_reroll: bool = option(
        False,
        rule="SC-16",
        doc="With re-rolled initiative, the aware side's surprise bonus counts on every "
        "round's roll. Off: only on the first roll, before the fight (surprise is over "
        "once both sides are fighting).",
    )
    five_foot_step: str = option(
        "seed",
        rule="SC-21",
        choices=("seed", "srd"),
        doc="'seed': a 5-foot step needs the move action spent without moving (a full-round action, a draw) "
        "or spends the unused move action; 'srd': any turn without other movement.",
    )
    running: bool = option(True, rule="SC-18", doc="Allow the Run full-round action (2 moves + ⌊Run/5⌋ squares).")
    tumble_dc: int = option(
        25,
        low=1,
        high=100,
        rule="SC-R1",
        doc="Acrobatics and Tumbling DC to tumble through an opponent's square (trained only; "
        "a tumbling move goes at half speed).",
    )
    withdraw_minimum_square: bool = option(
        True,
        rule="SC-B10",
        doc="A withdraw always reaches one adjacent square it may enter, whatever its terrain "
        "costs (SC-19's 'minimum 5 feet'): a '~' or '^' square dearer than the withdraw's "
        "distance takes all of it, as a '%' square does; beyond the first square terrain "
        "costs count as usual (SC-20). Off: a first square dearer than the withdraw's "
        "distance cannot be entered.",
    )
    surrendered_in_the_way: bool = option(
        True,
        rule="SC-B12",
        doc="A combatant who surrendered is not helpless (it is conscious, in its square): "
        "no move ends on its square, and its opponents may not pass through it, as if it "
        "stood (SC-24). Off: it may be passed and stood on like the helpless.",
    )
    # -- attacks of opportunity -----------------------------------------------------------------------------
    aoo_refresh: str = option(
        "own_turn",
        rule="SC-B7",
        choices=("own_turn", "round_start"),
        doc="When the one attack of opportunity per round comes back: at the start of the character's own "
        "turn (d20 SRD, ruling) or at the start of each round.",
    )
    failed_concentration_provokes: str = option(
        "after_spell",
        rule="SC-B7",
        choices=("after_spell", "before_spell"),
        doc="A failed Concentration check provokes after the spell resolves (ruling) or before it.",
    )
    ranged_provokes_when: str = option(
        "target_adjacent",
        rule="SC-R6",
        choices=("target_adjacent", "any_adjacent"),
        doc="SC-27 (d): a ranged attack provokes when its target is an adjacent melee-armed foe (seed), or "
        "whenever any melee-armed foe is adjacent (d20 SRD).",
    )
    # -- behaviour of monsters and NPCs ----------------------------------------------------------------------
    monsters_finish_the_dying: bool = option(
        False, rule="SC-R7", doc="Monsters attack helpless (unconscious, dying) foes while others still stand."
    )
    npcs_may_give_up: bool = option(True, rule="SC-02", doc="NPCs and monsters may give up (surrender).")
    round_limit: int = option(
        100, low=1, high=10000, rule="engine", doc="Rounds after which an unfinished fight is a draw."
    )
