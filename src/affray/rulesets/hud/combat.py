"""Rolls, weapons, damage and the end of the fight, shared by the three HuD modes.

Roll modifiers follow ruling WL-B2: Attack = d13 + weapon attack - armour penalty; Defense = d13 +
the defense of what is in hand; Damage = d13 + weapon damage; Injury = d13 + armour injury; Chance =
d11 (+ a stat only in pursuit). The additional-action penalty (WL-17, WL-B11) and the charge (WL-18,
WL-B4) adjust them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from affray.core.dice import roll_die
from affray.core.engine import ESCAPED, Accepted, Outcome
from affray.core.events import Defeated, Ended, Rolled
from affray.core.journal import QUIET_TRUSTED, Journal
from affray.core.outcomes import last_side_standing, round_limit_draw
from affray.core.rng import RNG
from affray.rulesets.hud.events import EndedEscaped, Wounded
from affray.rulesets.hud.mechanics import CHANCE_DIE, CHARGE_ATTACK, CHARGE_BONUS, HUD_DIE, hp_loss
from affray.rulesets.hud.options import HudOptions
from affray.rulesets.hud.state import Fighter, HudState

#: The trusted quiet journal's acceptance: it holds no events and never will, so the fast path's steps share it.
_ACCEPTED_QUIETLY = Accepted(QUIET_TRUSTED)


def accepted(journal: Journal) -> Accepted:
    """``Accepted(journal)``: the step applied its action and wrote its events into ``journal``."""
    return _ACCEPTED_QUIETLY if journal is QUIET_TRUSTED else Accepted(journal)


def roll(
    state: HudState, rng: RNG, actor: str, purpose: str, modifier: int, journal: Journal, sides: int = HUD_DIE
) -> int:
    """Roll one HuD die for ``actor``, log it (a loud journal only), and return the total.

    With ``zero_based_dice`` (WL-B1) the face is shown as 0..N-1; every HuD roll is opposed or a
    difference, so outcomes do not change. Loud or quiet, exactly one ``d{sides}`` is drawn.
    """
    shift = -1 if state.options.zero_based_dice else 0
    if not journal.loud:  # the same single draw, without the Roll record nobody reads
        return rng.die(sides) + modifier + shift
    result = roll_die(rng, sides, modifier + shift)
    journal.append(Rolled(actor, purpose, result))
    return result.total


def chance(state: HudState, rng: RNG, actor: str, journal: Journal, purpose: str = "chance") -> int:
    """A Chance roll (d11, never penalised). Rules: WL-01, WL-09, WL-17."""
    return roll(state, rng, actor, purpose, 0, journal, CHANCE_DIE)


class ArmLike(Protocol):
    """What the modifier functions read of a weapon: an :class:`~affray.rulesets.hud.state.Arm` or a view's
    :class:`~affray.rulesets.hud.views.WeaponView`."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def attack(self) -> int: ...

    @property
    def defense(self) -> int: ...

    @property
    def damage(self) -> int: ...


class FighterLike(Protocol):
    """What the modifier functions read of a combatant: a :class:`~affray.rulesets.hud.state.Fighter` or a view's
    :class:`~affray.rulesets.hud.views.HudCombatantDetail` (so the hints use these same functions)."""

    @property
    def place(self) -> int: ...

    @property
    def armour_penalty(self) -> int: ...

    @property
    def injury_mod(self) -> int: ...

    @property
    def penalty(self) -> int: ...

    @property
    def charged(self) -> bool: ...

    def in_hand(self) -> Sequence[ArmLike]: ...


def attack_arm(f: FighterLike, target: FighterLike) -> ArmLike | None:
    """The weapon ``f`` strikes ``target`` with: the best melee weapon in hand when engaged, else the
    best ranged one. ``None`` means bare hands (engaged) or no way to reach the target (at range)."""
    in_hand = f.in_hand()
    if f.place == target.place:
        melee = _best(in_hand, "melee")
        if melee is not None:
            return melee
    return _best(in_hand, "ranged")


def _best(arms: Sequence[ArmLike], kind: str) -> ArmLike | None:
    """The first of the ``kind`` weapons with the highest (attack, damage), as ``max`` picks it; one pass, since
    every attack asks."""
    best: ArmLike | None = None
    for a in arms:
        if a.kind == kind and (best is None or (a.attack, a.damage) > (best.attack, best.damage)):
            best = a
    return best


def can_reach(f: FighterLike, target: FighterLike) -> bool:
    """Engaged combatants can always strike (bare hands at worst); at range only with a ranged weapon."""
    return f.place == target.place or any(a.kind == "ranged" for a in f.in_hand())


def scoped_penalty(options: HudOptions, f: FighterLike) -> int:
    """The additional-action penalty on Damage, Injury and pursuit rolls, if the scope includes them (WL-B11)."""
    return f.penalty if options.additional_penalty_scope == "all" else 0


def attack_modifier(f: FighterLike, arm: ArmLike | None, charge: bool) -> int:
    """Attack: weapon attack - armour penalty + the additional-action penalty, -4 on a charge. Rules: WL-B2,
    WL-03, WL-17, WL-18."""
    return (arm.attack if arm else 0) - f.armour_penalty + f.penalty + (CHARGE_ATTACK if charge else 0)


def defense_modifier(f: FighterLike) -> int:
    """Defense: the defense of everything in hand + the additional-action penalty. Rules: WL-B2, WL-17."""
    return sum([a.defense for a in f.in_hand()]) + f.penalty


def damage_modifier(options: HudOptions, f: FighterLike, arm: ArmLike | None, charge: bool) -> int:
    """Damage: weapon damage (+ the scoped penalty), +2 on a charge's blow (option charge_bonus_to). Rules: WL-B2,
    WL-18, WL-B4, WL-B11."""
    bonus = CHARGE_BONUS if charge and options.charge_bonus_to == "damage" else 0
    return (arm.damage if arm else 0) + scoped_penalty(options, f) + bonus


def injury_modifier(options: HudOptions, f: FighterLike) -> int:
    """Injury: armour injury (+ the scoped penalty), +2 for a charger under charge_bonus_to='injury'. Rules:
    WL-B2, WL-B4, WL-B11."""
    bonus = CHARGE_BONUS if f.charged and options.charge_bonus_to == "injury" else 0
    return f.injury_mod + scoped_penalty(options, f) + bonus


def damage_phase(
    state: HudState, rng: RNG, attacker: str, target: str, weapon: str, charge: bool, journal: Journal
) -> None:
    """Roll Damage against Injury and apply the loss. Rules: WL-13 (and WL-08 at 0 HP)."""
    a, t = state.fighters[attacker], state.fighters[target]
    arm = a.arms.get(weapon)
    dmg = roll(state, rng, attacker, "damage", damage_modifier(state.options, a, arm, charge), journal)
    inj = roll(state, rng, target, "injury", injury_modifier(state.options, t), journal)
    loss = hp_loss(dmg, inj)
    t.hp -= loss
    t.taken += loss
    a.dealt += loss
    if journal.loud:
        journal.append(Wounded(attacker, target, dmg, inj, loss, t.hp))
    if loss:
        knock_out(state, t, journal)


def knock_out(state: HudState, f: Fighter, journal: Journal) -> None:
    """At 0 HP or less a combatant has lost (WL-04, WL-08)."""
    if f.hp <= 0 and not f.out:
        f.out = "down"
        journal.append(Defeated(f.id, "down"))
        check_outcome(state, journal)


def check_outcome(state: HudState, journal: Journal) -> None:
    """The fight ends when at most one side has combatants still in it. Rules: WL-04, WL-08, WL-B14.

    When every foe is down, the side left standing wins. When a side left the fight by escaping (WL-22) rather
    than all going down, nobody was defeated: the outcome is ``Outcome(None, "escaped", details)``, with
    ``details`` naming who ``escaped`` (ids), who was ``down`` and which side ``held_the_field`` (or ``None``).
    """
    if state.outcome is not None:
        return
    standing = last_side_standing(f.side for f in state.fighters.values() if not f.out)
    if standing is None:
        return
    escaped = [f.id for f in state.fighters.values() if f.out == "escaped" and f.side != standing.winner]
    if escaped:  # WL-B14: nobody was defeated
        details = {
            "escaped": escaped,
            "held_the_field": standing.winner,
            "down": [f.id for f in state.fighters.values() if f.out == "down"],
        }
        state.outcome = Outcome(None, ESCAPED, details)
    else:
        state.outcome = standing
    journal.append(ending(state, state.outcome))
    state.phase = "over"


def ending(state: HudState, outcome: Outcome) -> Ended:
    """The event that tells ``outcome``: who escaped (WL-B14), else the side left standing or the draw."""
    if outcome.reason == ESCAPED:
        return EndedEscaped(None, f"{', '.join(state.fighters[a].name for a in outcome.details['escaped'])} escaped")
    return Ended(outcome.winner, outcome.reason)


def round_limit_reached(state: HudState, journal: Journal) -> bool:
    """The engine's guard: an unfinished fight past ``round_limit`` is a draw (core's round-limit draw)."""
    outcome = round_limit_draw(state.round, state.options.round_limit)
    if outcome is None:
        return False
    state.outcome = outcome
    state.phase = "over"
    journal.append(Ended(None, outcome.reason))
    return True
