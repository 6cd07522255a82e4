"""Trait rolls: which trait serves a roll, its bonus and penalty dice, and throwing the pool.

A roll is a trait's dice (2 without a suitable trait, WR-03) plus bonus and penalty dice that cancel
one for one (WR-02, WR-B2). Standing modifiers come from the roller's condition: Messed Up (WR-24),
armour on agility-related rolls, which include every attack and defense roll but a firearm attack (WR-18,
WR-20, WR-21), flaws, a hold (WR-30), a psychological advantage or a loved one to protect (WR-31). A
non-combat trait serves attack or defense, not both, in one round (WR-09, WR-B15).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from affray.core.dice import Die, Roll, roll_pool
from affray.core.events import Note
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.warp.events import PoolRolled
from affray.rulesets.warp.mechanics import DEFAULT_DICE, DIE, blown_top, botched, keep_flags, messed_up, net_dice
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.state import Fighter, TraitRating, WarpState

UNTRAINED_AGILE = frozenset({"melee", "defense", "dodge", "initiative"})
#: The attack and defense rolls that the seed counts among the actions requiring agility (WR-20).
COMBAT_ROLLS = frozenset({"melee", "ranged", "defense", "dodge"})
ATTACK_USES = ("melee", "ranged")
MAX_EXPLOSIONS = 50


@dataclass(slots=True)
class Mods:
    """Bonus and penalty dice of one roll, each with its reason (one entry per die)."""

    bonus: list[str] = field(default_factory=list)
    penalty: list[str] = field(default_factory=list)


def is_messed(state: WarpState, f: Fighter) -> bool:
    """Messed Up counts temporary (taser) damage too. Rules: WR-24, WR-B10, WR-29."""
    return messed_up(f.hp - f.stun, f.max_hp, state.options.half_hp_is_messed_up)


def agility_rule(reading: str, untrained: bool, trait_agility: bool | None, use: str, gunfire: bool = False) -> bool:
    """Whether a roll requires agility, so that armour's penalty dice (WR-20, WR-21) and flaws on agility
    reach it. Rules: WR-18, WR-20, WR-X12. The one rule that play, the duel model and the hints share.

    The seed: "every action that requires agility (including attack and defense rolls)": with ``reading``
    ``attack_and_defense`` (option ``agility_rolls``), every attack and defense roll, dodging included, whatever
    the trait, but never a firearm attack (WR-18); any other roll when its trait is agility-related
    (``trait_agility``; ``None``: no trait). ``tagged_traits`` keeps the older reading, where only an
    agility-tagged trait counted. A roll without a trait is agility-related for melee, defense, dodging and
    initiative when ``untrained`` (ruling WR-X12).
    """
    if gunfire and use == "ranged":
        return False
    if use in COMBAT_ROLLS and reading == "attack_and_defense":
        return True
    if trait_agility is not None:
        return trait_agility
    return untrained and use in UNTRAINED_AGILE


def agility_related(state: WarpState, trait: TraitRating | None, use: str, gunfire: bool = False) -> bool:
    """:func:`agility_rule` under the match's options."""
    o = state.options
    return agility_rule(o.agility_rolls, o.untrained_agility, None if trait is None else trait.agility, use, gunfire)


class HasAffects(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def affects(self) -> tuple[str, ...]: ...

    @property
    def dodge_dice(self) -> int | None: ...


def flaw_penalties(flaws: Iterable[HasAffects], use: str, agile: bool) -> list[str]:
    """One penalty die per flaw that reaches a roll of ``use`` (its own rolls, all, or agility-related ones).

    A flaw that caps the dodging bonus dice (Clumsy: "only one bonus die for dodging", WR-14) is priced into the
    dodge itself, so it puts no penalty die on a dodge roll (WR-B16 as revised)."""
    return [
        fl.name
        for fl in flaws
        if not (use == "dodge" and fl.dodge_dice is not None)
        and (use in fl.affects or "all" in fl.affects or (agile and "agility" in fl.affects))
    ]


def standing(state: WarpState, f: Fighter, use: str, agile: bool, mods: Mods) -> Mods:
    """Add the roller's standing bonus and penalty dice for a roll of ``use``."""
    if is_messed(state, f):
        mods.penalty.append("messed up")
    if agile and f.armour.penalty_dice:
        mods.penalty.extend(["armour"] * f.armour.penalty_dice)
    if f.flaws:
        mods.penalty.extend(flaw_penalties(f.flaws, use, agile))
    if f.held_by:
        mods.penalty.append("held")
    if f.psych_round == state.round:
        mods.bonus.append("psychological advantage")
    if f.protecting:
        mods.bonus.append("protecting a loved one")
    return mods


def lock_allows(f: Fighter, trait: TraitRating, role: str) -> bool:
    """A combat trait serves both roles; a non-combat one only the role it was first used for. WR-09."""
    return trait.combat or f.locks.get(trait.id, role) == role


def lock(f: Fighter, trait: TraitRating | None, role: str) -> None:
    """Record a non-combat trait's role until the round ends (WR-B15)."""
    if trait is not None and not trait.combat:
        f.locks[trait.id] = role


def candidates(f: Fighter, use: str, role: str | None, weapon: str | None = None) -> list[TraitRating]:
    """Traits that can serve ``use`` now, best first (more dice; a combat trait before a non-combat one).

    ``role`` ("attack" or "defense") applies the WR-09 lock; ``None`` is a roll that is neither
    (initiative, stealth, intimidation...), which no lock restricts. ``weapon`` keeps out a trait tied to
    other weapons (Good with a Baseball Bat does not help with a knife).
    """
    found = [
        t for t in f.traits.values() if use in t.uses and (role is None or lock_allows(f, t, role)) and t.fits(weapon)
    ]
    found.sort(key=lambda t: (-t.dice, not t.combat, t.id))
    return found


def best(f: Fighter, use: str, role: str | None, weapon: str | None = None) -> TraitRating | None:
    """The best trait for ``use`` (``None``: roll the default 2 dice, WR-03)."""
    found = candidates(f, use, role, weapon)
    return found[0] if found else None


def dice_of(trait: TraitRating | None) -> int:
    return DEFAULT_DICE if trait is None else trait.dice


def fighting_capacity(f: Fighter) -> int:
    """How many attackers ``f`` defends against normally: its best fighting trait, else 2. WR-31."""
    return max((t.dice for t in f.traits.values() if t.fighting), default=DEFAULT_DICE)


def dodge_dice(f: Fighter) -> tuple[int, TraitRating | None]:
    """Bonus dice for dodging and the agility trait behind them (WR-14); a clumsy flaw caps them (and then puts no
    penalty die on the dodge, :func:`flaw_penalties`, WR-B16)."""
    trait = best(f, "dodge", "defense")
    dice = dice_of(trait)
    for flaw in f.flaws:
        if flaw.dodge_dice is not None:
            dice = min(dice, flaw.dodge_dice)
    return dice, trait


def warp_pool(rng: RNG, dice: int, bonus: int = 0, penalty: int = 0, modifier: int = 0) -> Roll:
    """A WaRP trait roll outside a match: ``dice`` d6 summed, with bonus and penalty dice that cancel one for
    one. Rules: WR-01, WR-02, WR-B2, WR-B13.

    With ``k`` net bonus dice it rolls ``dice + k`` and keeps the highest ``dice``; with ``k`` net penalty dice
    the lowest ``dice``. (Moved here from ``affray.core.dice``: it is WaRP's rule, and rules live in their
    ruleset. Live play uses :func:`throw`, which also honours the options.)
    """
    if dice < 0 or bonus < 0 or penalty < 0:
        raise ValueError(f"dice counts cannot be negative (dice={dice}, bonus={bonus}, penalty={penalty})")
    net = net_dice(bonus, penalty)
    extra = abs(net)
    tag = f"+{extra}b" if net > 0 else (f"+{extra}p" if net < 0 else "")
    shown = f"+{modifier}" if modifier > 0 else (f"{modifier}" if modifier < 0 else "")
    return roll_pool(
        rng, dice + extra, DIE, keep=dice, keep_lowest=net < 0, modifier=modifier, notation=f"{dice}d6{tag}{shown}"
    )


def pool_shape(opts: WarpOptions, dice: int, bonus: int, penalty: int) -> tuple[int, int, int]:
    """The dice, bonus dice and penalty dice a pool throws under the options: a bonus die read as a full die
    (WR-B13) and bonus and penalty dice cancelling one for one (WR-B2)."""
    if opts.bonus_die_reading == "full_die":
        dice, bonus = dice + bonus, 0
    if opts.cancel_bonus_penalty:
        net = bonus - penalty
        bonus, penalty = max(net, 0), max(-net, 0)
    return dice, bonus, penalty


def throw(state: WarpState, rng: RNG, dice: int, bonus: int, penalty: int) -> Roll:
    """Throw a pool and keep what counts (WR-01, WR-02, WR-B2, WR-B12, WR-B13); returns a core Roll."""
    opts = state.options
    dice, bonus, penalty = pool_shape(opts, dice, bonus, penalty)
    draw = rng.index
    die = rng.die
    faces = [die(DIE) for _ in range(dice + bonus + penalty)]
    if bonus or penalty:
        kept = keep_flags(faces, bonus, penalty)
        counted = [v for v, k in zip(faces, kept, strict=True) if k]
        out = [Die(DIE, v, k, draw + i) for i, (v, k) in enumerate(zip(faces, kept, strict=True))]
    else:
        counted = faces
        out = [Die(DIE, v, True, draw + i) for i, v in enumerate(faces)]
    total = sum(counted)
    modifier = 0
    if opts.blow_the_top_off and blown_top(counted):
        for _ in range(MAX_EXPLOSIONS):
            at = rng.index
            value = rng.die(DIE)
            out.append(Die(DIE, value, True, at))
            total += value
            if value != DIE:
                break
    if opts.botch and botched(counted):
        modifier = -total
        total = 0
    tag = (f"+{bonus}b" if bonus else "") + (f"+{penalty}p" if penalty else "")
    return Roll(f"{dice}d6{tag}", tuple(out), modifier, total)


def throw_total(state: WarpState, rng: RNG, dice: int, bonus: int, penalty: int) -> int:
    """:func:`throw`'s total alone, for a quiet journal: the same dice drawn in the same order, no records.

    The kept faces of a sorted pool are the middle slice: the ``bonus`` lowest and then the ``penalty`` highest of
    the rest are dropped (WR-02, WR-B13), whichever equal die :func:`keep_flags` would name."""
    opts = state.options
    dice, bonus, penalty = pool_shape(opts, dice, bonus, penalty)
    die = rng.die
    thrown = dice + bonus + penalty
    counted = [die(DIE) for _ in range(thrown)]
    if bonus or penalty:
        counted.sort()
        counted = counted[bonus : thrown - penalty]
    total = sum(counted)
    if opts.blow_the_top_off and blown_top(counted):
        for _ in range(MAX_EXPLOSIONS):
            value = die(DIE)
            total += value
            if value != DIE:
                break
    if opts.botch and botched(counted):
        total = 0
    return total


def roll(
    state: WarpState,
    rng: RNG,
    f: Fighter,
    purpose: str,
    trait: TraitRating | None,
    mods: Mods,
    events: Journal,
    secret: bool = False,
    dice: int | None = None,
) -> int:
    """Roll ``trait`` (or the default 2 dice, or ``dice`` the GM assigns) with ``mods``; log it (a loud journal)
    and return the total."""
    count = dice if dice is not None else dice_of(trait)
    if not events.loud:
        return throw_total(state, rng, count, len(mods.bonus), len(mods.penalty))
    result = throw(state, rng, count, len(mods.bonus), len(mods.penalty))
    name = trait.name if trait is not None else ("assigned dice" if dice is not None else "no trait (2 dice)")
    events.append(PoolRolled(f.id, purpose, result, name, list(mods.bonus), list(mods.penalty), secret))
    if state.options.unstoppable_six and any(d.kept and d.value == DIE for d in result.dice):
        events.append(Note(f"{f.name}'s {purpose} roll shows an unstoppable six", f.id))
    return result.total
