"""The WitchHammer ruleset behind the ruleset contract (DESIGN.md contract 1).

Rules: WH-01..WH-30 and the rulings WH-B1..WH-B23 (``rules/witchhammer.md``), plus the WH-An rulings of
``docs/witchhammer.md``. The whole Violence phase resolves inside the step that completes the Planning phase,
since every choice is on the cards; so decisions happen only in the Psych and Planning windows (and the GM's
ruling on a failed death's-door save when that option is on).
"""

from __future__ import annotations

from pathlib import Path

from affray.core.actions import ActionType
from affray.core.content import ContentLibrary
from affray.core.engine import (
    GM,
    Accepted,
    Action,
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
from affray.core.json import JsonObject
from affray.core.memo import Memo
from affray.core.rng import RNG
from affray.core.scenario import ScenarioBase
from affray.rulesets.witchhammer import planning, vignette
from affray.rulesets.witchhammer.actions import ACTION_TYPES, SLOTS
from affray.rulesets.witchhammer.choices import WitchHammerChoices
from affray.rulesets.witchhammer.content_model import WitchHammerContent, WitchHammerScenario
from affray.rulesets.witchhammer.legal import legal
from affray.rulesets.witchhammer.observe import WitchHammerObservation
from affray.rulesets.witchhammer.options import WitchHammerOptions
from affray.rulesets.witchhammer.setup import WitchHammerSetup, build_state, prepare
from affray.rulesets.witchhammer.state import WitchHammerState
from affray.rulesets.witchhammer.view_types import FaceDown, WitchHammerCombatantDetail, WitchHammerDetail
from affray.rulesets.witchhammer.views import WitchHammerView, view
from affray.rulesets.witchhammer.wounds import check_down

CONTENT_DIR = Path(__file__).parent / "content"


def builtin_content() -> ContentLibrary:
    """The ruleset's own content (``content/``), loaded once."""
    return bundled_content(WitchHammerContent, "witchhammer", CONTENT_DIR)


class WitchHammerRuleset(FightersDefaults[WitchHammerState, WitchHammerSetup]):
    name = "witchhammer"
    title = "WitchHammer: vignettes of face-down cards, Poise and Health"
    options_type = WitchHammerOptions
    scenario_type = WitchHammerScenario
    content_type = WitchHammerContent
    content_dir = CONTENT_DIR
    view_types = (WitchHammerDetail, WitchHammerCombatantDetail)

    def prepare(self, scenario: ScenarioBase, content: ContentLibrary) -> WitchHammerSetup:
        if not isinstance(scenario, WitchHammerScenario):
            raise TypeError(f"a WitchHammer scenario is needed, not {type(scenario).__name__}")
        return prepare(scenario, content)

    def setup(
        self,
        setup: WitchHammerSetup,
        options: object,
        rng: RNG,
        journal: Journal | None = None,
        memo: Memo | None = None,
    ) -> tuple[WitchHammerState, list[Event]]:
        if not isinstance(options, WitchHammerOptions):
            raise TypeError(f"WitchHammer options are needed, not {type(options).__name__}")
        state = build_state(setup, options, memo)
        journal = journal_for(journal)
        for f in state.fighters.values():  # WH-22: starting at 0 Health or less, whatever the scenario says
            check_down(state, f, journal)
        vignette.start(state, rng, journal)
        return state, journal

    def pending(self, state: WitchHammerState) -> Window | None:
        return state.window

    def action_types(self) -> tuple[ActionType, ...]:
        return ACTION_TYPES

    #: What ``actor`` may do now (:func:`affray.rulesets.witchhammer.legal.legal`).
    legal = staticmethod(legal)

    def choices(self, state: WitchHammerState, actor: str, memo: Memo | None = None) -> WitchHammerChoices:
        """``actor``'s legal actions, answered from the state where that pays (:mod:`.choices`)."""
        return WitchHammerChoices(state, actor, lambda: self.legal(state, actor, memo))

    def observe(
        self, state: WitchHammerState, viewer: Viewer, actor: str, memo: Memo | None = None
    ) -> WitchHammerObservation:
        """What ``actor``'s policy sees through ``viewer``: typed, read-only and lazy (:mod:`.observe`)."""
        return WitchHammerObservation(state, viewer, actor, memo if memo is not None else Memo())

    def step(
        self, state: WitchHammerState, actor: str, action: Action, rng: RNG, journal: Journal | None = None
    ) -> StepResult:
        """Apply ``actor``'s ``action``. Its events go to ``journal`` (a loud one when none is given); a trusted
        journal (``validate`` off: the action came from the legal list) skips the check of the cards, which refuses
        only what the listing never offers. The same dice and state either way."""
        if journal is None:  # journal_for, inline: every decision steps
            journal = Journal()
        window = state.window
        kind = action.get("type")
        if window is None or actor not in window.actors:
            if state.phase in ("psych", "violence") and kind in ("place", "commit") and actor in state.fighters:
                return Rejected("planning_closed", "The Planning phase is not open now; cards cannot be placed.")
            return Rejected("not_your_turn", f"It is not {actor}'s turn to act.")
        if window.phase == "deaths_door":
            return self._fate(state, action, journal)
        if actor == GM:
            if kind != "timeout":
                return Rejected("bad_action", 'The GM\'s action in this phase is {"type": "timeout"}.')
            refused = planning.timeout(state, rng, journal)
            if refused is not None:
                return refused
        else:
            f = state.fighters[actor]
            checked = planning.check(state, f, action) if journal.validate else planning.placed(action)
            if isinstance(checked, Rejected):
                return checked
            planning.apply(state, f, action, checked, rng, journal)
        if planning.everyone_ready(state):
            state.board += 1  # the reveal and Violence change the board (positions, Poise, Health, statuses...)
            vignette.phase_done(state, rng, journal)
        return Accepted(journal)

    @staticmethod
    def _fate(state: WitchHammerState, action: Action, journal: Journal) -> StepResult:
        who, fate = action.get("actor"), action.get("fate")
        if action.get("type") != "fate" or who not in state.pending_fates or fate not in ("dies", "survives"):
            return Rejected(
                "bad_action", 'Rule on a failed save: {"type": "fate", "actor": id, "fate": "dies" or "survives"}.'
            )
        state.board += 1  # the GM's ruling changes a fighter's fate and Health
        vignette.rule_fate(state, str(who), str(fate), journal)
        return Accepted(journal)

    def view(self, state: WitchHammerState, viewer: Viewer, memo: Memo | None = None) -> WitchHammerView:
        return view(state, viewer, state.window, memo)

    def snapshot(self, state: WitchHammerState) -> JsonObject:
        data: JsonObject = to_jsonable(
            {
                k: getattr(state, k)
                for k in (
                    "vignette",
                    "round",
                    "phase",
                    "window",
                    "order",
                    "initiative",
                    "targets",
                    "pending_fates",
                    "outcome",
                    "winner",
                    "end_reason",
                )
            }
        )
        data["fighters"] = {a: to_jsonable(f) for a, f in state.fighters.items()}
        return data

    def gm_acts(self, state: WitchHammerState) -> bool:
        """The GM rules on a PC's failed death's-door save after the fight (WH-29), so it acts when a PC fights."""
        return any(f.kind == "pc" for f in state.fighters.values())

    def gm_secrets(self, state: WitchHammerState) -> list[tuple[str, object]]:
        """GM-level information: each combatant's deck, open to the seat that plays it and to the GM only (for the
        leak check). A deck equal to another combatant's is left out: the check finds values by their text, and
        the other's seat may rightly see its own."""
        decks = [f.deck for f in state.fighters.values()]
        return [(f.id, dict(f.deck)) for f in state.fighters.values() if decks.count(f.deck) == 1]

    def secrets(self, state: WitchHammerState) -> list[tuple[str, object]]:
        """Every face-down card not yet revealed, as (owner, the face-down card as its owner's view shows it:
        seal, digest and card), for the conformance leak check: no seat but the owner's may see it opened, the
        GM's included when it does not play the owner (DESIGN.md contract 6)."""
        out: list[tuple[str, object]] = []
        for f in state.fighters.values():
            if f.psych is not None and not f.psych_card:
                out.append((f.id, to_jsonable(FaceDown(f.psych.seal, f.psych.digest, f.psych.payload["card"]))))
            out += [(f.id, to_jsonable(FaceDown(s.seal, s.digest, s.payload["card"]))) for s in f.slots[f.shown :]]
        return out

    def report(self, state: WitchHammerState) -> dict[str, CombatantReport]:
        """How each combatant ended: down at 0 Health or below (WH-22), dead after a failed death's-door save
        (WH-29, WH-B8), afflictions (WH-23); Poise left and wounds as extras."""
        out = {}
        for a, f in state.fighters.items():
            conditions = tuple(f.afflictions) + ((f"fate: {f.fate}",) if f.fate else ())
            out[a] = CombatantReport(
                f.side,
                bool(f.out),
                f.out == "dead" or f.fate == "dead",
                f.health,
                f.max_health,
                f.dealt,
                f.taken,
                conditions,
                {"poise_left": float(f.poise), "wounds": float(f.max_health - f.health)},
            )
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
            if len(f.slots) > SLOTS or any(n < 0 for n in f.hand.values()):
                problems.append(f"{f.id}: {len(f.slots)} slots, hand {f.hand}")
        return problems
