"""Build HuD matches with scripted dice for rule tests."""

from __future__ import annotations

from typing import Any

from affray.core.engine import Accepted, Action, Rejected, StepResult
from affray.core.events import Event
from affray.core.match import Match
from affray.core.rng import ScriptedRNG
from affray.rulesets.hud import PLUGIN as PLUGIN
from affray.rulesets.hud import HudRuleset
from affray.rulesets.hud.content_model import HudScenario
from affray.rulesets.hud.ruleset import builtin_content

RULESET = HudRuleset()


def combatant(cid: str, use: str | None = None, **stats: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": cid}
    if use:
        out["use"] = use
    for key in ("at_range", "band", "distance", "hp", "name"):
        if key in stats:
            out[key] = stats.pop(key)
    if stats:
        out["stats"] = stats
    return out


def hud_match(
    mode: str,
    a: dict[str, Any],
    b: dict[str, Any],
    dice: list[int],
    options: dict[str, Any] | None = None,
    first: str | None = None,
    extra: dict[str, Any] | None = None,
) -> Match:
    """A two-sided match (``extra`` joins side B) on scripted dice.

    The emergency prompt at each initiative step (WL-17, option ``emergency_actions``) is switched off unless
    ``options`` set it, so that tests of other rules script only the decisions they are about."""
    options = {"emergency_actions": "defense", **(options or {})}
    data: dict[str, Any] = {
        "ruleset": "hud",
        "mode": mode,
        "options": options,
        "sides": [{"name": "A", "combatants": [a]}, {"name": "B", "combatants": [b] + ([extra] if extra else [])}],
    }
    if first:
        data["first"] = first
    scenario = HudScenario.model_validate(data)
    setup = RULESET.prepare(scenario, builtin_content())
    return Match(PLUGIN, setup, options, rng=ScriptedRNG(dice))


def declare(match: Match, actor: str, *items: Action, additional: bool = False) -> StepResult:
    return match.act(actor, {"type": "declare", "plan": [*items], "additional": additional})


def attack(target: str) -> Action:
    return {"type": "attack", "target": target}


DEFENSE: Action = {"type": "defense"}


def ok(result: StepResult) -> list[Event]:
    assert isinstance(result, Accepted), result
    return result.events


def rejected(match: Match, actor: str, action: dict[str, Any]) -> Rejected:
    """Submit ``action`` and check it was refused without changing anything."""
    before, draws, log = RULESET.snapshot(match.state), match.rng.index, len(match.log)
    result = match.act(actor, action)
    assert isinstance(result, Rejected), result
    assert RULESET.snapshot(match.state) == before and match.rng.index == draws and len(match.log) == log
    return result


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def totals(events: list[Event], purpose: str) -> list[int]:
    return [e.roll.total for e in events if e.kind == "rolled" and e.purpose == purpose]  # type: ignore[attr-defined]
