"""The Spellchrome ruleset behind the ruleset contract (DESIGN.md, contract 1).

Rules: SC-01..SC-28 and the rulings SC-B1..SC-B9 (``rules/spellchrome.md``), plus the rulings this
implementation added (SC-R*, ``docs/spellchrome.md``). Two kinds of window: ``turn`` (the acting
combatant's move and standard actions) and ``attack_of_opportunity`` (a foe decides whether to punish
a provoking action, which waits until it has: SC-26, SC-27).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from affray.core.actions import ActionType
from affray.core.content import ContentLibrary
from affray.core.engine import (
    Accepted,
    Action,
    ActionSpec,
    CombatantReport,
    Rejected,
    RulesetDefaults,
    StepResult,
    Viewer,
    Window,
    bundled_content,
)
from affray.core.events import Event
from affray.core.journal import Journal, journal_for
from affray.core.memo import Memo
from affray.core.policy import Choices
from affray.core.rng import RNG
from affray.core.scenario import ScenarioBase
from affray.rulesets.spellchrome import turns
from affray.rulesets.spellchrome.actions import ACTION_TYPES
from affray.rulesets.spellchrome.choices import choices_for
from affray.rulesets.spellchrome.combat import answer_opportunity
from affray.rulesets.spellchrome.content_model import SpellchromeContent, SpellchromeScenario
from affray.rulesets.spellchrome.legal import opportunity_actions, turn_actions
from affray.rulesets.spellchrome.movement import in_the_way, threateners
from affray.rulesets.spellchrome.observe import SpellchromeObservation
from affray.rulesets.spellchrome.options import SpellchromeOptions
from affray.rulesets.spellchrome.resolution import check_turn_action, resume, trusted_turn_action
from affray.rulesets.spellchrome.setup import SpellchromeSetup, build_state, prepare
from affray.rulesets.spellchrome.state import SpellchromeState
from affray.rulesets.spellchrome.views import SpellchromeCombatantDetail, SpellchromeDetail, SpellchromeView, view

CONTENT_DIR = Path(__file__).parent / "content"
OPPORTUNITY_ACTIONS = ("attack_of_opportunity", "decline")
TURN_PROMPT = "Your turn: a move action and a standard action"  # SC-15
AFTERMATH_PROMPT = "The fight is over and someone is dying: first aid, healing, moving, or end the turn"  # SC-04, SC-06


@lru_cache(maxsize=1024)
def _turn_window(phase: str, actor: str) -> Window:
    """The window of ``actor``'s turn or aftermath turn (SC-15, SC-04): the same immutable value every time it is
    asked, so it is made once per actor."""
    return Window(phase, (actor,), AFTERMATH_PROMPT if phase == "aftermath" else TURN_PROMPT)


def builtin_content() -> ContentLibrary:
    """The ruleset's own content (``content/``), loaded once."""
    return bundled_content(SpellchromeContent, "spellchrome", CONTENT_DIR)


class SpellchromeRuleset(RulesetDefaults[SpellchromeState, SpellchromeSetup]):
    name = "spellchrome"
    title = "Spellchrome RPG: combat on the battle grid"
    options_type = SpellchromeOptions
    scenario_type = SpellchromeScenario
    content_type = SpellchromeContent
    content_dir = CONTENT_DIR
    view_types = (SpellchromeDetail, SpellchromeCombatantDetail)

    def prepare(self, scenario: ScenarioBase, content: ContentLibrary) -> SpellchromeSetup:
        if not isinstance(scenario, SpellchromeScenario):
            raise TypeError(f"a Spellchrome scenario is needed, not {type(scenario).__name__}")
        return prepare(scenario, content)

    def setup(
        self,
        setup: SpellchromeSetup,
        options: object,
        rng: RNG,
        journal: Journal | None = None,
        memo: Memo | None = None,
    ) -> tuple[SpellchromeState, list[Event]]:
        if not isinstance(options, SpellchromeOptions):
            raise TypeError(f"Spellchrome options are needed, not {type(options).__name__}")
        state = build_state(setup, options, memo)
        events = journal_for(journal)
        turns.begin(state, rng, events)
        return state, events

    def pending(self, state: SpellchromeState) -> Window | None:
        if state.outcome is not None:
            return None
        opp = state.opportunity
        if opp is not None:
            provoker = state.combatants[opp.provoker].name
            return Window(
                "attack_of_opportunity",
                (opp.foes[0],),
                f"{provoker} provokes: {opp.trigger}. Take an attack of opportunity?",
            )
        if state.turn is None:
            return None
        return _turn_window("aftermath" if state.decided is not None else "turn", state.turn.actor)

    def legal(self, state: SpellchromeState, actor: str, memo: Memo | None = None) -> list[ActionSpec]:
        window = self.pending(state)
        if window is None or actor not in window.actors:
            return []
        c = state.combatants[actor]
        if state.opportunity is not None:
            return opportunity_actions(state, c)
        assert state.turn is not None
        return turn_actions(state, c, state.turn, memo)

    def action_types(self) -> tuple[ActionType, ...]:
        return ACTION_TYPES

    def choices(self, state: SpellchromeState, actor: str, memo: Memo | None = None) -> Choices:
        """The actor's legal actions, answered part by part on its turn (:mod:`.choices`)."""
        return choices_for(state, actor, memo, self)

    def observe(
        self, state: SpellchromeState, viewer: Viewer, actor: str, memo: Memo | None = None
    ) -> SpellchromeObservation:
        """What ``viewer``'s seat sees for ``actor``'s policy, read lazily (:mod:`.observe`)."""
        return SpellchromeObservation(state, viewer, actor, memo, self)

    def step(
        self, state: SpellchromeState, actor: str, action: Action, rng: RNG, journal: Journal | None = None
    ) -> StepResult:
        kind = action.get("type")
        opp, turn = state.opportunity, state.turn
        # _acts, inline: every decision steps
        if state.outcome is not None or not (
            opp.foes[0] == actor if opp is not None else turn is not None and turn.actor == actor
        ):
            if kind == "attack_of_opportunity":
                return self._no_opportunity(state, actor)
            who = state.combatants[actor].name if actor in state.combatants else actor
            return Rejected("not_your_turn", f"It is not {who}'s turn to act.")
        events = Journal() if journal is None else journal  # journal_for
        if opp is not None:
            if kind not in OPPORTUNITY_ACTIONS:
                return Rejected(
                    "opportunity_pending",
                    "An attack of opportunity is offered: answer 'attack_of_opportunity' or 'decline'.",
                )
            foe = state.combatants[actor]
            if kind == "attack_of_opportunity" and foe.aoo_left <= 0:
                return self._no_opportunity(state, actor)
            finished, spec = answer_opportunity(state, rng, foe, kind == "attack_of_opportunity", events)
            if finished:
                resume(state, rng, spec, events)
            return Accepted(events)
        if kind in OPPORTUNITY_ACTIONS:
            return Rejected("no_opportunity", "Nobody has provoked an attack of opportunity.")
        assert turn is not None
        check = check_turn_action if events.validate else trusted_turn_action
        checked = check(state, state.combatants[actor], turn, action)
        if isinstance(checked, Rejected):
            return checked
        checked(rng, events)
        turns.after_action(state, rng, events)
        return Accepted(events)

    @staticmethod
    def _no_opportunity(state: SpellchromeState, actor: str) -> Rejected:
        opp = state.opportunity
        c = state.combatants.get(actor)
        if opp is not None and c is not None:
            provoker = state.combatants[opp.provoker]
            if c.aoo_left <= 0 and c in threateners(state, provoker, provoker.pos):
                return Rejected(
                    "no_attack_of_opportunity_left",
                    f"{c.name} has already taken its one attack of opportunity this round (SC-26).",
                )
        return Rejected("no_opportunity", f"No attack of opportunity is offered to {c.name if c else actor} now.")

    def gm_acts(self, state: SpellchromeState) -> bool:
        """Spellchrome's GM calls are options and scenario fields (SC-16's initiative bonus): no window of its own."""
        return False

    def gm_secrets(self, state: SpellchromeState) -> list[tuple[str, object]]:
        """GM-level information hidden from the players: none (for the leak check)."""
        return []

    def secrets(self, state: SpellchromeState) -> list[tuple[str, object]]:
        """Hidden payloads and their owners: none, every Spellchrome action is public."""
        return []

    def report(self, state: SpellchromeState) -> dict[str, CombatantReport]:
        """How each combatant ended (SC-02..SC-06): out of the fight unless able, dead at -30 HP or below."""
        out = {}
        for a, c in state.combatants.items():
            status = c.status
            conditions = (status,) if status not in ("normal", "dead") else ()
            out[a] = CombatantReport(
                c.side,
                not c.able,
                status == "dead",
                c.hp,
                c.max_hp,
                c.dealt,
                c.taken,
                conditions,
                {"ex_hp_left": float(c.ex_hp)},
            )
        return out

    def invariants(self, state: SpellchromeState) -> list[str]:
        """What must hold after every step (the conformance suite's hook): SC-24 occupancy, HP and EX-HP in
        bounds, one attack of opportunity at most (SC-26), and each combatant's kept ``able`` flag true to its HP and
        statuses (:meth:`~.state.Combatant.settle`)."""
        problems: list[str] = []
        standing: dict[tuple[int, int], str] = {}
        moving = state.motion.actor if state.motion is not None else None
        for c in state.combatants.values():
            if not state.grid.passable(c.pos):
                problems.append(f"{c.id} stands in a wall or off the map at {list(c.pos)}")
            if c.hp > c.max_hp or not 0 <= c.ex_hp <= c.ex_hp_max or not 0 <= c.aoo_left <= 1:
                problems.append(
                    f"{c.id} has HP {c.hp}/{c.max_hp}, EX-HP {c.ex_hp}/{c.ex_hp_max}, "
                    f"{c.aoo_left} attacks of opportunity"
                )
            if c.able != c.able_now():
                problems.append(
                    f"{c.id} is {'' if c.able else 'not '}marked able at HP {c.hp} as {c.status}: a change "
                    f"of its HP or statuses was not settled"
                )
            if in_the_way(state, c) and c.id != moving:  # a mover may pause on an ally's square for an AoO decision
                if c.pos in standing:
                    problems.append(f"{c.id} and {standing[c.pos]} both stand on {list(c.pos)} (SC-24)")
                standing[c.pos] = c.id
        return problems

    def view(self, state: SpellchromeState, viewer: Viewer, memo: Memo | None = None) -> SpellchromeView:
        return view(state, viewer, self.pending(state), memo)

    def rounds(self, state: SpellchromeState) -> int:
        """The fight's length: the round of the last blow (the rounds the dying bleed on after it are not
        fighting, SC-04; the outcome's details count them)."""
        return state.decided_round or state.round

    def names(self, state: SpellchromeState) -> dict[str, str]:
        return {a: c.name for a, c in state.combatants.items()}

    def sides(self, state: SpellchromeState) -> dict[str, str]:
        return {a: c.side for a, c in state.combatants.items()}
