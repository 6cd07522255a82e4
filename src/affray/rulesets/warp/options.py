"""WaRP rule options: every ruling of ``rules/warp.md`` with its documented default (contract 8).

``WR-B*`` are the spec's rulings; ``WR-NN`` are the seed's own GM options and optional rules; ``WR-X*``
are rulings this engine had to add where neither the seed nor the spec decides (see ``docs/warp.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from affray.core.options import option
from affray.rulesets.warp.mechanics import PACES


@dataclass(frozen=True, slots=True)
class WarpOptions:
    # -- the spec's rulings ---------------------------------------------------------------------------
    armour_bare_number: str = option(
        "dice",
        rule="WR-B1",
        choices=("dice", "points"),
        doc="An armour rating written as a bare number ('2') counts dice; 'N pt' is always flat points.",
    )
    cancel_bonus_penalty: bool = option(
        True,
        rule="WR-B2",
        doc="Bonus and penalty dice cancel one for one. False: throw both, drop the bonus count lowest "
        "and then the penalty count highest.",
    )
    layered_armour_penalty: str = option(
        "layers_plus_flagged",
        rule="WR-B3",
        choices=("layers_plus_flagged", "flagged_only"),
        doc="Penalty dice from armour: (layers - 1) + layers marked 'penalty', or only the marked layers.",
    )
    armour_after_factor: bool = option(
        True,
        rule="WR-B4",
        doc="Armour is subtracted after the damage factor. False: from the margin, before the factor.",
    )
    damage_rounding: str = option(
        "down",
        rule="WR-B5",
        choices=("down", "up"),
        doc="Rounding of special-effect half damage, the shotgun's 10 / distance dice and bullet-proof division.",
    )
    recovery_rounding: str = option(
        "up", rule="WR-B5", choices=("up", "down"), doc="Rounding of the post-fight recovery (the seed: up)."
    )
    bulletproof_gap: str = option(
        "all_ones",
        rule="WR-B6",
        choices=("all_ones", "any_one"),
        doc="When bullet-proof armour does nothing: every die shows 1, or any die shows 1.",
    )
    beyond_range: str = option(
        "refuse",
        rule="WR-B7",
        choices=("refuse", "extra_die"),
        doc="A shot past the fifth range column: refused as out of range, or allowed with one more "
        "distance die per doubling of the last threshold. The taser's cords always end at 5 m.",
    )
    initiative_ties: str = option(
        "pool_pc_rolloff",
        rule="WR-B8",
        choices=("pool_pc_rolloff", "rolloff"),
        doc="Tied initiative: the larger pool first, then PCs, then a seeded roll-off; or the roll-off alone.",
    )
    reroll_initiative_each_round: bool = option(
        False, rule="WR-B8", doc="Roll initiative every round instead of once per fight."
    )
    default_hp: int = option(
        21, low=1, high=1000, rule="WR-B9", doc="Hit points of a character whose sheet gives none (an ordinary adult)."
    )
    half_hp_is_messed_up: bool = option(
        True, rule="WR-B10", doc="Exactly half HP already counts as Messed Up (2 x HP <= max)."
    )
    minus_max_is_death: bool = option(
        True, rule="WR-B10", doc="Exactly -max HP is death. False: death only below -max."
    )
    predictable_repeats: bool = option(
        True,
        rule="WR-B11",
        doc="A PC repeating the same maneuver on the same target in consecutive rounds takes a penalty die.",
    )
    botch: bool = option(False, rule="WR-B12", doc="OtE 2e Botch: a roll whose kept dice all show 1 counts as 0.")
    blow_the_top_off: bool = option(
        False,
        rule="WR-B12",
        doc="OtE 2e Blowing the Top Off: kept dice all showing 6 add an extra d6 that keeps exploding.",
    )
    unstoppable_six: bool = option(
        False, rule="WR-B12", doc="OtE 2e Unstoppable Six: a kept 6 is announced (a narrative flag only)."
    )
    bonus_die_reading: str = option(
        "keep_best",
        rule="WR-B13",
        choices=("keep_best", "full_die"),
        doc="'2 dice + a bonus die' throws 3 and keeps the best 2; 'full_die' (a misreading kept for "
        "comparison) sums all 3.",
    )
    ranged_defense_reading: str = option(
        "factor_list",
        rule="WR-B14",
        choices=("factor_list",),
        doc="The seed's flattened ranged table is read as the list of defense factors of WR-14 (the only "
        "reading that adds up).",
    )
    trait_lock: str = option(
        "until_next_round",
        rule="WR-B15",
        choices=("until_next_round", "until_next_turn"),
        doc="A non-combat trait's attack-or-defense choice is locked at the first combat roll and reset at "
        "the start of the next round (the seed: 'in a single round'), or (an earlier reading) at the start "
        "of the character's next turn, which lets a trait defend before its turn and then attack.",
    )
    gang_up_choice: str = option(
        "first_attackers",
        rule="WR-B17",
        choices=("first_attackers", "kept"),
        doc="Ganging up (WR-31). 'first_attackers' (WR-B17: exactly max(0, A - C) of a defender's A distinct melee "
        "attackers of a round carry the bonus die; C: its best fighting trait, 2 by default): its first C "
        "distinct attackers attack normally and every further one carries it; attacks resolve one at a time, "
        "so the die always goes to the one attacker not yet resolved and the defender has nothing to choose. "
        "'kept' (the earlier reading): outnumbered by the foes in reach, the defender names the C it defends "
        "against normally and a named foe never carries the die, which can leave fewer dice than A - C.",
    )
    # -- the seed's GM options and optional rules -----------------------------------------------------
    initiative: str = option(
        "trait",
        rule="WR-05",
        choices=("trait", "seating_gm_first", "seating_gm_last"),
        doc="Initiative by a trait roll once per fight, or seating order (the scenario's PC order) with "
        "the GM's characters first or last.",
    )
    gmc_single_initiative: bool = option(
        False, rule="WR-05", doc="The GM rolls one initiative for all the GM characters of a side."
    )
    agility_rolls: str = option(
        "attack_and_defense",
        rule="WR-20",
        choices=("attack_and_defense", "tagged_traits"),
        doc="Which rolls require agility, so that armour's penalty dice and flaws on agility reach them: every "
        "attack and defense roll (dodging included; never a firearm attack, WR-18) plus any roll with an "
        "agility-related trait (the seed: 'including attack and defense rolls'); or only rolls with an "
        "agility-related trait.",
    )
    special_half: str = option(
        "before_armour",
        rule="WR-30",
        choices=("before_armour", "after_armour"),
        doc="A special-effect attack's half damage: half of the damage dealt (margin x factor), then armour "
        "comes off (the seed: 'only half the normal damage is done', and armour subtracts from each attack "
        "that does damage); or half of what gets through the armour.",
    )
    passive_defense_standing: bool = option(
        False,
        rule="WR-24",
        doc="A missile defense the GM assigns to a target that does not dodge (unaware, or choosing not to) "
        "measures the shot, not the target's action: Messed Up's penalty die 'on all actions' and the "
        "target's other standing dice (flaws, a hold, advantages) do not reach it. True: they do.",
    )
    max_pace: str = option(
        "sprint", rule="WR-07", choices=tuple(PACES), doc="The fastest pace the GM allows this fight."
    )
    half_dice: bool = option(
        False,
        rule="WR-16",
        doc="Half-dice for distance: the lower half of a range step gives the previous dice + a bonus die.",
    )
    desperate_defense: bool = option(
        False, rule="WR-32", doc="Optional: give up the turn's attack for a bonus die on every defense roll."
    )
    desperate_defense_span: str = option(
        "round",
        rule="WR-32",
        choices=("round", "until_next_turn"),
        doc="How long a desperate defense lasts: to the end of the round it was declared in (the seed: 'on each "
        "defense roll for that round'), or (an earlier reading) until the character's next turn.",
    )
    alternate_damage: bool = option(
        False, rule="WR-33", doc="Optional: damage is one d6 per point of factor, doubled when attack >= 2 x defense."
    )
    serious_wounds: bool = option(False, rule="WR-34", doc="Optional: big single blows are serious wounds.")
    serious_wound_threshold: int = option(
        20, low=1, high=1000, rule="WR-34", doc="Damage in one blow (after armour) that makes a serious wound."
    )
    recovery_ratio: str = option(
        "1/2",
        rule="WR-27",
        choices=("1/2", "2/3", "1/3"),
        doc="The table's usual recovery ratio (2/3 for fists, 1/3 for gunshots are the GM's variations).",
    )
    surprise_bonus_dice: int = option(
        1, low=0, high=10, rule="WR-31", doc="Bonus dice against a target that is totally unaware."
    )
    surprise_check: bool = option(
        False,
        rule="WR-31",
        doc="Before the fight an unaware character rolls alertness against the best stealth of its foes; "
        "matching or beating it means it is not surprised.",
    )
    # -- rulings this engine adds (WR-X*) -------------------------------------------------------------
    gm_decisions: str = option(
        "auto",
        rule="WR-X1",
        choices=("auto", "table"),
        doc="'table': the GM seat decides the GM's calls in windows for actor 'gm' (rulings on claims, "
        "special effects and shots, reason to live, serious wounds, close gestalt results). 'auto': "
        "the engine applies the GM options below, so fights run unattended.",
    )
    melee_reach_m: float = option(
        2.0,
        low=0,
        high=1000,
        rule="WR-X2",
        doc="Two fighters within this distance (metres on the line) can fight hand to hand.",
    )
    close_in_m: float = option(
        0.0,
        low=0,
        high=1000,
        rule="WR-X3",
        doc="Metres a melee attack may cover first to reach its target (0: closing in is its own action).",
    )
    escape_m: float = option(
        100.0, low=0, high=100000, rule="WR-X4", doc="A character farther than this from every foe has left the fight."
    )
    targets_dodge: bool = option(
        True, rule="WR-X5", doc="An aware target always dodges missiles (dodging is part of the defense roll)."
    )
    special_effect_margin: int = option(
        3,
        low=0,
        high=100,
        rule="WR-X6",
        doc="The GM's margin for a special effect when the GM does not set it (WR-30).",
    )
    prone_costs_turn: bool = option(
        True,
        rule="WR-X6",
        doc="A character knocked down (trip, tackle) spends its next turn getting up; attackers standing over "
        "it have a better position meanwhile. False: only the better position.",
    )
    reason_to_live: str = option(
        "accept",
        rule="WR-X7",
        choices=("accept", "refuse", "roll"),
        doc="The GM's answer to a dying PC's reason to live when the GM is not at the table (WR-26).",
    )
    reason_to_live_roll: int = option(
        4, low=1, high=6, rule="WR-X7", doc="When the GM rolls for a reason to live: a d6 at least this lives."
    )
    gmc_reason_to_live: bool = option(
        False, rule="WR-X7", doc="GM characters at -max HP may plead too (the seed addresses the players)."
    )
    serious_wound_kind: str = option(
        "mis_heal",
        rule="WR-X8",
        choices=("mis_heal", "fatal", "none"),
        doc="The kind of serious wound when the GM does not choose (WR-34).",
    )
    serious_wound_daily_loss: int = option(
        5, low=1, high=15, rule="WR-X8", doc="HP a fatal serious wound costs per day until medical care (1 to 15)."
    )
    taser_can_kill: bool = option(False, rule="WR-X9", doc="Temporary taser damage counts towards death at -max HP.")
    gestalt_ties: str = option(
        "reroll",
        rule="WR-X10",
        choices=("reroll", "draw"),
        doc="Equal gestalt totals: everyone rolls again, or a draw.",
    )
    gestalt_close_margin: int = option(
        3,
        low=0,
        high=100,
        rule="WR-X10",
        doc="A gestalt result this close lets the GM overturn it for good tactics (WR-35), in 'table' mode.",
    )
    intimidation: bool = option(
        True,
        rule="WR-X11",
        doc="An 'intimidate' action: intimidation against resolve; winning gives a psychological bonus die "
        "on every roll next round (WR-31).",
    )
    untrained_agility: bool = option(
        True,
        rule="WR-X12",
        doc="A roll without a suitable trait counts as agility-related for melee, defense, dodging and "
        "initiative, so armour penalties reach it (WR-20).",
    )
    moving_leaves_cover: bool = option(
        True, rule="WR-X13", doc="Moving (or shooting on the move) leaves whatever cover the character had."
    )
    round_limit: int = option(
        100, low=1, high=10000, rule="engine", doc="Rounds after which an unfinished fight is a draw."
    )
