"""The library's front door: load a scenario, start a match, let policies play.

Example::

    import affray
    scenario = affray.load_scenario("examples/hud/nerdified_duel.yaml")
    match = scenario.start(seed=7)
    affray.play(match, scenario.policies(match))
    print(match.outcome())
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import affray.characters  # noqa: F401  (registers the readers of 'sheet:' files with core.sheets)
from affray.ai.base import Policy, policy_names
from affray.ai.runner import policies_for
from affray.core.content import ContentError, ContentLibrary, Problem, ReferenceProblem, load_pack
from affray.core.engine import GM, AnyRuleset, CombatantReport
from affray.core.files import MAX_YAML_BYTES, read_text
from affray.core.hidden import SETUP_KEY as HIDDEN_KEY
from affray.core.match import Match
from affray.core.options import OptionError, parse_options
from affray.core.plugin import AnyPlugin, plugin
from affray.core.rng import FastRNG, seed_from_int
from affray.core.scenario import ScenarioBase, load_scenario_data, validate_scenario

if TYPE_CHECKING:
    from affray.sim.balance import Balance
    from affray.sim.report import SimReport


@dataclass(frozen=True)
class Scenario:
    """A validated scenario with its content resolved: everything needed to start matches."""

    path: str
    #: the ruleset's plug-in record (the scenario file names the ruleset: the look-up by name is here)
    plugin: AnyPlugin
    model: ScenarioBase
    setup: dict[str, Any]
    options: dict[str, Any]
    seats: dict[str, str] = field(default_factory=dict)
    controllers: dict[str, str] = field(default_factory=dict)
    #: the setup-only parts of the memo, shared by every match this scenario starts (``Memo.static``)
    shared: dict[Hashable, object] = field(default_factory=dict, repr=False, compare=False)
    #: SHA-256 of the scenario file's text when :func:`load_scenario` read it (``None`` when built from data)
    sha256: str | None = field(default=None, compare=False)

    @property
    def ruleset(self) -> AnyRuleset:
        """The ruleset's rules (:meth:`Plugin.ruleset <affray.core.plugin.Plugin.ruleset>` of :attr:`plugin`)."""
        return self.plugin.ruleset()

    def start(self, seed: int | bytes | None = None) -> Match:
        """A new live match (verifiable dice). ``seed``: an int (public, reproducible), bytes, or None."""
        raw = seed_from_int(seed) if isinstance(seed, int) else seed
        return Match(
            self.plugin,
            self.setup,
            self.options,
            seed=raw,
            seats=self.seats,
            shared=self.shared,
            controllers=self.controllers,
        )

    def policies(self, match: Match, overrides: Mapping[str, str] | None = None) -> dict[str, Policy]:
        return policies_for(match, overrides)


def _content_paths(base: Path, model: ScenarioBase, extra: Iterable[str | Path]) -> list[Path]:
    return [base / p for p in model.content] + [Path(p) for p in extra]


def told_apart(setup: dict[str, object]) -> dict[str, object]:
    """``setup`` with combatants of the same name numbered in their order ("Ash Jackal 1", "Ash Jackal 2"), so that
    the board, the combatant cards and the story can tell them apart. Every ruleset's setup lists its combatants as
    ``combatants: [{"id", "name", ...}]``; a setup without that list is returned as it is."""
    combatants = setup.get("combatants")
    if not isinstance(combatants, list):
        return setup
    names = [c.get("name") for c in combatants if isinstance(c, dict)]
    repeated = {n for n in names if isinstance(n, str) and names.count(n) > 1}
    if not repeated:
        return setup
    seen: dict[str, int] = {}
    numbered = []
    for c in combatants:
        name = c.get("name") if isinstance(c, dict) else None
        if isinstance(name, str) and name in repeated:
            seen[name] = seen.get(name, 0) + 1
            c = {**c, "name": f"{name} {seen[name]}"}
        numbered.append(c)
    return {**setup, "combatants": numbered}


def load_scenario(path: str | Path, content: Iterable[str | Path] = ()) -> Scenario:
    """Read and check a scenario file; raise :class:`ContentError` naming the file and field if broken. The
    scenario keeps the SHA-256 of the file's text (``Scenario.sha256``), which simulation reports record."""
    scenario = scenario_from_data(load_scenario_data(path), path, content)
    digest = hashlib.sha256(read_text(path, MAX_YAML_BYTES).encode()).hexdigest()
    return replace(scenario, sha256=digest)


def _try_setup(
    ruleset: AnyRuleset, model: ScenarioBase, setup: dict[str, Any], options: object, path: str | Path
) -> None:
    """Build the first state once, so what ``fight`` would refuse is refused here, by ``content check`` too:
    a setup the ruleset cannot start (WitchHammer's ``default_card``), a broken invariant, a starting HP above
    its maximum (refused, never clamped silently) or at 0 or less for a combatant the rules let act."""
    try:
        state, _ = ruleset.setup(setup, options, FastRNG(0))
    except ValueError as exc:
        raise ContentError(path, [Problem("(setup)", str(exc))]) from None
    broken = [Problem("(setup)", f"a starting state within the rules ({p})") for p in ruleset.invariants(state)]
    broken += [
        p
        for p in _hp_problems(ruleset.report(state), model, setup)
        if not any(p.field.startswith(f) for f in _flagged(broken, model))
    ]
    if broken:
        raise ContentError(path, broken)


def _flagged(broken: list[Problem], model: ScenarioBase) -> list[str]:
    """The combatant fields an invariant problem already names (one message per problem)."""
    return [
        f"sides[{a}].combatants[{b}]."
        for a, side in enumerate(model.sides)
        for b, c in enumerate(side.combatants)
        if any(p.expected.startswith(f"a starting state within the rules ({c.id}") for p in broken)
    ]


def _hp_problems(reports: Mapping[str, CombatantReport], model: ScenarioBase, setup: dict[str, Any]) -> list[Problem]:
    fields = {
        c.id: f"sides[{a}].combatants[{b}]" for a, side in enumerate(model.sides) for b, c in enumerate(side.combatants)
    }
    out = []
    for c in setup.get("combatants", []):
        report = reports.get(str(c.get("id"))) if isinstance(c, dict) else None
        if report is None:
            continue
        key = "hp" if "hp" in c else "health"
        where = f"{fields.get(c['id'], c['id'])}.{key}"
        if isinstance(c.get("hp"), int) and c["hp"] > report.hp_max:
            out.append(Problem(where, f"a starting HP of at most its maximum {report.hp_max} (got {c['hp']})"))
        elif report.hp <= 0 and not report.down:
            out.append(
                Problem(
                    where,
                    f"a starting {'HP' if key == 'hp' else 'Health'} above 0 for a combatant "
                    f"who acts (got {report.hp}); at 0 or less the rules would not let it fight",
                )
            )
    return out


ContentPatch = Callable[[ContentLibrary], None]


def scenario_from_data(
    data: Mapping[str, object],
    path: str | Path = "<scenario>",
    content: Iterable[str | Path] = (),
    patch: ContentPatch | None = None,
) -> Scenario:
    """Build a scenario in code: check ``data`` (the mapping a scenario file holds) as if read from ``path``
    (errors name it; relative ``content:`` paths resolve from its folder) and raise :class:`ContentError` naming
    the field if it is broken. ``patch`` may change the content library before references are resolved (used by
    sweeps)."""
    if not isinstance(data, Mapping):
        raise ContentError(path, [Problem("(top level)", "a mapping with ruleset, sides, ...")])
    name = data.get("ruleset")
    if not isinstance(name, str):
        raise ContentError(path, [Problem("ruleset", "the name of a ruleset (e.g. hud)")])
    data = dict(data)
    try:
        record = plugin(name)
    except KeyError as exc:
        raise ContentError(path, [Problem("ruleset", str(exc.args[0]))]) from None
    ruleset = record.ruleset()
    model = validate_scenario(ruleset.scenario_type, data, path)
    library = ruleset.content().copy()
    load_pack(ruleset.content_type, ruleset.name, _content_paths(Path(path).parent, model, content), into=library)
    if patch is not None:
        patch(library)
    try:
        setup = told_apart(ruleset.prepare(model, library))
        options = parse_options(ruleset.options_type, model.options)  # unknown, ill-typed or out of range
    except ReferenceProblem as exc:
        raise ContentError(path, [Problem(exc.field, exc.expected)]) from None
    except OptionError as exc:
        raise ContentError(path, [Problem("options", str(exc))]) from None
    hiding = [c.id for _, c in model.combatants() if getattr(c, "hidden", False)]
    if hiding:  # hidden foes (core/hidden.py): the match reads them from the setup, the rules never do
        setup[HIDDEN_KEY] = list(hiding)
    _try_setup(ruleset, model, setup, options, path)
    known = set(policy_names(record)) | {"human"}
    seats, controllers = {}, {}
    for i, side in enumerate(model.sides):
        for j, c in enumerate(side.combatants):
            if c.controller not in known:
                raise ContentError(
                    path,
                    [
                        Problem(
                            f"sides[{i}].combatants[{j}].controller",
                            f"one of {', '.join(sorted(known))} (got {c.controller!r})",
                        )
                    ],
                )
            if getattr(c, "hidden", False) and c.seat not in (None, GM):
                raise ContentError(
                    path,
                    [
                        Problem(
                            f"sides[{i}].combatants[{j}].seat",
                            f"'gm' or none: a hidden combatant is played from the GM's seat (got {c.seat!r})",
                        )
                    ],
                )
            seats[c.id] = c.seat or (GM if getattr(c, "hidden", False) else c.id)
            controllers[c.id] = c.controller
    if model.gm.controller not in known:
        raise ContentError(
            path, [Problem("gm.controller", f"one of {', '.join(sorted(known))} (got {model.gm.controller!r})")]
        )
    seats.setdefault(GM, GM)
    controllers[GM] = model.gm.controller
    return Scenario(str(path), record, model, setup, dict(model.options), seats, controllers)


Engine = Literal["auto", "fast", "full"]


def simulate(
    scenario: str | Path | Scenario | Mapping[str, object],
    n: int = 1000,
    *,
    seed: int = 0,
    policies: Mapping[str, str] | None = None,
    workers: int | None = 1,
    engine: Engine = "auto",
    chunk: int | None = None,
) -> SimReport:
    """Play ``n`` fights of ``scenario`` (a scenario file's path, a :class:`Scenario` or the mapping a scenario file
    holds) and report them, exactly as ``affray sim`` does for the same arguments: the same seed, fights and chunk
    size give the same numbers, whatever ``workers`` ran them.

    ``policies``: ``{SIDE or COMBATANT: policy name}`` over the scenario's controllers (``affray sim --policy``).
    ``workers``: local processes (1: this process; ``None``: every core). ``engine``: ``"auto"`` takes a ruleset's
    vectorised batch path where the scenario fits one, else the engine's fast path; ``"fast"`` never the batch
    path (``--engine``); ``"full"`` plays every fight through the full engine (``--full``). ``chunk``: fights per
    chunk (``--chunk``; the default depends on the path). A broken scenario raises :class:`ContentError`; an
    unknown policy, side or combatant, or a bad count, :class:`ValueError` with the sentence the CLI prints.
    """
    from affray.sim.executors import ExecutorError, executor_for
    from affray.sim.session import sim_report
    from affray.sim.session import simulate as run_fights

    if isinstance(scenario, Scenario):
        loaded = scenario
    elif isinstance(scenario, str | Path):
        loaded = load_scenario(scenario)
    else:
        loaded = scenario_from_data(scenario)
    if n < 1:
        raise ValueError(f"n is how many fights to play, at least 1 (got {n})")
    if engine not in ("auto", "fast", "full"):
        raise ValueError(f"engine is 'auto', 'fast' or 'full' (got {engine!r})")
    if chunk is not None and chunk < 1:
        raise ValueError(f"chunk is a number of fights, at least 1 (got {chunk})")
    try:
        with executor_for(workers) as executor:
            outcome = run_fights(
                loaded,
                n,
                seed,
                executor,
                dict(policies or {}),
                engine_only=engine == "fast",
                chunk=chunk,
                full=engine == "full",
            )
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None
    except ExecutorError as exc:
        raise ValueError(str(exc)) from None
    return sim_report(loaded, outcome)


def balance(
    scenario: str | Path | Mapping[str, object],
    param: str,
    target: float,
    side: str | None = None,
    *,
    precision: float = 0.03,
    most: int | None = None,
    seed: int = 0,
    policies: Mapping[str, str] | None = None,
    workers: int | None = 1,
    exact: bool = False,
) -> Balance:
    """The value of one whole-number parameter that brings ``side``'s win chance closest to ``target``, exactly as
    ``affray balance SCENARIO --param PARAM --target T [--side S]`` finds it (:mod:`affray.sim.balance`): the same
    seed gives the same answer.

    ``scenario``: a scenario file's path or the mapping a scenario file holds (a loaded :class:`Scenario` cannot be
    re-parameterised: its content is resolved). ``param``: ``PATH=LO..HI`` as ``--param`` writes it
    (``hald.stats.endurance=6..14``). ``side``: default the first side. ``precision``: each value's 95% interval
    half-width to play to (``most`` fights at most; default: as many as that precision needs). ``exact``: the duel
    solver instead of simulation (one-on-one duels; ``policies`` do not apply). The returned :class:`Balance` has
    the answer (``best``, its ``neighbours``), whether the target is ``reached`` in the range, and
    :meth:`~affray.sim.balance.Balance.sentences` says it in words. A broken scenario raises :class:`ContentError`;
    a bad parameter, side, target or policy :class:`ValueError` with the sentence the CLI prints."""
    from affray.sim.balance import BalanceError, fights_for
    from affray.sim.executors import ExecutorError, executor_for
    from affray.sim.session import balance as find
    from affray.sim.sweep import SweepError, parse_param

    if isinstance(scenario, str | Path):
        source: str | Path = scenario
        data = load_scenario_data(Path(scenario))
    else:
        source, data = "<scenario>", dict(scenario)
    loaded = scenario_from_data(data, source)
    sides = [s.name for s in loaded.model.sides]
    chosen = sides[0] if side is None else side
    if chosen not in sides:
        raise ValueError(f"side {chosen}: the scenario has no side called that; its sides are {', '.join(sides)}")
    if exact and policies:
        raise ValueError("exact solves the duel with its model's policies; policies do not apply to it")
    try:
        parsed = parse_param(param)
        with executor_for(None if exact else workers) as executor:
            return find(
                data,
                source,
                parsed,
                chosen,
                target,
                precision,
                most or fights_for(precision),
                seed,
                executor,
                dict(policies or {}),
                exact=exact,
            )
    except (SweepError, BalanceError, KeyError, ExecutorError) as exc:
        raise ValueError(str(exc.args[0])) from None
