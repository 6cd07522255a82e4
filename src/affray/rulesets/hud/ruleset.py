"""The Sim HuD ruleset: Free Form, Dice Simplified and Combat Nerdified behind the ruleset contract.

Rules: WL-00..WL-22 and the rulings WL-B1..WL-B16 (``rules/hud.md``); a scene that names no mode is Free Form
(WL-B16, the scenario's default). The HuD declares everything in the open, so every seat sees the same view; only
the pending choices differ.
"""

from __future__ import annotations

from pathlib import Path

from affray.core.actions import ActionType
from affray.core.content import ContentLibrary
from affray.core.engine import (
    Action,
    CombatantReport,
    FightersDefaults,
    Rejected,
    StepResult,
    Viewer,
    bundled_content,
)
from affray.core.events import Event
from affray.core.journal import Journal, journal_for
from affray.core.memo import Memo
from affray.core.rng import RNG
from affray.core.scenario import ScenarioBase
from affray.rulesets.hud import emergency, freeform, nerdified, pursuit, simplified
from affray.rulesets.hud.actions import ACTION_TYPES
from affray.rulesets.hud.content_model import HudContent, HudScenario
from affray.rulesets.hud.legal import legal, window_now
from affray.rulesets.hud.observe import HudChoices, HudObservation
from affray.rulesets.hud.options import HudOptions
from affray.rulesets.hud.setup import HudSetup, at_range, build_state, prepare
from affray.rulesets.hud.state import HudState
from affray.rulesets.hud.views import OUT_STATUS, HudCombatantDetail, HudDetail, HudView, view
from affray.rulesets.hud.windows import pending

CONTENT_DIR = Path(__file__).parent / "content"


def builtin_content() -> ContentLibrary:
    """The ruleset's own content (``content/``), loaded once."""
    return bundled_content(HudContent, "hud", CONTENT_DIR)


class HudRuleset(FightersDefaults[HudState, HudSetup]):
    name = "hud"
    title = "Sim HuD: Free Form, Dice Simplified, Combat Nerdified"
    options_type = HudOptions
    scenario_type = HudScenario
    content_type = HudContent
    content_dir = CONTENT_DIR
    view_types = (HudDetail, HudCombatantDetail)

    def prepare(self, scenario: ScenarioBase, content: ContentLibrary) -> HudSetup:
        if not isinstance(scenario, HudScenario):
            raise TypeError(f"a HuD scenario is needed, not {type(scenario).__name__}")
        return prepare(scenario, content)

    def setup(
        self, setup: HudSetup, options: object, rng: RNG, journal: Journal | None = None, memo: Memo | None = None
    ) -> tuple[HudState, list[Event]]:
        if not isinstance(options, HudOptions):
            raise TypeError(f"HuD options are needed, not {type(options).__name__}")
        state, bands = build_state(setup, options)
        journal = journal_for(journal)
        if state.mode == "nerdified":
            nerdified.begin(state, rng, bands, journal)
        elif state.mode == "simplified":
            simplified.begin(state, rng, setup.get("first"), at_range(bands), journal)
        else:
            freeform.begin(state, rng, setup.get("first"), journal)
        return state, journal

    #: Who must act now (:func:`affray.rulesets.hud.windows.pending`; a plain function, called at every decision).
    pending = staticmethod(pending)

    def action_types(self) -> tuple[ActionType, ...]:
        """Every action type with its fields; a declaration's plan is a free parameter (no capped plan list)."""
        return ACTION_TYPES

    #: The actions ``actor`` may take now (:func:`affray.rulesets.hud.legal.legal`).
    legal = staticmethod(legal)

    def choices(self, state: HudState, actor: str, memo: Memo | None = None) -> HudChoices:
        """``actor``'s choices, their kinds answered from the state (:class:`.observe.HudChoices`)."""
        return HudChoices(state, actor, lambda: self.legal(state, actor, memo))

    def observe(self, state: HudState, viewer: Viewer, actor: str, memo: Memo | None = None) -> HudObservation:
        """What ``viewer``'s policy sees for ``actor``, read lazily (:mod:`affray.rulesets.hud.observe`)."""
        return HudObservation(state, viewer, actor, memo)

    def step(self, state: HudState, actor: str, action: Action, rng: RNG, journal: Journal | None = None) -> StepResult:
        """Apply ``actor``'s ``action``, writing the events into ``journal``. The decision due is the one
        :func:`~affray.rulesets.hud.windows.pending` names (a pursuit, then an exchange, then the round's phase); a
        trusted journal (an action from the actor's choices) skips checking that it is ``actor``'s to take."""
        journal = journal_for(journal)
        if journal.validate or state.outcome is not None:
            window = pending(state)
            if window is None or actor not in window.actors:
                return Rejected("not_your_turn", f"It is not {actor}'s turn to act.")
        if state.pursuit is not None:
            return pursuit.choose(state, rng, actor, action, journal)
        if state.exchange is not None:
            return nerdified.react(state, rng, actor, action, journal)
        if state.phase == "declare":
            if action["type"] != "declare":
                return Rejected("not_allowed_now", 'Declare the round\'s actions: {"type": "declare", "plan": [...]}.')
            return nerdified.declare(state, rng, actor, action, journal)
        if state.phase == "emergency":
            return emergency.act(state, rng, actor, action, journal)
        if state.mode == "simplified":
            return simplified.step(state, rng, actor, action, journal)
        return freeform.step(state, rng, actor, action, journal)

    def view(self, state: HudState, viewer: Viewer, memo: Memo | None = None) -> HudView:
        """The seat's typed view (:mod:`affray.rulesets.hud.views`); with ``memo=None`` built fresh."""
        return view(state, viewer, window_now(state, memo), memo)

    def report(self, state: HudState) -> dict[str, CombatantReport]:
        """How each combatant ended: down at 0 HP (WL-04, WL-08); the HuD has no death rule."""
        return {
            a: CombatantReport(
                f.side,
                f.out == "down",
                False,
                f.hp,
                f.max_hp,
                f.dealt,
                f.taken,
                (OUT_STATUS.get(f.out, f.out),) if f.out in ("escaped", "out") else (),
            )
            for a, f in state.fighters.items()
        }

    def gm_acts(self, state: HudState) -> bool:
        """The HuD gives the GM no calls of its own: every roll and choice is a combatant's."""
        return False

    def gm_secrets(self, state: HudState) -> list[tuple[str, object]]:
        """GM-level information hidden from the players: none (for the leak check)."""
        return []

    def secrets(self, state: HudState) -> list[tuple[str, object]]:
        """Hidden payloads and their owners: none, the HuD declares everything in the open (WL-09)."""
        return []

    def invariants(self, state: HudState) -> list[str]:
        """Broken invariants (for the fuzz tests and GM rulings): HP, action and penalty bounds."""
        problems = []
        for f in state.fighters.values():
            if f.hp > f.max_hp:
                problems.append(f"{f.id} has {f.hp} HP over its maximum {f.max_hp}")
            if not 0 <= f.defenses <= f.actions + state.options.max_additional_actions:
                problems.append(f"{f.id} has {f.defenses} defense actions")
            if not 0 <= f.additional_used <= state.options.max_additional_actions:
                problems.append(f"{f.id} used {f.additional_used} additional actions")
            if f.penalty not in (0, -2, -4) or f.penalty_next not in (0, -2):
                problems.append(f"{f.id} has penalties {f.penalty}/{f.penalty_next}")
            if f.out == "down" and f.hp > 0:
                problems.append(f"{f.id} is down with {f.hp} HP")
        return problems
