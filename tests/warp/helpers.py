"""Build WaRP matches with scripted dice for rule tests.

Initiative defaults to the seating order here (PCs in file order, then GM characters), so a test's dice
script starts with the first attack's dice.
"""

from __future__ import annotations

from typing import Any

from affray.core.engine import Accepted, Rejected, StepResult
from affray.core.events import Event
from affray.core.match import Match
from affray.core.rng import ScriptedRNG
from affray.rulesets.warp import PLUGIN as PLUGIN
from affray.rulesets.warp import WarpRuleset
from affray.rulesets.warp.content_model import WarpScenario
from affray.rulesets.warp.events import PoolRolled
from affray.rulesets.warp.ruleset import builtin_content
from affray.rulesets.warp.state import Fighter, WarpState

RULESET = WarpRuleset()
PLACEMENT = (
    "position",
    "hp",
    "cover",
    "cover_nearby",
    "unaware",
    "protecting",
    "high_ground",
    "name",
    "controller",
    "seat",
)


def fighter(cid: str, use: str | None = None, **fields: Any) -> dict[str, Any]:
    """A scenario combatant: placement fields stay on it, anything else becomes inline stats."""
    out: dict[str, Any] = {"id": cid}
    if use:
        out["use"] = use
    for key in PLACEMENT:
        if key in fields:
            out[key] = fields.pop(key)
    if "max_hp" in fields:
        fields["hp"] = fields.pop("max_hp")
    if fields:
        out["stats"] = fields
    if use is None and "name" not in out:
        out.setdefault("stats", {})["name"] = cid.title()
    return out


def warp_match(
    a: list[dict[str, Any]],
    b: list[dict[str, Any]],
    dice: list[int],
    options: dict[str, Any] | None = None,
    mode: str = "combat",
    darkness: str = "none",
) -> Match:
    """Side A against side B on scripted dice, initiative by seating unless the options say otherwise."""
    opts = {"initiative": "seating_gm_last", **(options or {})}
    data: dict[str, Any] = {
        "ruleset": "warp",
        "mode": mode,
        "darkness": darkness,
        "options": opts,
        "sides": [{"name": "A", "combatants": a}, {"name": "B", "combatants": b}],
    }
    setup = RULESET.prepare(WarpScenario.model_validate(data), builtin_content())
    return Match(PLUGIN, setup, opts, rng=ScriptedRNG(dice))


def state(match: Match) -> WarpState:
    assert isinstance(match.state, WarpState)
    return match.state


def who(match: Match, cid: str) -> Fighter:
    return state(match).fighters[cid]


def ok(result: StepResult) -> list[Event]:
    assert isinstance(result, Accepted), result
    return result.events


def rejected(match: Match, actor: str, action: dict[str, Any]) -> Rejected:
    """Submit ``action`` and check it was refused without changing anything (contract 2)."""
    before, draws, log = RULESET.snapshot(match.state), match.rng.index, len(match.log)
    result = match.act(actor, action)
    assert isinstance(result, Rejected), result
    assert result.message.endswith(".")
    assert RULESET.snapshot(match.state) == before and match.rng.index == draws and len(match.log) == log
    return result


def rolls(events: list[Event], purpose: str) -> list[PoolRolled]:
    return [e for e in events if isinstance(e, PoolRolled) and e.purpose == purpose]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def attack(target: str, **fields: Any) -> dict[str, Any]:
    return {"type": "attack", "target": target, **fields}


# Inline characters used across the tests (21 HP unless said otherwise, WR-B9).
def brawler(cid: str, dice: int = 3, **fields: Any) -> dict[str, Any]:
    """A PC with a combat trait (Street Brawler) and bare hands."""
    return fighter(cid, traits={"street_brawler": dice}, **fields)


def thug(cid: str, dice: int = 3, **fields: Any) -> dict[str, Any]:
    """A GM character with a combat trait."""
    return fighter(cid, pc=False, traits={"street_brawler": dice}, **fields)
