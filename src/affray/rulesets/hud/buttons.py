"""The dice of the HuD's five buttons for a free roll (:data:`affray.core.plugin.ButtonDice`): what touching one rolls
in a Free Form scene (WL-00, WL-02), in ``affray roll`` notation, with the character's modifier.

Each roll is its die (WL-01: Chance a d11; Attack, Defense, Damage and Injury a d13, WL-B1) plus the modifier ruling
WL-B2 gives it, computed by the very functions the fight's own rolls use (:mod:`affray.rulesets.hud.combat`):

- Chance: nothing added (a stat only in pursuit, WL-22; never penalised, WL-17);
- Attack: the weapon's attack minus the armour's attack penalty (WL-03), plus any additional-action penalty (WL-17);
- Defense: the defense of everything in hand (a shield too), plus that penalty;
- Damage: the weapon's damage (plus the penalty where WL-B11's scope says);
- Injury: the armour's injury bonus (likewise).

A free roll strikes no one, so its weapon is the one the character would strike a foe at hand with (the best melee
weapon in hand, else the best ranged one; bare hands add nothing). With the ``zero_based_dice`` option (WL-B1) each
die reads 0..N-1, so each roll is one lower, as the fight's are.
"""

from __future__ import annotations

from affray.rulesets.hud.combat import attack_arm, attack_modifier, damage_modifier, defense_modifier, injury_modifier
from affray.rulesets.hud.mechanics import CHANCE_DIE, HUD_DIE
from affray.rulesets.hud.views import HudView


def buttons(view: HudView, actor: str) -> dict[str, str]:
    """``{button: notation}`` for ``actor`` as ``view`` shows it (see the module docstring); ``{}`` for an actor the
    view does not show. Rules: WL-00, WL-01, WL-02, WL-03, WL-17, WL-B1, WL-B2."""
    seen = next((c for c in view.combatants if c.id == actor), None)
    if seen is None:
        return {}
    f, options = seen.detail, view.detail.options
    arm = attack_arm(f, f)  # as against a foe engaged with it: a free roll names no target
    shift = -1 if options.zero_based_dice else 0
    rolls = {
        "chance": (CHANCE_DIE, 0),
        "attack": (HUD_DIE, attack_modifier(f, arm, charge=False)),
        "defense": (HUD_DIE, defense_modifier(f)),
        "damage": (HUD_DIE, damage_modifier(options, f, arm, charge=False)),
        "injury": (HUD_DIE, injury_modifier(options, f)),
    }
    return {name: notation(sides, modifier + shift) for name, (sides, modifier) in rolls.items()}


def notation(sides: int, modifier: int) -> str:
    """One die with a flat modifier in ``affray roll`` notation: ``1d13+2``, ``1d13-1``, ``1d11``."""
    return f"1d{sides}{modifier:+d}" if modifier else f"1d{sides}"
