"""The WitchHammer ruleset behind the ruleset contract (DESIGN.md contract 1).

Rules: WH-01..WH-30 and the rulings WH-B1..WH-B23 (``rules/witchhammer.md``), plus the WH-An rulings of
``docs/witchhammer.md``. The whole Violence phase resolves inside the step that completes the Planning phase,
since every choice is on the cards; so decisions happen only in the Psych and Planning windows (and the GM's
ruling on a failed death's-door save when that option is on).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from affray.core.actions import ActionType
from affray.core.content import ContentLibrary, load_pack
from affray.core.engine import (
    GM,
    Accepted,
    Action,
    ActionSpec,
    CombatantReport,
    Outcome,
    Rejected,
    StepResult,
    Viewer,
    Window,
)
from affray.core.events import Event, to_jsonable
from affray.core.memo import Memo
from affray.core.rng import RNG
from affray.rulesets.witchhammer import planning, vignette
from affray.rulesets.witchhammer.content_model import WitchHammerContent, WitchHammerScenario
from affray.rulesets.witchhammer.memo import per_object
from affray.rulesets.witchhammer.options import WitchHammerOptions
from affray.rulesets.witchhammer.setup import build_state, prepare
from affray.rulesets.witchhammer.state import WitchHammerState
from affray.rulesets.witchhammer.views import view

CONTENT_DIR = Path(__file__).parent / "content"
_LEGAL_CACHE: dict[int, tuple[Any, dict[Any, list[ActionSpec]]]] = {}


@cache
def builtin_content() -> ContentLibrary:
    return load_pack(WitchHammerContent, "witchhammer", [CONTENT_DIR])


def _legal_cache(state: WitchHammerState) -> dict[Any, list[ActionSpec]]:
    """Legal-action lists keyed by hand, shared by matches of one setup (their card table is one object)."""
    return per_object(_LEGAL_CACHE, state.cards, dict)


class WitchHammerRuleset:
    name = "witchhammer"
    title = "WitchHammer: vignettes of face-down cards, Poise and Health"
    options_type = WitchHammerOptions
    scenario_type = WitchHammerScenario
    content_type = WitchHammerContent

    def content(self) -> ContentLibrary:
        return builtin_content()

    def prepare(self, scenario: Any, content: ContentLibrary) -> dict[str, Any]:
        return prepare(scenario, content)

    def setup(self, setup: Mapping[str, Any], options: Any, rng: RNG) -> tuple[WitchHammerState, list[Event]]:
        state = build_state(setup, options)
        events: list[Event] = []
        vignette.start(state, rng, events)
        return state, events

    def pending(self, state: WitchHammerState) -> Window | None:
        return state.window

    def legal(self, state: WitchHammerState, actor: str, memo: Memo | None = None) -> list[ActionSpec]:
        window = state.window
        if window is None or actor not in window.actors:
            return []
        if window.phase == "deaths_door":
            return [ActionSpec({"type": "fate", "actor": a, "fate": fate}, f"{state.fighters[a].name} {fate}")
                    for a in state.pending_fates[:1] for fate in ("dies", "survives")]
        return planning.legal(state, actor, _legal_cache(state))

    def step(self, state: WitchHammerState, actor: str, action: Action, rng: RNG) -> StepResult:
        window = state.window
        kind = action.get("type")
        if window is None or actor not in window.actors:
            if state.phase in ("psych", "violence") and kind in ("place", "commit") and actor in state.fighters:
                return Rejected("planning_closed", "The Planning phase is not open now; cards cannot be placed.")
            return Rejected("not_your_turn", f"It is not {actor}'s turn to act.")
        events: list[Event] = []
        if window.phase == "deaths_door":
            return self._fate(state, action, events)
        if actor == GM:
            if kind != "timeout":
                return Rejected("bad_action", "The GM's action in this phase is {\"type\": \"timeout\"}.")
            refused = planning.timeout(state, rng, events)
            if refused is not None:
                return refused
        else:
            f = state.fighters[actor]
            checked = planning.check(state, f, action)
            if isinstance(checked, Rejected):
                return checked
            planning.apply(state, f, action, checked, rng, events)
        if planning.everyone_ready(state):
            state.board += 1  # the reveal and Violence change the board (positions, Poise, Health, statuses...)
            vignette.phase_done(state, rng, events)
        return Accepted(events)

    @staticmethod
    def _fate(state: WitchHammerState, action: Action, events: list[Event]) -> StepResult:
        who, fate = action.get("actor"), action.get("fate")
        if action.get("type") != "fate" or who not in state.pending_fates or fate not in ("dies", "survives"):
            return Rejected("bad_action", 'Rule on a failed save: {"type": "fate", "actor": id, "fate": '
                                          '"dies" or "survives"}.')
        state.board += 1  # the GM's ruling changes a fighter's fate and Health
        vignette.rule_fate(state, str(who), str(fate), events)
        return Accepted(events)

    def view(self, state: WitchHammerState, viewer: Viewer, memo: Memo | None = None) -> dict[str, Any]:
        return view(state, viewer, state.window)

    view_types: tuple[type[Any], ...] = ()  # transitional (issue 11): the typed view comes with its detail types

    def action_types(self) -> tuple[ActionType, ...]:
        return ()  # transitional (issue 11): declarations come with the typed actions

    def outcome(self, state: WitchHammerState) -> Outcome | None:
        return state.outcome

    def snapshot(self, state: WitchHammerState) -> dict[str, Any]:
        data: dict[str, Any] = to_jsonable({k: getattr(state, k) for k in (
            "vignette", "round", "phase", "window", "order", "initiative", "targets", "pending_fates", "outcome",
            "winner", "end_reason")})
        data["fighters"] = {a: {k: v for k, v in to_jsonable(f).items() if k != "public"}  # a view cache
                            for a, f in state.fighters.items()}
        return data

    def gm_secrets(self, state: WitchHammerState) -> list[tuple[str, Any]]:
        """GM-level information hidden from the players: none (for the leak check)."""
        return []

    def secrets(self, state: WitchHammerState) -> list[tuple[str, Any]]:
        """Every face-down card not yet revealed, as (owner, sealed payload): for the conformance leak check."""
        out: list[tuple[str, Any]] = []
        for f in state.fighters.values():
            if f.psych is not None and not f.psych_card:
                out.append((f.id, f.psych.payload))
            out += [(f.id, s.payload) for s in f.slots[f.shown:]]
        return out

    def report(self, state: WitchHammerState) -> dict[str, CombatantReport]:
        """How each combatant ended: down at 0 Health or below (WH-22), dead after a failed death's-door save
        (WH-29, WH-B8), afflictions (WH-23); Poise left and wounds as extras."""
        out = {}
        for a, f in state.fighters.items():
            conditions = tuple(f.afflictions) + ((f"fate: {f.fate}",) if f.fate else ())
            out[a] = CombatantReport(f.side, bool(f.out), f.out == "dead" or f.fate == "dead", f.health,
                                     f.max_health, f.dealt, f.taken, conditions,
                                     {"poise_left": float(f.poise), "wounds": float(f.max_health - f.health)})
        return out

    def invariants(self, state: WitchHammerState) -> list[str]:
        """Bounds that must hold after every step (checked by the conformance fuzz)."""
        problems = []
        for f in state.fighters.values():
            if not 0 <= f.poise <= f.max_poise:
                problems.append(f"{f.id}: Poise {f.poise} outside 0..{f.max_poise}")
            if f.health > f.max_health:
                problems.append(f"{f.id}: Health {f.health} above max {f.max_health}")
            if f.up and f.health <= 0:
                problems.append(f"{f.id}: acting at {f.health} Health")
            if len(f.slots) > planning.SLOTS or any(n < 0 for n in f.hand.values()):
                problems.append(f"{f.id}: {len(f.slots)} slots, hand {f.hand}")
        return problems

    def rounds(self, state: WitchHammerState) -> int:
        return state.round

    def names(self, state: WitchHammerState) -> dict[str, str]:
        return {a: f.name for a, f in state.fighters.items()}

    def sides(self, state: WitchHammerState) -> dict[str, str]:
        return {a: f.side for a, f in state.fighters.items()}
