"""The toy ruleset: the smallest working ruleset, and the template to copy for a new one (docs/architecture.md,
"Adding a ruleset"). It tests the core without any real ruleset, registered through the same plug-in record as the
built-in ones: a fifth ruleset is one folder and one line, no change to core.

Two players each commit a number 1..3 face down (both at once: a simultaneous window); once both have committed,
both are revealed and a d6 is rolled; the higher bid plus die wins, ties are a draw. Each player's Luck (3, a bar
the GM may rule on, 0 to 6) adds Luck - 3 to its score.

It is one file, in sections named after the modules a ruleset's folder splits them into (``# -- state.py``...):
copy it to ``src/affray/rulesets/<name>/``, one section a module, and the module names are the common layout's
(``tests/test_layers.py`` checks every folder has them). Its ``ruleset.py`` section holds what a real ruleset hands
to other modules (``legal`` to ``legal.py``, ``action_types`` to ``actions.py``, ``view`` to ``views.py``, how an
action plays out to modules named from its rules text) because the toy's rules are a few lines; the members every
ruleset writes alike come from the engine's defaults (``RulesetDefaults``: content, outcome, snapshot). The toy
brings no content files and no observation or choices of its own (``core.policy.ViewObservation`` and
``Choices``, the plainest).

The record also declares what tools reach through it (the ``odds.py`` and ``sheet.py`` section): one single check
(``affray odds toy bid``) and character sheets with one operation beyond new, check and show (``affray character
bless``); and its example scenarios for the web table's lobby (the last section).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel
from pydantic import Field as PydanticField

from affray.characters.operations import SheetChange, Step
from affray.characters.prompts import Prompts, finish
from affray.characters.sheet import Refused, SheetModel, Summary
from affray.core.actions import ActionType, Field
from affray.core.adjust import Change
from affray.core.checks import Check, CheckResult, Params, checks, need
from affray.core.content import ContentLibrary, Problem
from affray.core.dice import roll_die
from affray.core.engine import (
    Accepted,
    Action,
    ActionSpec,
    CombatantReport,
    Outcome,
    Rejected,
    RulesetDefaults,
    StepResult,
    Viewer,
    Window,
)
from affray.core.events import Committed, Ended, Event, Revealed, Rolled
from affray.core.journal import Journal, journal_for
from affray.core.memo import Memo
from affray.core.plugin import Plugin
from affray.core.policy import Choices, ViewObservation
from affray.core.rng import RNG
from affray.core.scenario import CombatantBase, ScenarioBase, Side
from affray.core.sealed import Sealed
from affray.core.sheets import FightSheet
from affray.core.view import Bar, CombatantView, Fact, Facts, PanelKind, View, envelope

# -- options.py: the rule options (a real ruleset's fields carry their rule IDs) ---------------------------------------


@dataclass(frozen=True, slots=True)
class ToyOptions:
    bonus: int = 0


# -- views.py, its types: the view's detail and each combatant's, with the panels that draw them -----------------------


@dataclass(frozen=True, slots=True)
class ToyDetail:
    #: The toy's own part is drawn by the generic panel of label/value rows (see "the toy at the web table").
    PANELS: ClassVar[tuple[PanelKind, ...]] = ("facts",)

    bids: dict[str, dict[str, Any]]
    facts: Facts | None = None


@dataclass(frozen=True, slots=True)
class ToyCombatant:
    committed: bool
    facts: Facts | None = None


# -- state.py: what step changes, and nothing derived from it ----------------------------------------------------------


@dataclass(slots=True)
class ToyState:
    players: tuple[str, str]
    bids: dict[str, Sealed] = field(default_factory=dict)
    revealed: dict[str, int] = field(default_factory=dict)
    outcome: Outcome | None = None
    luck: dict[str, int] = field(default_factory=lambda: {"a": 3, "b": 3})


# -- content_model.py: the scenario's model (the toy brings no content files) ------------------------------------------


class ToyScenario(ScenarioBase):
    sides: list[Side[CombatantBase]]


#: A toy scenario as a scenario file would hold it.
SCENARIO: dict[str, Any] = {
    "ruleset": "toy",
    "name": "Toy duel",
    "sides": [
        {"name": "A", "combatants": [{"id": "a", "controller": "random"}]},
        {"name": "B", "combatants": [{"id": "b", "controller": "random"}]},
    ],
}


# -- ruleset.py: the contract of core/engine.py, with the engine's defaults --------------------------------------------


class ToyRuleset(RulesetDefaults[ToyState, dict[str, Any]]):
    name = "toy"
    title = "Toy sealed bids"
    options_type = ToyOptions
    scenario_type = ToyScenario
    content_type = BaseModel

    def prepare(self, scenario: Any, content: ContentLibrary) -> dict[str, Any]:
        return {}

    def setup(
        self, setup: Mapping[str, Any], options: Any, rng: RNG, journal: Journal | None = None, memo: Memo | None = None
    ) -> tuple[ToyState, list[Event]]:
        return ToyState(("a", "b")), journal_for(journal)

    def pending(self, state: ToyState) -> Window | None:
        if state.outcome:
            return None
        return Window("bid", tuple(p for p in state.players if p not in state.bids), "Bid 1, 2 or 3 face down", "bids")

    view_types = (ToyDetail, ToyCombatant)

    def action_types(self) -> tuple[ActionType, ...]:
        return (ActionType("bid", "bid face down", (Field("value", "integer", "the bid", minimum=1, maximum=3),)),)

    def legal(self, state: ToyState, actor: str, memo: Memo | None = None) -> list[ActionSpec]:
        window = self.pending(state)
        if window is None or actor not in window.actors:
            return []
        return [ActionSpec({"type": "bid", "value": v}, f"bid {v}") for v in (1, 2, 3)]

    def choices(self, state: ToyState, actor: str, memo: Memo | None = None) -> Choices:
        return Choices(actor, lambda: self.legal(state, actor, memo))

    def observe(self, state: ToyState, viewer: Viewer, actor: str, memo: Memo | None = None) -> ViewObservation:
        return ViewObservation(actor, lambda: self.view(state, viewer, memo))

    def step(self, state: ToyState, actor: str, action: Action, rng: RNG, journal: Journal | None = None) -> StepResult:
        events = journal_for(journal)
        window = self.pending(state)
        if window is None or actor not in window.actors:
            return Rejected("not_your_turn", "You have already bid.")
        if events.validate and (action.get("type") != "bid" or action.get("value") not in (1, 2, 3)):
            return Rejected("bad_bid", "Bid 1, 2 or 3.")
        sealed = Sealed.commit(actor, f"bid-{actor}", {"value": action["value"]}, rng, loud=events.loud)
        state.bids[actor] = sealed
        events.append(Committed(actor, sealed.seal, sealed.digest))
        if len(state.bids) == 2:
            for p in state.players:
                payload = state.bids[p].reveal()
                state.revealed[p] = payload["value"]
                events.append(Revealed(p, state.bids[p].seal, payload))
            die = roll_die(rng, 6)
            events.append(Rolled("a", "tiebreak", die))
            a = state.revealed["a"] + die.total + state.luck["a"] - 3
            b = state.revealed["b"] + 3 + state.luck["b"] - 3
            winner = "A" if a > b else "B" if b > a else None
            state.outcome = Outcome(winner, "bids")
            events.append(Ended(winner, "bids"))
        return Accepted(events)

    def view(self, state: ToyState, viewer: Viewer, memo: Memo | None = None) -> View[ToyDetail, ToyCombatant]:
        bids = {
            p: (s.payload if viewer.may_open(p) or p in state.revealed else s.public()) for p, s in state.bids.items()
        }
        combatants = tuple(
            CombatantView(
                p,
                self.names(state)[p],
                p.upper(),
                p in viewer.controls,
                None,
                (Bar("Luck", state.luck[p], 6),),
                (),
                False,
                False,
                ToyCombatant(p in state.bids, luck_facts(state, p)),
            )
            for p in state.players
        )
        return envelope(
            "toy",
            mode="bids",
            round=1,
            phase="bid",
            order=state.players,
            window=self.pending(state),
            outcome=state.outcome,
            viewer=viewer,
            combatants=combatants,
            detail=ToyDetail(bids, bid_facts(state, viewer, self.names(state))),
        )

    def rounds(self, state: ToyState) -> int:
        return 1

    def names(self, state: ToyState) -> dict[str, str]:
        return {"a": "Alice", "b": "Bob"}

    def sides(self, state: ToyState) -> dict[str, str]:
        return {"a": "A", "b": "B"}

    def report(self, state: ToyState) -> dict[str, CombatantReport]:
        return {p: CombatantReport(p.upper(), False, False, 0, 0, 0, 0) for p in state.players}

    def secrets(self, state: ToyState) -> list[tuple[str, Any]]:
        return [(p, s.payload) for p, s in state.bids.items() if p not in state.revealed]

    def gm_secrets(self, state: ToyState) -> list[tuple[str, Any]]:
        return []

    def gm_acts(self, state: ToyState) -> bool:
        return False

    def invariants(self, state: ToyState) -> list[str]:
        return [f"{p}'s Luck {v} is outside 0..6" for p, v in state.luck.items() if not 0 <= v <= 6]


# -- adjust.py: the GM's rulings on the toy's one bar ------------------------------------------------------------------


class ToyAdjuster:
    """GM rulings on the toy: its one bar, Luck (0 to 6); every other change is refused (core/adjust.py)."""

    def check(self, state: ToyState, change: Change) -> Rejected | None:
        if change.field != "bar":
            return Rejected("not_adjustable", f"The toy has no {change.field.replace('_', ' ')} to change.")
        if change.name != "Luck":
            return Rejected("unknown_bar", f"The toy has no bar '{change.name}' (it has Luck).")
        if not 0 <= change.value <= 6:
            return Rejected("bad_value", "Luck runs from 0 to 6.")
        return None

    def apply(self, state: ToyState, change: Change) -> Any:
        was = state.luck[change.combatant]
        state.luck[change.combatant] = change.value
        return was

    def hidden(self, state: ToyState, change: Change) -> bool:
        return change.combatant == "b" and change.value == 6  # a GM-level change, for the redaction tests

    def settle(self, state: ToyState, rng: RNG, journal: Journal) -> None:
        """Nothing goes on after a ruling on Luck: the bids are still open."""

    def forms(self, state: ToyState) -> dict[str, dict[str, Any]]:
        return {
            p: {"bars": [{"name": "Luck", "min": 0, "max": 6}], "statuses": [], "position": None, "out": False}
            for p in state.players
        }


# -- odds.py and sheet.py: the single check and the sheet rules (affray odds toy, affray character) --------------------


def _bid_dist(p: Params) -> dict[int, Fraction]:
    """The margin of the player's score over the other's: bid + d6 + Luck - 3 against their bid + 3 + Luck - 3."""
    theirs = p["their_bid"] + 3 + p["their_luck"] - 3
    return {p["bid"] + face + p["luck"] - 3 - theirs: Fraction(1, 6) for face in range(1, 7)}


def _bid(p: Params) -> CheckResult:
    margin = _bid_dist(p)
    win = sum((q for k, q in margin.items() if k > 0), Fraction(0))
    return CheckResult(
        f"Toy bid: {p['bid']} + d6 against {p['their_bid']} + 3",
        {"p_win": win, "p_draw": margin.get(0, Fraction(0))},
        {"margin": margin},
    )


def _bid_valid(p: Params) -> None:
    need(p["luck"] + p["their_luck"] <= 10, "--luck and --their-luck together are at most 10 (the toy's Luck pool).")


#: The toy's single checks (what a ruleset's ``odds.py`` exports as ``CHECKS``).
CHECKS = checks(
    Check(
        "bid",
        "One sealed bid: the chance to win and to draw, and the margin (the toy's only roll).",
        (),
        (
            Field("bid", "integer", "your bid", minimum=1, maximum=3),
            Field("their_bid", "integer", "the other player's bid", required=False, default=2, minimum=1, maximum=3),
            Field("luck", "integer", "your Luck (3 adds nothing)", required=False, default=3, minimum=0, maximum=6),
            Field("their_luck", "integer", "their Luck", required=False, default=3, minimum=0, maximum=6),
        ),
        _bid,
        _bid_valid,
    )
)


class ToySheet(SheetModel):
    ruleset: Literal["toy"]
    luck: int = PydanticField(default=3, ge=0, le=6, description="Luck, 0 to 6")


def _bless(sheet: Any, p: Params, content: ContentLibrary) -> list[Step]:
    times = p["times"]

    def bless(s: ToySheet) -> ToySheet:
        if s.luck + times > 6:
            raise Refused(f"Luck runs from 0 to 6; {s.luck} + {times} is {s.luck + times}")
        return s.model_copy(update={"luck": s.luck + times})

    return [(f"{times} blessing(s)", bless)]


class ToySheetRules:
    """The toy's character rules: a name and Luck; one operation beyond new, check and show (``bless``)."""

    ruleset = "toy"
    model = ToySheet
    builder_options = None
    operations = (
        SheetChange(
            "bless",
            "Bless a toy character: +1 Luck a blessing, never above 6.",
            (Field("times", "integer", "how many blessings", required=False, default=1, minimum=1),),
            _bless,
            lambda sheet, content: [f"Luck {sheet.luck} of 6"],
        ),
    )

    def problems(self, sheet: Any, content: ContentLibrary) -> list[Problem]:
        return [Problem("name", "a name other than 'Nobody'")] if sheet.name == "Nobody" else []

    def notes(self, sheet: Any, content: ContentLibrary) -> list[str]:
        return ["Luck 6: the most there is"] if sheet.luck == 6 else []

    def for_fight(self, sheet: Any, content: ContentLibrary) -> FightSheet:
        return FightSheet({"name": sheet.name, "luck": sheet.luck})

    def summary(self, sheet: Any, content: ContentLibrary) -> Summary:
        return Summary(f"{sheet.name} (toy)", [("Luck", [("Luck", f"{sheet.luck} of 6")])])


SHEET_RULES = ToySheetRules()


def build(p: Prompts, content: ContentLibrary, rng: RNG) -> Any:
    """The toy's builder: a name, a few words, and Luck."""
    data = p.header("toy")
    data["luck"] = p.ask_int("Luck (0-6)", 0, 6, 3)
    return finish(data)


# -- plugin.py: the record (a folder's plugin.py reads each part from a deferred module) -------------------------------


#: The toy's plug-in record: what a fifth ruleset's folder would export as ``PLUGIN``.
PLUGIN = Plugin(
    name="toy",
    title="Toy sealed bids",
    rules=ToyRuleset,
    adjuster=ToyAdjuster,
    checks=lambda: CHECKS,
    sheet=lambda: SHEET_RULES,
    builder=lambda: build,
    examples=lambda: EXAMPLES,
)


# -- views.py, the facts rows, and the examples: the toy at the web table ----------------------------------------------
# A ruleset that no client knows shows its own part with the generic "facts" panel (label/value rows, filled in
# here from what the seat may see) and brings its example scenarios through its record: the lobby lists
# ``toy/sealed_duel`` and opens it, with no change to the server or the page (tests/web/test_browser_toy.py).

#: The toy's example scenarios (``toy/<file name>``), named by its record.
EXAMPLES: Path = Path(__file__).parent / "toy_examples"


def bid_facts(state: ToyState, viewer: Viewer, names: Mapping[str, str]) -> Facts:
    """One row per player: no bid yet, a bid face down (its value only for the seat that may open it), or the bid
    revealed."""
    rows = []
    for p in state.players:
        if p in state.revealed:
            value = f"bid {state.revealed[p]}"
        elif p not in state.bids:
            value = "no bid yet"
        elif viewer.may_open(p):
            value = f"bid {state.bids[p].payload['value']}, face down"
        else:
            value = "face down"
        rows.append(Fact(names[p], value))
    return Facts("Sealed bids", tuple(rows))


def luck_facts(state: ToyState, player: str) -> Facts:
    """What a player's Luck adds to its score (Luck - 3)."""
    return Facts("", (Fact("Luck adds", f"{state.luck[player] - 3:+d}"),))
