"""How WaRP's events word what they carry (:mod:`affray.rulesets.warp.events`, :mod:`affray.rulesets.warp.narration`):
lists of names, a side by its combatants, a roll's purpose and its reasons, dice counts, a wound, the GM's call on
an attack."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from affray.core.json import Json
from affray.core.narration import term

#: A roll's purpose as it reads after "rolls" (WR-05, WR-08, WR-14, WR-19, WR-26, WR-31, WR-35, WR-B8).
PURPOSES = {
    "melee attack": "a melee attack",
    "ranged attack": "a ranged attack",
    "ranged defense": "a ranged defense",
    "gestalt": "for the gestalt fight",
    "intimidate": "to intimidate",
    "break free": "to break free",
    "keep hold": "to keep the hold",
    "initiative roll-off": "a roll-off for initiative",
    "armour": "armour dice",
    "bullet-proof armour": "bullet-proof armour dice",
    "damage": "damage dice",
    "reason to live": "for a reason to live",
}


def purpose(text: str) -> str:
    return PURPOSES.get(text, text)


def side_key(side: str) -> str:
    """The term under which the match's story keeps a side's combatants' names."""
    return f"side:{side}"


def side(names: Mapping[str, str], name: str) -> str:
    """A side by its combatants' names (``names``: the match's story), else its name with spaces."""
    told = term(names, side_key(name))
    return told if told != side_key(name) else name.replace("_", " ")


def reasons(why: Sequence[str]) -> str:
    """Each reason for a bonus or penalty die once, counted: "experience ×2, dodging"."""
    return ", ".join(r if n == 1 else f"{r} ×{n}" for r, n in Counter(why).items())


def dice(n: int, kind: str = "") -> str:
    """``1 die``, ``3 dice``, ``2 bonus dice``."""
    return f"{n} {kind + ' ' if kind else ''}{'die' if n == 1 else 'dice'}"


def wound_sentence(
    names: Mapping[str, str],
    target: str,
    raw: int,
    absorbed: int,
    damage: int,
    temporary: bool,
    hp: int | None = None,
    stun: int | None = None,
) -> str:
    """A wound (WR-11, WR-19..WR-23, WR-29) and, where the viewer may know them, the HP left (``None``: not told)."""
    kind = " temporary" if temporary else ""
    armour = f", {absorbed} stopped by armour" if absorbed else ""
    took = f"{damage}{kind} damage" if damage else "no damage"
    left = ""
    if hp is not None:
        left = f": {hp} HP left" if hp > 0 else f": down to {hp} HP"
        left += f", {stun} of it stunned away" if stun else ""
    return f"{names[target]} takes {took} ({raw} dealt{armour}){left}."


def ruled(key: str, value: Json) -> str:
    """One call of the GM's ruling on an attack (WR-14, WR-17, WR-30, WR-31)."""
    if key in ("bonus", "penalty"):
        return dice(value, key) if isinstance(value, int) and value else ""  # a count checked when ruled
    if key == "predictable":
        return "predictable (a penalty die)" if value else "not predictable"
    if key == "margin":
        return f"a special effect needs a margin of {value}" if value else ""
    if key == "cover":
        return "no cover" if value == "none" else f"{value} cover"
    return "no darkness" if value == "none" else f"{value} light"
