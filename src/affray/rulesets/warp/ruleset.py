"""The WaRP (Over the Edge) ruleset behind the ruleset contract.

Rules: WR-01..WR-35 and the rulings WR-B1..WR-B15 (``rules/warp.md``), plus the engine's own rulings
WR-X1..WR-X12 (``docs/warp.md``). Two modes: ``combat`` (rounds, initiative, attacks) and ``gestalt``
(one roll each, summed per side, WR-35).

``setup`` and ``step`` write their events into the journal they are given (:mod:`affray.core.journal`): a quiet one
gets no pool or armour dice records and none of the frequent events, and a journal that does not validate (the
actor took its action from :meth:`WarpRuleset.choices`) skips the window and attack checks; the dice drawn and the
state reached are the same either way (``tests/warp/test_fast.py``). Policies see a :class:`WarpObservation` and ask
a :class:`WarpChoices` (the policy seams of core/policy.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from affray.core.actions import ActionType
from affray.core.content import ContentLibrary
from affray.core.engine import (
    GM,
    Accepted,
    Action,
    ActionSpec,
    CombatantReport,
    FightersDefaults,
    Rejected,
    StepResult,
    Viewer,
    Window,
    bundled_content,
)
from affray.core.events import Event, to_jsonable
from affray.core.journal import Journal, journal_for
from affray.core.memo import Memo
from affray.core.rng import RNG
from affray.core.scenario import ScenarioBase
from affray.rulesets.warp import decisions, gestalt, turns
from affray.rulesets.warp.actions import ACTION_TYPES
from affray.rulesets.warp.choices import WarpChoices
from affray.rulesets.warp.content_model import WarpContent, WarpScenario
from affray.rulesets.warp.gang import gang_bound_problems
from affray.rulesets.warp.legal import decision_specs, turn_specs
from affray.rulesets.warp.observe import WarpObservation
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.resolution import continue_fight
from affray.rulesets.warp.setup import WarpSetup, build_state, prepare
from affray.rulesets.warp.state import WarpState
from affray.rulesets.warp.turn_actions import turn_step
from affray.rulesets.warp.view_types import WarpCombatantDetail, WarpDetail, WarpView
from affray.rulesets.warp.views import gestalt_total, sheet, view

CONTENT_DIR = Path(__file__).parent / "content"
HANDLERS = {**decisions.HANDLERS, **gestalt.HANDLERS}
PROMPTS = {
    "initiative": "Spend Experience Pool dice on initiative?",
    "defend": "Choose how to defend",
    "ruling": "GM: rule on this attack",
    "plea": "At death's door: give a reason to live, or let go",
    "verdict": "GM: does the reason to live convince you?",
    "serious": "GM: what kind of serious wound?",
    "gestalt_roll": "Roll for the gestalt fight",
    "gestalt_verdict": "GM: the result is close; let it stand or overturn it?",
}


def builtin_content() -> ContentLibrary:
    """The ruleset's own content (``content/``), loaded once."""
    return bundled_content(WarpContent, "warp", CONTENT_DIR)


class WarpRuleset(FightersDefaults[WarpState, WarpSetup]):
    name = "warp"
    title = "WaRP (Over the Edge): trait dice, damage factors and armour dice"
    options_type = WarpOptions
    scenario_type = WarpScenario
    content_type = WarpContent
    content_dir = CONTENT_DIR
    view_types = (WarpDetail, WarpCombatantDetail)

    def prepare(self, scenario: ScenarioBase, content: ContentLibrary) -> WarpSetup:
        if not isinstance(scenario, WarpScenario):
            raise TypeError(f"a WaRP scenario is needed, not {type(scenario).__name__}")
        return prepare(scenario, content)

    def setup(
        self, setup: WarpSetup, options: object, rng: RNG, journal: Journal | None = None, memo: Memo | None = None
    ) -> tuple[WarpState, list[Event]]:
        if not isinstance(options, WarpOptions):
            raise TypeError(f"WaRP options are needed, not {type(options).__name__}")
        state = build_state(setup, options)
        events = journal_for(journal)
        if state.mode == "gestalt":
            gestalt.begin(state, rng, events)
        else:
            turns.begin(state, rng, events)
        return state, events

    def pending(self, state: WarpState) -> Window | None:
        """Who must act now (a few comparisons: cheaper to work out than to cache)."""
        if state.outcome is not None:
            return None
        if state.decisions:
            d = state.decisions[0]
            return Window(d.kind, (d.actor,), PROMPTS[d.kind])
        if state.phase == "turn":
            actors = turns.turn_actors(state)
            return Window("turn", actors, "Your turn") if actors else None
        if state.phase == "round_end":
            holders = tuple(h.id for h in state.holders())
            return Window("held", holders, "Use the held action now, or let it go") if holders else None
        return None

    def action_types(self) -> tuple[ActionType, ...]:
        return ACTION_TYPES

    def legal(self, state: WarpState, actor: str, memo: Memo | None = None) -> list[ActionSpec]:
        """The actions on offer to ``actor`` now; with a memo, built once per match version."""
        if memo is None:
            return self._legal(state, actor, self.pending(state))
        return list(memo.now(("warp-legal", actor), lambda: self._legal(state, actor, self._window(state, memo))))

    def _window(self, state: WarpState, memo: Memo) -> Window | None:
        """The window, worked out once per match version for the views and legal lists built in it."""
        return memo.now("warp-window", lambda: self.pending(state))

    def _legal(self, state: WarpState, actor: str, window: Window | None) -> list[ActionSpec]:
        if window is None or actor not in window.actors:
            return []
        if state.decisions:
            return decision_specs(state, state.decisions[0])
        return turn_specs(state, state.fighters[actor], window.phase)

    def choices(self, state: WarpState, actor: str, memo: Memo | None = None) -> WarpChoices:
        """``actor``'s legal actions, answered on demand (:mod:`affray.rulesets.warp.choices`)."""
        return WarpChoices(actor, lambda: self.legal(state, actor, memo), state, self._window_of(state, memo), memo)

    def observe(self, state: WarpState, viewer: Viewer, actor: str, memo: Memo | None = None) -> WarpObservation:
        """What ``actor``'s policy sees from ``viewer``'s seat (:mod:`affray.rulesets.warp.observe`)."""
        kept = memo if memo is not None else Memo()  # a one-off observation still builds its view once
        return WarpObservation(
            state, viewer, actor, self._window_of(state, kept), lambda: self.view(state, viewer, kept), kept
        )

    def _window_of(self, state: WarpState, memo: Memo | None) -> Callable[[], Window | None]:
        if memo is None:
            return lambda: self.pending(state)
        return lambda: self._window(state, memo)

    def step(
        self, state: WarpState, actor: str, action: Action, rng: RNG, journal: Journal | None = None
    ) -> StepResult:
        events = journal_for(journal)
        if events.validate:
            window = self.pending(state)
            if window is None or actor not in window.actors:
                return Rejected("not_your_turn", f"It is not {actor}'s turn to act.")
            phase = window.phase
        else:  # the actor took the action from its choices, so it is in the window: only its phase matters
            phase = "turn" if state.phase == "turn" else "held"
        kind = action.get("type")
        if state.decisions:
            d = state.decisions[0]
            types, handler = HANDLERS[d.kind]
            if kind not in types:
                return Rejected("not_allowed_now", f"Now the answer is one of: {', '.join(types)}.")
            problem = handler(state, rng, d, action, events)
            if problem is not None:
                return problem
            state.decisions.remove(d)
            state.slot += 1
        else:
            result = turn_step(state, rng, state.fighters[actor], action, phase, events)
            if isinstance(result, Rejected):
                return result
        continue_fight(state, rng, events)
        return Accepted(events)

    def view(self, state: WarpState, viewer: Viewer, memo: Memo | None = None) -> WarpView:
        if memo is None:
            return view(state, viewer, self.pending(state))
        return view(state, viewer, self._window(state, memo), memo)

    def report(self, state: WarpState) -> dict[str, CombatantReport]:
        """How each fighter ended (WR-25, WR-26): down or worse, dead, HP left and serious wounds."""
        out = {}
        for a, f in state.fighters.items():
            conditions = [f.status] if f.status not in ("fighting", "down") else []
            if f.status == "down" and f.down_state:
                conditions.append(f.down_state)
            conditions += [f"serious wound: {s.get('kind', 'serious')}" for s in f.serious]
            out[a] = CombatantReport(
                f.side,
                f.status in ("down", "dying", "dead", "beaten"),
                f.status == "dead",
                f.hp,
                f.max_hp,
                f.dealt,
                f.taken,
                tuple(conditions),
                {"stun": float(f.stun)},
            )
        return out

    def gm_acts(self, state: WarpState) -> bool:
        """The GM seat makes the GM's calls only with ``gm_decisions: table`` (ruling WR-X1)."""
        return turns.gm_decides(state)

    def gm_secrets(self, state: WarpState) -> list[tuple[str, object]]:
        """GM characters' numbers in their JSON form: GM-level, hidden from the players (for the leak check)."""
        return [(f.id, to_jsonable(sheet(f))) for f in state.fighters.values() if not f.pc]

    def secrets(self, state: WarpState) -> list[tuple[str, object]]:
        """A side of GM characters' secret gestalt total until the result (the GM's hidden roll; for the leak
        check). WaRP has no face-down choices, so no sealed events."""
        out: list[tuple[str, object]] = []
        g = state.gestalt
        if g is not None and not g.resolved:
            out += [
                (GM, to_jsonable(gestalt_total(side, total)))
                for side, total in gestalt.totals(state).items()
                if gestalt.gm_side(state, side)
            ]
        return out

    def invariants(self, state: WarpState) -> list[str]:
        """Bounds that must hold after every step (checked by the conformance fuzz)."""
        problems = []
        for f in state.fighters.values():
            if f.hp > f.max_hp or f.stun < 0 or f.experience < 0:
                problems.append(f"{f.id}: HP {f.hp}/{f.max_hp}, stun {f.stun}, experience {f.experience}")
            if f.status == "fighting" and f.hp - f.stun <= 0:
                problems.append(f"{f.id} is fighting at {f.hp - f.stun} effective HP")
            if f.status not in ("fighting", "down", "dying", "dead", "escaped", "beaten", "out"):
                problems.append(f"{f.id} has an unknown status {f.status!r}")
            if any(n < 0 for n in f.carried.values()) or f.wielding not in f.arms:
                problems.append(f"{f.id} carries {f.carried} and wields {f.wielding!r}")
        return problems + gang_bound_problems(state)
