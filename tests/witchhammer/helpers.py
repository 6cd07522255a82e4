"""Build WitchHammer matches and states with chosen dice for rule tests."""

from __future__ import annotations

from typing import Any

from affray.core.content import ContentLibrary
from affray.core.engine import Accepted, Rejected, StepResult
from affray.core.events import Event
from affray.core.match import Match
from affray.core.scenario import validate_scenario
from affray.rulesets.witchhammer import PLUGIN as PLUGIN
from affray.rulesets.witchhammer import WitchHammerRuleset
from affray.rulesets.witchhammer.content_model import WitchHammerContent
from affray.rulesets.witchhammer.options import WitchHammerOptions
from affray.rulesets.witchhammer.ruleset import builtin_content
from affray.rulesets.witchhammer.setup import WitchHammerSetup, build_state
from affray.rulesets.witchhammer.state import Fighter, WitchHammerState

RULESET = WitchHammerRuleset()


class DiceRNG:
    """Scripted d20s (and other dice) for a test; the salts of sealed commits come from a counter (their own stream,
    as in every RNG since log format 3: they move no die).

    Every die advances ``index`` like a real RNG, so "the RNG did not move" can be asserted.
    """

    __slots__ = ("index", "salts", "values")

    def __init__(self, values: list[int] | None = None) -> None:
        self.values = list(values or [])
        self.index = 0
        self.salts = 0

    def salt(self) -> bytes:
        self.salts += 1
        return self.salts.to_bytes(16, "big")

    def die(self, sides: int) -> int:
        self.index += 1
        if not self.values:
            raise AssertionError(f"draw {self.index} (a d{sides}) was not scripted")
        value = self.values.pop(0)
        assert 1 <= value <= sides, f"scripted {value} is not a face of a d{sides}"
        return value


# Test-only cards: numbers chosen so each test's arithmetic is easy to follow.
TEST_CONTENT: dict[str, Any] = {
    "ruleset": "witchhammer",
    "cards": {
        "jab": {"name": "Jab", "init": 0, "below": [{"type": "attack", "attack": 0, "target": "nearest_enemy"}]},
        "wait": {"name": "Wait", "init": 0},
        "idle": {"name": "Idle", "init": 0},
        "guard": {"name": "Guard", "init": -5, "defense": 6},
        "quick_wait": {"name": "Quick Wait", "init": 5},
        "bolt": {
            "name": "Bolt",
            "init": 0,
            "below": [
                {"type": "attack", "attack": 0, "aspects": ["ranged"], "range": "short", "target": "nearest_enemy"}
            ],
        },
        "step_back": {"name": "Step Back", "init": 9, "below": [{"type": "move", "distance": 6, "direction": "away"}]},
        "lunge": {
            "name": "Lunge",
            "init": 0,
            "below": [{"type": "move", "distance": 3}, {"type": "attack", "attack": 0, "target": "nearest_enemy"}],
        },
        "bleed_cut": {
            "name": "Bleed Cut",
            "init": 0,
            "below": [
                {
                    "type": "attack",
                    "attack": 0,
                    "target": "nearest_enemy",
                    "on_hit": [{"type": "effect", "status": "bleeding", "rounds": 2}],
                }
            ],
        },
        "stun_cut": {
            "name": "Stun Cut",
            "init": 0,
            "below": [
                {
                    "type": "attack",
                    "attack": 0,
                    "target": "nearest_enemy",
                    "on_hit": [{"type": "effect", "status": "stunned", "rounds": 1}],
                }
            ],
        },
        "curse": {
            "name": "Curse",
            "init": 0,
            "below": [{"type": "effect", "status": "weakened", "rounds": 2, "to": "nearest_enemy"}],
        },
        "spent": {"name": "Spent", "one_shot": True, "init": 0},
        "calm": {
            "name": "Calm",
            "kind": "psych",
            "below": [{"type": "effect", "status": "focused", "rounds": "vignette", "to": "self"}],
        },
        "calm_once": {
            "name": "Calm Once",
            "kind": "psych",
            "one_shot": True,
            "below": [{"type": "effect", "status": "focused", "rounds": "vignette", "to": "self"}],
        },
    },
    "monsters": {
        "dummy": {"name": "Dummy", "poise": 10, "health": 10, "deck": ["jab", "wait", "guard"]},
    },
    "characters": {
        "hero": {"name": "Hero", "poise": 10, "health": 14},
    },
}


def library() -> ContentLibrary:
    lib = builtin_content().copy()
    lib.add_file(WitchHammerContent.model_validate(TEST_CONTENT), "tests/witchhammer/helpers.py")
    return lib


TEST_CARDS = [
    "jab",
    "wait",
    "idle",
    "guard",
    "quick_wait",
    "bolt",
    "step_back",
    "lunge",
    "bleed_cut",
    "stun_cut",
    "curse",
    "spent",
    "calm",
    "calm_once",
]


def fighter(cid: str, at: tuple[int, int], use: str = "hero", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": cid, "use": use, "at": list(at)}
    if use in ("hero", "dummy") and "deck" not in extra:
        out["deck"] = list(TEST_CARDS)
    out.update(extra)
    return out


def setup_of(
    a: list[dict[str, Any]], b: list[dict[str, Any]], map_: str | None = None, size: tuple[int, int] = (12, 12)
) -> WitchHammerSetup:
    data: dict[str, Any] = {
        "ruleset": "witchhammer",
        "size": list(size),
        "sides": [{"name": "A", "combatants": a}, {"name": "B", "combatants": b}],
    }
    if map_ is not None:
        data["map"] = map_
    scenario = validate_scenario(RULESET.scenario_type, data, "test.yaml")
    return RULESET.prepare(scenario, library())


def new_match(
    a: list[dict[str, Any]],
    b: list[dict[str, Any]],
    dice: list[int] | None = None,
    options: dict[str, Any] | None = None,
    map_: str | None = None,
) -> Match:
    """A match where every test hero holds only the test cards (options default: learned decks only)."""
    opts = {"general_school_deck": "learned", **(options or {})}
    return Match(PLUGIN, setup_of(a, b, map_), opts, rng=DiceRNG(dice))


def new_state(
    a: list[dict[str, Any]], b: list[dict[str, Any]], options: dict[str, Any] | None = None, map_: str | None = None
) -> WitchHammerState:
    """A bare state (no vignette started) for driving the turn functions directly."""
    opts = WitchHammerOptions(**{"general_school_deck": "learned", **(options or {})})
    return build_state(setup_of(a, b, map_), opts)


def give_card(state: WitchHammerState, f: Fighter, card: str) -> None:
    """Put ``card`` in force for ``f`` this round (as if revealed)."""
    f.card = state.cards[card]


def ok(result: StepResult) -> list[Event]:
    assert isinstance(result, Accepted), result
    return result.events


def refused(result: StepResult, code: str) -> Rejected:
    assert isinstance(result, Rejected), result
    assert result.code == code, result
    assert result.message.endswith(".") and len(result.message) > 20
    return result


def of(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def plan_all(match: Match, plans: dict[str, list[str]], psych: dict[str, list[str]] | None = None) -> list[Event]:
    """Commit psych cards (when the Psych phase is open) and then action cards for everyone, in order."""
    events: list[Event] = []
    window = match.pending()
    if window is not None and window.phase == "psych":
        for actor in window.actors:
            events += ok(match.act(actor, {"type": "commit", "cards": [*(psych or {}).get(actor, [])]}))
    window = match.pending()
    assert window is not None and window.phase == "planning", window
    for actor in [a for a in window.actors if a != "gm"]:
        events += ok(match.act(actor, {"type": "commit", "cards": [*plans.get(actor, [])]}))
    return events
