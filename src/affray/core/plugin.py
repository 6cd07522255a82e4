"""One record per ruleset, and the one registry of them (docs/architecture.md, 'The plug-in record').

Everything a ruleset contributes is reachable from the :class:`Plugin` that its folder exports as ``PLUGIN``
(``affray/rulesets/<name>/plugin.py``): its rules (the :class:`~affray.core.engine.Ruleset` step functions, with
their options, content and scenario schemas), its policies, its exact checks and the hints shown beside choices,
its duel model, its character sheet rules and builder, and its vectorised simulation path.

A match carries its record (:attr:`affray.core.match.Match.plugin`), and whatever works on a match takes the part
it needs from there. The registry's look-up by name, :func:`plugin`, is for the edges where a name comes in from
outside: a scenario file, a log, a sheet file, a stored table row, a command-line argument, a URL
(``tests/test_layers.py`` lists them). ``plugin("hud").policies()``.

Every part but the rules is optional, and every part is a *loader* (a function of no arguments) so that reading
the record imports nothing: the rules load on first use, the odds only when someone asks for odds. Each loader is
typed with what it returns (a protocol or a declaration of core: :class:`~affray.core.sheetrules.SheetRules`,
:data:`~affray.core.prompts.Builder`, :class:`~affray.core.checks.Check`, :class:`~affray.core.narration.Narrator`,
:class:`Sampler`...), so mypy checks every part a ruleset names. Adding a ruleset is a new folder with a
``plugin.py`` and one :func:`register_source` line in ``affray/rulesets/__init__.py``; a program may also
:func:`register` a record it built itself (the toy ruleset of the tests does).

Core imports no ruleset: the sources are module names, imported on demand.
"""

from __future__ import annotations

import importlib
import io
import pickle
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

from affray.core.engine import SetupT, StateT
from affray.core.json import Json

if TYPE_CHECKING:
    from affray.core.adjust import Adjuster
    from affray.core.checks import Check
    from affray.core.engine import ActionSpec, AnyRuleset, Ruleset
    from affray.core.library import Describer
    from affray.core.narration import Narrator
    from affray.core.policy import Observation, Policy
    from affray.core.prompts import Builder
    from affray.core.rng import RNG
    from affray.core.sheetrules import AnySheetRules
    from affray.core.steps import StepBuilder

#: A ruleset's view type, as its hinter reads it (one per ruleset: the registry cannot name it).
V = TypeVar("V")
#: A hint per legal action (``"hit 46% · avg loss 1.2"``, or ``""``) for the acting actor, from its seat's view only.
Hinter = Callable[[V, str, "Sequence[ActionSpec]"], list[str]]


#: A ruleset's dice for a display's die buttons (:attr:`Plugin.buttons`): ``(view, actor) -> {button: notation}``,
#: each button's name (``"attack"``) mapped to the roll it makes in ``affray roll`` notation (``"1d13+2"``: the die
#: and the character's modifier), from the seat's view (the ruleset's own type: the registry cannot name it, hence
#: ``...``) of ``actor``, one of the seat's combatants.
ButtonDice = Callable[..., Mapping[str, str]]


class DuelResult(Protocol):
    """What an exact duel solver answers (:class:`affray.odds.markov.DuelOdds` is one): the outcome probabilities by
    winner label (``draw`` included), the expected rounds, the rounds' distribution, the mass beyond its last round
    and the states solved."""

    @property
    def outcomes(self) -> Mapping[str, float | Fraction]: ...

    @property
    def expected_rounds(self) -> float | Fraction: ...

    @property
    def rounds(self) -> Sequence[tuple[int, float | Fraction]]: ...

    @property
    def tail(self) -> float | Fraction: ...

    @property
    def states(self) -> int: ...


#: An exact duel solver: ``(setup, options, exact) -> DuelResult`` (see :mod:`affray.odds.markov`).
DuelSolver = Callable[["Mapping[str, Json]", "Mapping[str, Json] | None", bool], DuelResult]


def _no_policies() -> Mapping[str, Callable[[], Policy]]:
    return {}


@dataclass(frozen=True, slots=True)
class DuelModel:
    """An exact one-on-one duel model: the solver and, in one sentence, what it assumes."""

    solve: DuelSolver
    assumes: str


#: What a simulation hands a batch path: its chunk spec (``affray.sim.runner.SimSpec``, a layer above core).
SpecT = TypeVar("SpecT")
#: What a batch path counts a chunk into (``affray.sim.stats.Tally``).
TallyT = TypeVar("TallyT")


@dataclass(frozen=True, slots=True)
class BatchPath(Generic[SpecT, TallyT]):
    """A vectorised simulation path for the scenarios it fits: ``fits(spec)`` is ``None`` when it fits (else the
    reason it does not), ``run_chunk(spec, index, size)`` plays one chunk into a tally (see :mod:`affray.sim`).
    Generic in the spec and the tally because both are the simulation's, above core: the ruleset's path names
    them, and the record holds any (:data:`AnyBatchPath`)."""

    fits: Callable[[SpecT], str | None]
    run_chunk: Callable[[SpecT, int, int], TallyT]
    chunk_size: int
    label: str


#: A batch path as a record holds it: its spec and tally are the simulation's types, which core cannot name.
AnyBatchPath: TypeAlias = BatchPath[Any, Any]


@dataclass(frozen=True, slots=True)
class Countdown:
    """A real-time limit the GM's page offers for this ruleset (WitchHammer's Drama Timer, WH-B20): on in a match
    whose rule option ``option`` is true; when it runs out the table submits ``{"type": action}`` for the GM's seat
    (while the GM has a call to make). ``name`` and ``rule`` are what the pages call it; ``seconds`` names the rule
    option holding its usual length (the GM page's first value), if there is one."""

    name: str
    rule: str
    option: str
    action: str
    seconds: str | None = None

    def on(self, options: object) -> bool:
        """Whether the countdown is on in a match with ``options``."""
        return bool(getattr(options, self.option, False))

    def length(self, options: object) -> int | None:
        value = getattr(options, self.seconds, None) if self.seconds else None
        return value if isinstance(value, int) else None


@dataclass(frozen=True, slots=True)
class Drawn:
    """One state a :class:`Sampler` drew: ``state``, the ruleset's state, a fresh copy the caller may play on; and
    ``setup``, a value naming what of it only a setup fixes and the sampler had to draw (an unseen deck, a closed
    sheet), so that states drawn with equal ``setup`` may share one static memo store
    (:meth:`affray.core.memo.Memo.static`) and states drawn with different ones never do."""

    state: object
    setup: Hashable = None


#: A sampler's knowledge of a match (its own type per ruleset).
K = TypeVar("K")
#: A state a :class:`Frozen` keeps.
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Sampler(Generic[K]):
    """Draws whole match states consistent with what one seat may see: how a policy that looks ahead
    (:mod:`affray.ai.search`) plays on without ever reading the true state.

    Two steps, so that what the sampler reads can be checked apart from what it makes up:

    - ``known(seen)``: the seat's knowledge, made from its :class:`~affray.core.policy.Observation` alone (a
      ruleset's own observation class; anything else is a ``TypeError``): for the built-in rulesets a copy of the
      state with every value the seat may not see taken out (others' face-down cards and hands, GM-level sheets and
      decks, the GM's hidden totals). It holds nothing the observation's seat may not see, which the tests check
      as they check observations (``tests/ai/test_search.py``: no other seat's secret in it, and the same knowledge
      whatever those secrets are);
    - ``draw(known, rng)``: a whole state consistent with that knowledge, its hidden parts drawn with ``rng`` from
      what their owners could hold (the sampler's docstring says how), as a :class:`Drawn`. Each call returns a
      fresh state.

    A ruleset where every seat sees everything still has a sampler (its knowledge is the state itself): the
    search then plays on from the very position.
    """

    known: Callable[[Observation], K]
    draw: Callable[[K, RNG], Drawn]


class Frozen(Generic[T]):
    """A state kept as bytes and copied by unpickling them: how a sampler hands out a fresh state per draw, several
    times faster than ``copy.deepcopy``. ``shared``: objects every copy holds by reference instead (what no step
    changes: the options, a map, compiled cards), so they are neither copied nor stored."""

    __slots__ = ("_data", "_shared")

    def __init__(self, state: T, shared: Sequence[object] = ()) -> None:
        self._shared = tuple(shared)
        ids = {id(value): index for index, value in enumerate(self._shared)}
        out = io.BytesIO()
        _Keeping(out, ids).dump(state)
        self._data = out.getvalue()

    def copy(self) -> T:
        """A new copy of the state, sharing only ``shared``."""
        copied: T = _Restoring(io.BytesIO(self._data), self._shared).load()
        return copied

    @property
    def state(self) -> T:
        """:meth:`copy`, as a property: what a walk over a seat's knowledge reads (the leak tests)."""
        return self.copy()


class _Keeping(pickle.Pickler):
    def __init__(self, out: io.BytesIO, ids: dict[int, int]) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self._ids = ids

    def persistent_id(self, obj: object) -> int | None:
        return self._ids.get(id(obj))


class _Restoring(pickle.Unpickler):
    def __init__(self, data: io.BytesIO, shared: tuple[object, ...]) -> None:
        super().__init__(data)
        self._shared = shared

    def persistent_load(self, pid: object) -> object:
        assert isinstance(pid, int)
        return self._shared[pid]


@dataclass(frozen=True)
class Plugin(Generic[StateT, SetupT]):
    """Everything one ruleset contributes (see the module docstring).

    ``rules`` builds the ruleset (called once; :meth:`ruleset` keeps it). ``rules_version`` changes whenever a
    rule change makes old logs replay differently: every log and every stored table records it, and a log or table
    made under another version is refused with a sentence naming both (:func:`rules_changed`), never replayed.
    ``policies`` maps policy names to
    factories (``random`` is added for every ruleset by :mod:`affray.ai`). ``hints``, ``duel``, ``checks``,
    ``sheet``, ``builder`` and ``batch`` load the odds hints, the exact duel model, the ``affray odds RULESET
    CHECK`` checks (:class:`~affray.core.checks.Check` declarations by name), the character sheet rules (with the
    operations a ruleset offers beyond new, check and show), the interactive builder and the numpy batch path;
    ``None`` when the ruleset has none. ``narrator`` tells its events in sentences (:mod:`affray.core.narration`;
    the plain narrator when ``None``); ``adjuster`` checks and applies GM rulings (:mod:`affray.core.adjust`;
    ``None``: the GM cannot adjust this ruleset's fights). ``sampler`` draws states consistent with a seat's view
    (:class:`Sampler`: the ``search`` policy's look-ahead; ``None``: no ``search`` for this ruleset).
    ``countdown``: the real-time limit the GM may start
    (:class:`Countdown`); ``examples``: where its example scenarios are, a folder (every ``*.yaml`` below it) or a
    list of scenario files, which the web table's lobby lists and opens (:mod:`affray.table.examples` names them).
    ``library``: its content described for players (:data:`~affray.core.library.Describer`: the content library of
    ``GET /api/content/RULESET`` and ``affray content show``).
    ``steps``: its builder of an actor's legal actions as a tree of small steps in words (:mod:`affray.core.steps`;
    ``None``: the generic :func:`~affray.core.steps.default_steps`).
    ``buttons``: the dice of a display's die buttons for a free roll (:data:`ButtonDice`: the in-world display's
    buttons in a free-form scene, docs/table.md "The in-world protocol"; ``None``: the ruleset names none).
    ``round_word``: what the rules call a round (``"vignette"``), for reports and plots that count them.
    """

    name: str
    title: str
    rules: Callable[[], Ruleset[StateT, SetupT]]
    rules_version: str = "1"
    policies: Callable[[], Mapping[str, Callable[[], Policy]]] = _no_policies
    #: the hinter reads the ruleset's own view type, which the registry cannot name
    hints: Callable[[], Hinter[Any]] | None = None
    duel: Callable[[], DuelModel] | None = None
    checks: Callable[[], Mapping[str, Check]] | None = None
    sheet: Callable[[], AnySheetRules] | None = None
    builder: Callable[[], Builder] | None = None
    batch: Callable[[], AnyBatchPath] | None = None
    narrator: Callable[[], Narrator] | None = None
    adjuster: Callable[[], Adjuster[StateT]] | None = None
    #: a sampler's knowledge is its ruleset's own type, which the registry cannot name
    sampler: Callable[[], Sampler[Any]] | None = None
    countdown: Countdown | None = None
    examples: Callable[[], Path | Sequence[Path]] | None = None
    #: the content library in words and numbers (:mod:`affray.core.library`); None: each item's own fields
    library: Callable[[], Describer] | None = None
    steps: Callable[[], StepBuilder] | None = None
    buttons: Callable[[], ButtonDice] | None = None
    round_word: str = "round"
    _loaded: dict[str, Ruleset[StateT, SetupT]] = field(default_factory=dict, repr=False, compare=False)

    def ruleset(self) -> Ruleset[StateT, SetupT]:
        """The ruleset, built on first use and kept (rulesets hold no match state)."""
        rules = self._loaded.get("rules")
        if rules is None:
            rules = self._loaded["rules"] = self.rules()
        return rules

    @classmethod
    def of(cls, rules: Ruleset[StateT, SetupT]) -> Plugin[StateT, SetupT]:
        """A record of ``rules`` alone, for a ruleset built in code and handed to a match without its record: no
        narrator but the plain one, no GM rulings, no policies beyond ``random``."""
        return cls(name=rules.name, title=rules.title, rules=lambda: rules)


#: A record of any ruleset: what the registry holds (see :data:`~affray.core.engine.AnyRuleset` for why ``Any``).
AnyPlugin: TypeAlias = Plugin[Any, Any]


class Deferred:
    """A module imported on its first attribute read: what a record's loaders read their parts from.

    A ruleset's ``plugin.py`` imports its parts' modules for the type checker only, and binds the same names to
    :func:`deferred` modules when it runs::

        if TYPE_CHECKING:
            from affray.rulesets.hud import odds, policies
        else:
            odds, policies = deferred(__package__, "odds", "policies")

        PLUGIN = Plugin(..., policies=lambda: policies.POLICIES, duel=lambda: odds.DUEL)

    Why: reading the record imports nothing (the odds load when someone asks for odds, the numpy batch path when a
    simulation asks for it), and mypy, which reads only the first branch, checks each loader's part against the
    type the record declares for it (``lambda: odds.DUEL`` must be a :class:`DuelModel`), all without one loader
    function per part and per ruleset. A name left out of the second branch fails when its part loads
    (``tests/core/test_layout.py`` loads every part of every record)."""

    __slots__ = ("_deferred_module", "_deferred_name")

    def __init__(self, name: str) -> None:
        self._deferred_name = name
        self._deferred_module: object = None

    def __getattr__(self, attribute: str) -> object:
        module = self._deferred_module
        if module is None:
            module = self._deferred_module = importlib.import_module(self._deferred_name)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<deferred module {self._deferred_name}>"


def deferred(package: str | None, *modules: str) -> tuple[Deferred, ...]:
    """The modules ``package.<module>`` (``"characters.show"`` for a sub-package's module), each imported on its
    first attribute read (:class:`Deferred`); ``package`` is the caller's ``__package__``."""
    if not package:
        raise ValueError("deferred() needs the package its modules are in (pass __package__)")
    return tuple(Deferred(f"{package}.{module}") for module in modules)


#: The rules version of a log or stored table that records none: it was made before versions were recorded, when
#: every ruleset's was "1".
UNRECORDED_RULES_VERSION = "1"


def rules_changed(ruleset: str, recorded: str | None, what: str) -> str | None:
    """Why a ``what`` ("log", "table") made under ``ruleset``'s rules version ``recorded`` (None: made before versions
    were recorded, so :data:`UNRECORDED_RULES_VERSION`) cannot be replayed here: the sentence naming both versions,
    e.g. "this table was made under warp rules version 1; this affray runs version 2". None when the versions are
    the same. An unknown ruleset: ``KeyError`` (:func:`plugin`).

    This affray holds only its own rules, so a log or table of other rules would replay into other events (or be
    refused half-way): it is refused whole instead, before anything replays."""
    made = UNRECORDED_RULES_VERSION if recorded is None else recorded
    runs = plugin(ruleset).rules_version
    if made == runs:
        return None
    return f"this {what} was made under {ruleset} rules version {made}; this affray runs version {runs}"


_SOURCES: dict[str, str] = {}
_PLUGINS: dict[str, AnyPlugin] = {}


def register_source(name: str, module: str) -> None:
    """Make the ruleset ``name`` known; its record is ``module.PLUGIN``, imported on first use."""
    _SOURCES[name] = module


def register(plugin: AnyPlugin) -> None:
    """Register a record built in code (it replaces any source of the same name)."""
    _SOURCES.pop(plugin.name, None)
    _PLUGINS[plugin.name] = plugin


def unregister(name: str) -> None:
    """Forget a ruleset (tests register a toy ruleset and remove it again)."""
    _SOURCES.pop(name, None)
    _PLUGINS.pop(name, None)


def plugin_names() -> list[str]:
    return sorted({*_SOURCES, *_PLUGINS})


def plugin(name: str) -> AnyPlugin:
    """The record of ruleset ``name``; ``KeyError`` with the known names if there is none."""
    found = _PLUGINS.get(name)
    if found is not None:
        return found
    module = _SOURCES.get(name)
    if module is None:
        raise KeyError(f"unknown ruleset '{name}'; known rulesets: {', '.join(plugin_names())}")
    record = importlib.import_module(module).PLUGIN
    if not isinstance(record, Plugin) or record.name != name:
        raise TypeError(f"{module}.PLUGIN is not the Plugin record of '{name}'")
    _PLUGINS[name] = record
    return record


def get_ruleset(name: str) -> AnyRuleset:
    """The rules of the ruleset called ``name`` (:meth:`Plugin.ruleset` of its record); ``KeyError`` with the known
    names if there is none. The built-in rulesets are made known when the ``affray`` package is imported
    (``affray/__init__.py`` imports ``affray.rulesets``), so core never imports upward."""
    return plugin(name).ruleset()


def ruleset_names() -> list[str]:
    """The names of every known ruleset (:func:`plugin_names`)."""
    return plugin_names()
