"""Builders for Spellchrome tests: small maps, inline sheets and scripted dice."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from affray.core.engine import Accepted, Rejected, StepResult
from affray.core.match import Match
from affray.core.plugin import plugin
from affray.core.rng import FastRNG, seed_from_int
from affray.rulesets.spellchrome.content_model import SpellchromeScenario
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState


class ScriptedRNG:
    """Dice from a script, in order; once the script is used up, seeded pseudo-random dice."""

    def __init__(self, values: Iterable[int] = (), seed: int = 0) -> None:
        self.values = list(values)
        self.index = 0
        self._fallback = FastRNG(seed)

    def salt(self) -> bytes:
        return self._fallback.salt()

    def feed(self, *values: int) -> None:
        self.values.extend(values)

    def die(self, sides: int) -> int:
        self.index += 1
        if self.values:
            value = self.values.pop(0)
            assert 1 <= value <= sides, f"scripted {value} does not fit a d{sides}"
            return value
        return self._fallback.die(sides)


def sheet(name: str, **fields: Any) -> dict[str, Any]:
    """An inline sign-less sheet with plain numbers (override any field)."""
    base: dict[str, Any] = {
        "name": name,
        "saves": [2, 2, 2],
        "max_hp": 20,
        "base_attack": 2,
        "weapons": ["longsword"],
        "speed_ft": 30,
    }
    base.update(fields)
    return base


def fighter(cid: str, pos: tuple[int, int], **fields: Any) -> dict[str, Any]:
    extra: dict[str, Any] = {k: fields.pop(k) for k in ("hp", "use") if k in fields}
    out: dict[str, Any] = {"id": cid, "position": list(pos), **extra}
    if "use" not in extra or fields:
        out["stats"] = sheet(fields.pop("name", cid.title()), **fields) if "use" not in extra else fields
    return out


def build(
    map_text: str,
    sides: Mapping[str, list[dict[str, Any]]],
    options: Mapping[str, Any] | None = None,
    dice: Iterable[int] = (),
    seed: int = 0,
) -> Match:
    """A match on ``map_text``. ``dice`` are scripted from the first initiative roll on (one d20 per
    combatant in file order), then the fallback generator (seeded with ``seed``) takes over."""
    data = {
        "ruleset": "spellchrome",
        "map": map_text,
        "sides": [{"name": n, "combatants": cs} for n, cs in sides.items()],
    }
    model = SpellchromeScenario.model_validate(data)
    record = plugin("spellchrome")
    ruleset = record.ruleset()
    setup = ruleset.prepare(model, ruleset.content())
    return Match(record, setup, options, rng=ScriptedRNG(dice, seed))


def state_of(match: Match) -> SpellchromeState:
    assert isinstance(match.state, SpellchromeState)
    return match.state


def who(match: Match, cid: str) -> Combatant:
    return state_of(match).combatants[cid]


def rng_of(match: Match) -> ScriptedRNG:
    assert isinstance(match.rng, ScriptedRNG)
    return match.rng


def act(match: Match, actor: str, action: dict[str, Any], *dice: int) -> Accepted:
    """Submit an action that must be accepted, with the dice it will roll scripted first."""
    rng_of(match).feed(*dice)
    result = match.act(actor, action)
    assert isinstance(result, Accepted), result
    return result


def refused(match: Match, actor: str, action: dict[str, Any]) -> Rejected:
    """Submit an action that must be refused, and check that nothing changed: state and RNG."""
    before, index = copy.deepcopy(match.ruleset.snapshot(match.state)), match.rng.index
    result: StepResult = match.act(actor, action)
    assert isinstance(result, Rejected), result
    assert result.message and result.code
    assert match.ruleset.snapshot(match.state) == before
    assert match.rng.index == index
    return result


def kinds(result: Accepted) -> list[str]:
    return [e.kind for e in result.events]


def window(match: Match) -> tuple[str, tuple[str, ...]]:
    pending = match.pending()
    assert pending is not None
    return pending.phase, pending.actors


#: A small map with one wall, for :func:`seeded`.
SMALL_MAP = "......\n......\n.#...."


def seeded(sides: Mapping[str, list[dict[str, Any]]], order: str, map_text: str = SMALL_MAP) -> Match:
    """A seeded match (one a GM ruling may rule on: it needs a seed to replay from) whose initiative order is
    ``order``, one letter per combatant id (SC-16): initiative bonuses 20, 10, 0, -10 in that order, and the first
    seed from 1 on that rolls it."""
    for cs in sides.values():
        for c in cs:
            c["stats"]["initiative_bonus"] = 20 - 10 * order.index(c["id"])
    data = {
        "ruleset": "spellchrome",
        "map": map_text,
        "sides": [{"name": n, "combatants": cs} for n, cs in sides.items()],
    }
    record = plugin("spellchrome")
    ruleset = record.ruleset()
    setup = ruleset.prepare(SpellchromeScenario.model_validate(data), ruleset.content())
    for seed in range(1, 100):
        match = Match(record, setup, seed=seed_from_int(seed))
        if state_of(match).order == list(order):
            return match
    raise AssertionError(f"no seed below 100 rolls the order {order}")
