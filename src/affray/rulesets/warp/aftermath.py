"""After the fight: recovery, daily healing, serious wounds, and advancing a character through days.

Time outside a fight is the GM's to pass, so these are functions on a :class:`Patient` (a character's
hit points between fights), not match actions: a match ends when the fight does. Typical use::

    patients = from_state(match.state)            # everyone's HP, temporary damage and wounds
    dana = recover_patient(patients["dana"])      # half an hour later: halfway back up (WR-27, WR-29)
    dana, log = advance_days(dana, 3, "rest")     # three days taking it easy (WR-28)

Rules: WR-27 (recovery halfway to the ceiling, rounded up; the GM's ratio; an optional first-aid
roll), WR-28 (HP per day by activity and state; the GM may take HP away in the starred cells), WR-29
(temporary taser damage comes back in full), WR-34 (serious wounds: mis-healing at half rate with a
lasting penalty die, or fatal, costing HP each day until medical care).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction

from affray.rulesets.warp.mechanics import (
    HALF,
    MAY_LOSE,
    Activity,
    condition_of,
    daily_healing,
    is_dead,
    recover,
)
from affray.rulesets.warp.state import WarpState

MIS_HEAL_DISABILITY = "a penalty die on agility-related actions (a mis-healed serious wound)"


@dataclass(slots=True)
class Wound:
    """A serious wound (WR-34): ``mis_heal`` or ``fatal``; medical care treats it."""

    kind: str
    daily_loss: int = 0
    treated: bool = False


@dataclass(slots=True)
class Patient:
    """A character's hit points between fights."""

    id: str
    name: str
    max_hp: int
    hp: int
    ceiling: int  # the level after the last recovery (WR-27)
    stun: int = 0  # temporary taser damage (WR-29)
    wounds: list[Wound] = field(default_factory=list)
    disabilities: list[str] = field(default_factory=list)
    credit: Fraction = Fraction(0)  # part-days of healing ("1 per 2 days")
    day: int = 0
    dead: bool = False


def from_state(state: WarpState) -> dict[str, Patient]:
    """Everyone in a (finished) WaRP fight as a patient; the dead are marked so."""
    return {
        f.id: Patient(
            f.id,
            f.name,
            f.max_hp,
            f.hp,
            f.ceiling,
            f.stun,
            [Wound(str(w["kind"]), int(w["daily_loss"])) for w in f.serious],
            dead=f.status == "dead",
        )
        for f in state.fighters.values()
    }


def recover_all(state: WarpState) -> dict[str, Patient]:
    """Everyone in a finished fight, recovered with the table's usual ratio and rounding (options
    ``recovery_ratio`` and ``recovery_rounding``; WR-27, WR-B5)."""
    ratio = Fraction(state.options.recovery_ratio)
    up = state.options.recovery_rounding == "up"
    return {a: recover_patient(p, ratio, round_up=up) for a, p in from_state(state).items()}


def recover_patient(p: Patient, ratio: Fraction = HALF, *, first_aid: bool = True, round_up: bool = True) -> Patient:
    """Recovery after the fight and some rest (WR-27, WR-29).

    HP go ``ratio`` of the way back up to the ceiling, rounded up (the GM may use 2/3 for fists or 1/3
    for gunshots), taser damage comes back in full, and the new level becomes the ceiling. With
    ``first_aid=False`` (the GM asked for a first-aid roll and it failed) nothing is recovered.
    """
    if p.dead or not first_aid:
        return dataclasses.replace(p, wounds=[dataclasses.replace(w) for w in p.wounds])
    hp = recover(p.hp, p.ceiling, ratio, round_up)
    return dataclasses.replace(p, hp=hp, ceiling=hp, stun=0, wounds=[dataclasses.replace(w) for w in p.wounds])


def heal_day(p: Patient, activity: Activity, *, critical: bool = False, gm_loss: int = 0) -> tuple[Patient, str]:
    """One day of ``activity`` ("active", "rest" or "medical"); returns the patient and a log line.

    Rules: WR-28 (the rate by activity and state: mobile at 1+ HP, bed-ridden at 0 or less, critical by
    the GM's call; "1 per 2 days" accrues by halves; ``gm_loss`` HP may be taken in the starred cells
    only), WR-34 (medical care treats serious wounds; an untreated mis-healing wound halves the rate and,
    once healed, leaves a lasting penalty die; an untreated fatal wound costs its HP every day).
    """
    if p.dead:
        return p, f"day {p.day + 1}: {p.name} is dead"
    state = condition_of(p.hp, critical)
    rate = daily_healing(activity, state)
    if gm_loss < 0 or (gm_loss and (activity, state) not in MAY_LOSE):
        raise ValueError(f"the GM may take HP away only when {activity} and {state} is a starred cell (WR-28)")
    wounds = [dataclasses.replace(w, treated=w.treated or activity == "medical") for w in p.wounds]
    if any(w.kind == "mis_heal" and not w.treated for w in wounds):
        rate /= 2
    credit = p.credit + rate
    gain = credit.numerator // credit.denominator
    bleed = sum(w.daily_loss for w in wounds if w.kind == "fatal" and not w.treated)
    hp = min(p.max_hp, p.hp + gain) - gm_loss - bleed
    disabilities = list(p.disabilities)
    if hp >= p.max_hp and any(w.kind == "mis_heal" and not w.treated for w in wounds):
        disabilities.append(MIS_HEAL_DISABILITY)
        wounds = [w for w in wounds if w.kind != "mis_heal" or w.treated]
    dead = is_dead(hp, p.max_hp)
    after = dataclasses.replace(
        p,
        hp=hp,
        ceiling=max(p.ceiling, hp),
        wounds=wounds,
        disabilities=disabilities,
        credit=credit - gain,
        day=p.day + 1,
        dead=dead,
    )
    change = hp - p.hp
    line = f"day {after.day}: {p.name} ({activity}, {state}) {change:+d} HP -> {hp}/{p.max_hp}"
    return after, line + (" (dead)" if dead else "")


def advance_days(
    p: Patient, days: int, activity: Activity, *, critical: bool = False, gm_loss: int = 0
) -> tuple[Patient, list[str]]:
    """Advance ``p`` through ``days`` days of the same activity; returns the patient and the day log."""
    if days < 0:
        raise ValueError(f"days cannot be negative (got {days})")
    log = []
    for _ in range(days):
        p, line = heal_day(p, activity, critical=critical, gm_loss=gm_loss)
        log.append(line)
    return p, log
