"""The ruleset contract (DESIGN.md, contract 1). The registry of rulesets is :mod:`affray.core.plugin`, above this.

A ruleset is a step function over a match state::

    prepare(scenario, content)    -> setup (plain JSON: the scenario with every reference resolved)
    setup(setup, options, rng, journal, memo) -> (state, events)
    pending(state)                -> Window | None      which actors must act now, and on what
    legal(state, actor, memo)     -> list[ActionSpec]   concrete actions that ``step`` would accept
    choices(state, actor, memo)   -> Choices            the same, answered on demand (core/policy.py)
    action_types()                -> ActionTypes        every action's fields and ranges (core/actions.py)
    step(state, actor, action, rng, journal) -> Accepted | Rejected
    view(state, viewer, memo)     -> View               the only way state leaves the engine (core/view.py)
    observe(state, viewer, actor, memo) -> Observation  what a policy sees: the view's redaction, read lazily
    outcome(state)                -> Outcome | None

``step`` validates completely before it changes anything (contract 2): a :class:`Rejected` result means
the state and the RNG are exactly as they were. Actions are JSON objects with a ``"type"`` key, so the
log of record is plain data. The ``journal`` (:mod:`affray.core.journal`) is the step context: the events go into
it, and a quiet one asks the rules to record nothing (the dice drawn are the same either way); ``None`` means a
fresh loud one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

from affray.core.content import ContentLibrary, load_pack
from affray.core.events import Event, to_jsonable
from affray.core.json import Json, JsonObject
from affray.core.rng import RNG
from affray.core.words import split_rule_ids

if TYPE_CHECKING:
    from _typeshed import DataclassInstance
    from pydantic import BaseModel

    from affray.core.actions import ActionType, WarningCode
    from affray.core.journal import Journal
    from affray.core.memo import Memo
    from affray.core.policy import Choices, Observation
    from affray.core.scenario import ScenarioBase
    from affray.core.view import View

Action = dict[str, Json]
#: A ruleset's match state (opaque to the generic layers: only its ruleset reads it).
StateT = TypeVar("StateT")
#: A ruleset's setup: what :meth:`Ruleset.prepare` makes of a scenario and :meth:`Ruleset.setup` starts from.
SetupT = TypeVar("SetupT")
GM = "gm"
SPECTATOR = "spectator"


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action an actor may take now: the exact object to submit, a label, and notes (warnings among them).

    ``free`` names the fields of ``action``'s type that are free parameters (its
    :class:`~affray.core.actions.ActionType` says so too): a value given is one valid choice, and a client may put any
    other the schema allows, or add an optional one (a path, a distance, a text, a plan); ``step`` validates what comes
    back.

    ``warnings`` are the codes (:data:`~affray.core.actions.WARNING_CODES`) of the notes that warn, which come first:
    ``warnings[i]`` is what ``notes[i]`` says in words (a Spellchrome move: ``("provokes",)`` beside the sentence
    naming the foes, then the note offering withdraw). A client decides on the codes, never on the sentences.
    """

    action: Action
    label: str
    notes: tuple[str, ...] = ()
    free: tuple[str, ...] = ()
    warnings: tuple[WarningCode, ...] = ()
    #: :meth:`to_dict` as the JSON text a writer made of it (:meth:`written`): not part of the spec's value.
    _text: bytes | None = field(default=None, init=False, compare=False, repr=False)

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"action": self.action, "label": self.label, "notes": list(self.notes)}
        if self.free:
            out["free"] = list(self.free)
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def written(self, write: Callable[[JsonObject], bytes]) -> bytes:
        """``write(self.to_dict())``, made once per spec and kept with it. Rulesets keep their specs and hand the same
        ones out again, version after version and table after table (Spellchrome's move listings: a hundred specs at
        each grid move), so a table server writes each one's JSON once (:mod:`affray.table.parts`). ``write`` must
        be the same function at every call (a spec keeps the first text)."""
        text = self._text
        if text is None:
            text = write(self.to_dict())
            object.__setattr__(self, "_text", text)  # a cache beside the frozen value
        return text


@dataclass(slots=True)
class Accepted:
    """The action was applied; ``events`` is what happened, in order."""

    events: list[Event]

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Rejected:
    """The action was refused and nothing changed. ``code`` is stable; ``message`` is for a person; ``reason``, where
    one code has several causes, names the cause as stably (``stale_version``: ``moved_on``, ``acted_since``,
    ``taken_back``). ``rules``: the rule IDs the refusal rests on; a message written with them ("... (SC-24).") is
    kept without them, and they move here (:func:`affray.core.words.split_rule_ids`): no rule ID in words a person
    reads."""

    code: str
    message: str
    reason: str = ""
    rules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        message, cited = split_rule_ids(self.message)
        if cited:
            object.__setattr__(self, "message", message)
            object.__setattr__(self, "rules", tuple(dict.fromkeys((*self.rules, *cited))))

    @property
    def ok(self) -> bool:
        return False


StepResult = Accepted | Rejected


@dataclass(frozen=True, slots=True)
class Window:
    """Who must act now: ``actors`` (any of them may act, in any order), the phase and a prompt.

    An actor stays in the window until its part is done: once for a reaction, or over several actions
    while it places cards and then readies (WitchHammer's planning).

    ``simultaneous`` is set where the actors act independently of one another ("everyone acts": WitchHammer's Psych
    and Planning, the Sim HuD's pursuers): a name for this one opening of the window (``"v3.planning"``), the same
    for as long as it stays open and different for the next. An action chosen at an earlier version of the same
    opening still stands when only other actors of it have acted since (:meth:`affray.core.match.Match.submit`).
    """

    phase: str
    actors: tuple[str, ...]
    prompt: str = ""
    simultaneous: str = ""

    def without(self, actor: str) -> Window:
        """This window less ``actor``, whose part is done (WitchHammer's Psych and Planning narrow at every
        decision)."""
        return _without(self.phase, self.actors, self.prompt, self.simultaneous, actor)


@lru_cache(maxsize=4096)
def _without(phase: str, actors: tuple[str, ...], prompt: str, simultaneous: str, actor: str) -> Window:
    """:meth:`Window.without`: a pure function of immutable values, memoised (bounded): the same few windows narrow
    the same ways vignette after vignette and fight after fight, and a window is an immutable value to share."""
    return Window(phase, tuple([a for a in actors if a != actor]), prompt, simultaneous)


#: The ``Outcome.reason`` of a fight that ended because a side got away (Sim HuD, WL-B14): neither a win nor a draw.
ESCAPED = "escaped"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended: the winning side's name (``None`` for a draw, or when a side got away) and why."""

    winner: str | None
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The winning side, ``"escaped"`` when the fight ended because a side got away (reason :data:`ESCAPED`,
        Sim HuD WL-B14: neither side defeated), else ``"draw"``: the words a simulation report counts."""
        if self.winner is not None:
            return self.winner
        return ESCAPED if self.reason == ESCAPED else "draw"


@dataclass(frozen=True, slots=True)
class CombatantReport:
    """How one combatant ended a fight, for simulation reports (the same keys in every ruleset).

    ``down``: out of the fight by harm (not by escape); ``dead``: dead by the rules (or by the death rule a
    ruleset uses); ``hp``/``hp_max``: hit points (Health in WitchHammer) left and maximum; ``damage_dealt``
    and ``damage_taken``: hit points removed by and from it; ``conditions``: lasting results such as
    afflictions, serious wounds or "dying"; ``extra``: other numbers worth averaging (Poise left...).
    """

    side: str
    down: bool
    dead: bool
    hp: int
    hp_max: int
    damage_dealt: int
    damage_taken: int
    conditions: tuple[str, ...] = ()
    extra: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a seat name, the actors it controls, and whether it sees GM-level information.

    ``omniscient`` (the GM) sees every sheet and the GM's own hidden rolls (:meth:`may_see`), but face-down choices
    and sealed payloads open only for the seat that controls their actor (:meth:`may_open`), the GM's included: a
    GM who plays the monsters must not read the players' cards before placing its own.
    """

    seat: str
    controls: frozenset[str] = frozenset()
    omniscient: bool = False

    def may_see(self, actor: str) -> bool:
        """GM-level information about ``actor`` (its sheet, its hidden numbers)."""
        return self.omniscient or actor in self.controls

    def may_open(self, actor: str) -> bool:
        """``actor``'s face-down choices and sealed payloads: only for the seat that plays it."""
        return actor in self.controls

    @classmethod
    def gm(cls) -> Viewer:
        return cls(GM, frozenset({GM}), True)

    @classmethod
    def spectator(cls) -> Viewer:
        return cls(SPECTATOR)

    @classmethod
    def of_seat(cls, seats: Mapping[str, str], seat: str) -> Viewer:
        """The viewer of ``seat`` under ``seats`` (actor -> seat): the GM's seat sees GM-level information, a
        spectator controls nothing, a player its actors (the match's viewers and the simulation fast path's)."""
        if seat == GM:
            return cls(GM, frozenset(a for a, s in seats.items() if s == GM), True)
        if seat == SPECTATOR:
            return cls.spectator()
        return cls(seat, frozenset(a for a, s in seats.items() if s == seat))


class Ruleset(Protocol[StateT, SetupT]):
    """What every ruleset provides; see the module docstring. ``StateT`` is its match state, ``SetupT`` its setup
    (what :meth:`prepare` makes of a scenario; stored as JSON in logs and tables). Options are the instance of
    :attr:`options_type` that :func:`~affray.core.options.parse_options` made: opaque here, so ``object``."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def options_type(self) -> type[DataclassInstance]: ...

    @property
    def scenario_type(self) -> type[ScenarioBase]: ...

    @property
    def content_type(self) -> type[BaseModel]: ...

    def content(self) -> ContentLibrary: ...

    def prepare(self, scenario: ScenarioBase, content: ContentLibrary) -> SetupT: ...

    def setup(
        self, setup: SetupT, options: object, rng: RNG, journal: Journal | None = None, memo: Memo | None = None
    ) -> tuple[StateT, list[Event]]:
        """The state at the start and the setup's events. ``memo``: the match's, whose :meth:`Memo.static` part
        may hold what only the setup and options determine (compiled cards), shared by the caller's matches."""
        ...

    def pending(self, state: StateT) -> Window | None: ...

    def legal(self, state: StateT, actor: str, memo: Memo | None = None) -> list[ActionSpec]: ...

    def choices(self, state: StateT, actor: str, memo: Memo | None = None) -> Choices:
        """``actor``'s legal actions as a :class:`~affray.core.policy.Choices`: the same actions as :meth:`legal`,
        in the same order, with the questions policies ask answered without listing where the ruleset can."""
        ...

    def observe(self, state: StateT, viewer: Viewer, actor: str, memo: Memo | None = None) -> Observation:
        """What the policy playing ``actor`` for ``viewer``'s seat sees (:class:`~affray.core.policy.Observation`):
        read-only, redacted exactly as :meth:`view` is for ``viewer``."""
        ...

    def action_types(self) -> tuple[ActionType, ...]:
        """Every action type this ruleset accepts, with its fields (:mod:`affray.core.actions`)."""
        ...

    @property
    def view_types(self) -> tuple[type[object], ...]:
        """The view's and each combatant's ``detail`` types, for the JSON Schema (``core.view.view_schema``)."""
        ...

    def step(
        self, state: StateT, actor: str, action: Action, rng: RNG, journal: Journal | None = None
    ) -> StepResult: ...

    def view(self, state: StateT, viewer: Viewer, memo: Memo | None = None) -> View[object, object]: ...

    def outcome(self, state: StateT) -> Outcome | None: ...

    def snapshot(self, state: StateT) -> JsonObject: ...

    def rounds(self, state: StateT) -> int: ...

    def names(self, state: StateT) -> dict[str, str]: ...

    def sides(self, state: StateT) -> dict[str, str]: ...

    def report(self, state: StateT) -> dict[str, CombatantReport]:
        """How each combatant ended the fight (for simulation reports)."""
        ...

    def secrets(self, state: StateT) -> Sequence[tuple[str, object]]:
        """``(owner actor, value)`` for every face-down choice or sealed payload now: no seat but the one that plays
        the owner may see the value, the GM's included (contract 6, ``Viewer.may_open``)."""
        ...

    def gm_secrets(self, state: StateT) -> Sequence[tuple[str, object]]:
        """``(owner actor, value)`` for GM-level information now (a GM character's sheet): hidden from the players'
        seats and the spectators, open to the GM (``Viewer.may_see``)."""
        ...

    def invariants(self, state: StateT) -> list[str]:
        """Descriptions of broken invariants (HP or action counts out of bounds); empty when all hold."""
        ...

    def gm_acts(self, state: StateT) -> bool:
        """Whether the GM actor itself (the ``gm`` seat's own calls: rulings, verdicts; not the combatants it may
        play) can have a window in this match, given its options and combatants. ``fight --play gm`` refuses a
        fight where the GM seat would play nothing."""
        ...


class Member(Protocol):
    """What :class:`FightersDefaults` reads of one combatant: its name and side."""

    @property
    def name(self) -> str: ...

    @property
    def side(self) -> str: ...


class Decided(Protocol):
    """A state that keeps how the match ended (``None`` while it goes on): what :class:`RulesetDefaults` reads."""

    @property
    def outcome(self) -> Outcome | None: ...


class Roster(Decided, Protocol):
    """A state with its combatants by actor id as ``fighters`` and a round counter: what
    :class:`FightersDefaults` reads (the HuD's, WaRP's and WitchHammer's states)."""

    @property
    def fighters(self) -> Mapping[str, Member]: ...

    @property
    def round(self) -> int: ...


DecidedT = TypeVar("DecidedT", bound=Decided)
RosterT = TypeVar("RosterT", bound=Roster)


@cache
def bundled_content(model: type[BaseModel], ruleset: str, folder: Path) -> ContentLibrary:
    """The content library a ruleset brings in ``folder`` (every YAML file below it, each a ``model``), loaded once
    per process: its ``builtin_content()`` and :meth:`RulesetDefaults.content`. Content is not match state, and no
    step changes it (a scenario's own content goes into a copy, :meth:`ContentLibrary.copy`)."""
    return load_pack(model, ruleset, [folder])


class RulesetDefaults(Generic[DecidedT, SetupT]):
    """The engine's defaults for the :class:`Ruleset` members every ruleset wrote alike: a ruleset class that extends
    this (``class HudRuleset(FightersDefaults[HudState, HudSetup])``) writes only what its rules make different.

    - :meth:`content`: the library of ``content_type`` files in :attr:`content_dir` (an empty one when the ruleset
      brings no content), loaded once (:func:`bundled_content`);
    - :meth:`outcome`: ``state.outcome``;
    - :meth:`snapshot`: the state as JSON (:func:`~affray.core.events.to_jsonable`: a dataclass gives an object).

    ``secrets``, ``gm_secrets`` and ``gm_acts`` have no default on purpose: what a seat may not see, and whether the
    GM has calls of its own, is for each ruleset to say (and its docstring to give the rule)."""

    name: str
    content_type: type[BaseModel]
    #: where the ruleset's own content files are (its folder's ``content/``); ``None``: it brings none
    content_dir: Path | None = None

    def content(self) -> ContentLibrary:
        """The ruleset's own content (a fresh, empty library when it brings none)."""
        if self.content_dir is None:
            return ContentLibrary(self.name)
        return bundled_content(self.content_type, self.name, self.content_dir)

    def outcome(self, state: DecidedT) -> Outcome | None:
        return state.outcome

    def snapshot(self, state: DecidedT) -> JsonObject:
        snap: JsonObject = to_jsonable(state)  # a dataclass: an object
        return snap


class FightersDefaults(RulesetDefaults[RosterT, SetupT]):
    """:class:`RulesetDefaults`, and for a state whose combatants are its ``fighters`` (:class:`Roster`):
    :meth:`rounds` (``state.round``), :meth:`names` and :meth:`sides` (each fighter's ``name`` and ``side``)."""

    def rounds(self, state: RosterT) -> int:
        return state.round

    def names(self, state: RosterT) -> dict[str, str]:
        return {a: f.name for a, f in state.fighters.items()}

    def sides(self, state: RosterT) -> dict[str, str]:
        return {a: f.side for a, f in state.fighters.items()}


#: A ruleset of any state and setup: what a registry of heterogeneous rulesets holds. The generic layers never read
#: a state or a setup themselves, they hand back what the same ruleset gave; Python has no existential type, so the
#: two parameters are ``Any`` here and nowhere else.
AnyRuleset: TypeAlias = Ruleset[Any, Any]
