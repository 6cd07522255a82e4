"""WitchHammer's sheet operations beyond new, check and show (:mod:`affray.characters.operations`): ``affray
character advance``, ``spend``, ``wound``, ``heal`` and ``leader``.

Rules: WH-31..WH-35 (points, rewards and spending), WH-19 and WH-23 (Wounds and afflictions carried out of a
fight), WH-30 (healing), WH-37 (the party leader by hat value).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from affray.characters.operations import PartyReport, Report, SheetChange, Step
from affray.core.actions import Field
from affray.core.checks import BadParameters, Params
from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG, seed_from_int
from affray.rulesets.witchhammer.characters import advancement as adv
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters.hats import party_leader
from affray.rulesets.witchhammer.characters.sheet import WitchHammerSheet

Change = Callable[[WitchHammerSheet], WitchHammerSheet]


def _with(fn: Callable[[WitchHammerSheet, str], WitchHammerSheet], arg: str) -> Change:
    """``fn`` with its second argument bound (one change per repeated option)."""
    return lambda sheet: fn(sheet, arg)


def points_left(sheet: Any, content: ContentLibrary) -> list[str]:
    """The line shown after every change: the points still to spend (WH-31..WH-35)."""
    left = wh.points_left(sheet, content)
    return ["points left: " + ", ".join(f"{n} {kind}" for kind, n in left.items())]


def _grant(reward: str) -> str:
    return ", ".join(f"+{n} {kind}" for kind, n in wh.REWARDS[reward].items() if n)


def _advance(sheet: Any, p: Params, content: ContentLibrary) -> list[Step]:
    for r in p["reward"]:
        if r not in wh.REWARDS:
            raise BadParameters(f"no reward '{r}'; one of {', '.join(wh.REWARDS)} (WH-35).")
    note = p["note"]
    return [(f"reward: {r} ({_grant(r)})", _with(lambda s, x: adv.grant_reward(s, x, note), r)) for r in p["reward"]]


def _spend(sheet: Any, p: Params, lib: ContentLibrary) -> list[Step]:
    steps: list[Step] = [
        ("trade a School point for 5 Technique points", lambda s: adv.trade_school_point(s, lib))
        for _ in range(p["trade_school"])
    ]
    steps += [(f"school: {x}", _with(lambda s, v: adv.learn_school(s, v, lib), x)) for x in p["school"] or []]
    steps += [(f"attribute: {x}", _with(lambda s, v: adv.buy_attribute(s, v, lib), x)) for x in p["attribute"] or []]
    steps += [(f"skill: {x}", _with(lambda s, v: adv.buy_skill(s, v, lib), x)) for x in p["skill"] or []]
    steps += [(f"technique: {x}", _with(lambda s, v: adv.learn_technique(s, v, lib), x)) for x in p["technique"] or []]
    steps += [(f"trait: {x}", _with(lambda s, v: adv.take_trait(s, v, lib), x)) for x in p["trait"] or []]
    if not steps:
        raise BadParameters(
            "nothing to spend: give --attribute, --skill, --school, --trade-school, --technique or --trait."
        )
    return steps


def _wound(sheet: Any, p: Params, lib: ContentLibrary) -> list[Step]:
    wounds = p["wounds"]
    steps: list[Step] = [(f"{wounds} Wounds", lambda s: adv.wound(s, wounds, lib))]
    return steps + [(f"affliction: {a}", _with(adv.afflict, a)) for a in p["affliction"] or []]


def _heal(sheet: Any, p: Params, lib: ContentLibrary) -> list[Step]:
    days, rest = p["days"], p["rest"]
    return [(f"{days} day(s) of {'rest' if rest else 'healing'}", lambda s: adv.heal(s, days, rest))]


def _leader(sheets: Sequence[Any], p: Params) -> Report:
    party: dict[str, Any] = {}
    for sheet in sheets:
        if sheet.name in party:
            raise BadParameters(f"two sheets are called {sheet.name}; names must differ.")
        party[sheet.name] = sheet.hat
    result = party_leader(party, VerifiableRNG(seed_from_int(p["seed"])) if p["seed"] is not None else None)
    data = {
        "leader": result.leader,
        "reason": result.reason,
        "tied": result.tied,
        "roll_off": result.roll_off,
        "ranking": [list(r) for r in result.ranking],
    }
    return Report(
        "Hats (WH-37)",
        ("character", "hat value", "hat itself"),
        [(who, str(total), str(base)) for who, total, base in result.ranking],
        [("leader", f"{result.leader or 'undecided'} — {result.reason}")],
        data,
    )


def _many(name: str, description: str) -> Field:
    return Field(name, "list", description, required=False)


#: The operations WitchHammer's sheet rules offer (:data:`affray.characters.sheet.SheetRules.operations`).
OPERATIONS = (
    SheetChange(
        "advance",
        "Grant adventure rewards (WH-35): hunt +1 Technique; defeat or a good job +1 Trait; "
        "witch +3 Attribute, +2 Technique, +1 School. Spend them with 'affray character spend'.",
        (
            Field("reward", "list", "hunt, defeat or witch (WH-35); repeatable"),
            Field("note", "string", "the adventure, for the record", required=False, default=""),
        ),
        _advance,
        points_left,
    ),
    SheetChange(
        "spend",
        "Spend points (WH-32..WH-34), all or nothing, in this order: trades, schools, attributes, "
        "skills, techniques, traits. Options repeat: --attribute attack --attribute attack buys "
        "+2 Attack.",
        (
            Field(
                "trade_school",
                "integer",
                "trade this many School points for 5 Technique each",
                required=False,
                default=0,
                minimum=0,
            ),
            _many("school", "learn a school or its next level"),
            _many("attribute", "+1 attack, defense, max_poise, init, solid_damage, con/agility/will/fear_defense"),
            _many("skill", "+1 to a skill (2 Attribute points)"),
            _many("technique", "learn a card or passive"),
            _many("trait", "take a trait"),
        ),
        _spend,
        points_left,
        dry_run=True,
    ),
    SheetChange(
        "wound",
        "Carry Wounds (and afflictions) out of a fight onto the sheet (WH-19, WH-23).",
        (
            Field("wounds", "integer", "Wounds taken", minimum=1, positional=True),
            _many("affliction", "a WH-23 table entry"),
        ),
        _wound,
        points_left,
    ),
    SheetChange(
        "heal",
        "Heal 2 Health a day, 3 with full rest (WH-30).",
        (
            Field("days", "integer", "days of healing", minimum=1),
            Field("rest", "boolean", "nothing but rest somewhere comfortable", required=False, default=False),
        ),
        _heal,
        points_left,
    ),
    PartyReport(
        "leader",
        "The party leader: the PC with the most valuable hat, base value plus attached gems (WH-37).",
        "the party's WitchHammer sheets",
        (Field("seed", "integer", "dice for a roll-off if hats tie", required=False),),
        _leader,
    ),
)
