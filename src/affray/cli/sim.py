"""``affray sim`` and ``affray sweep``: Monte Carlo balance runs with a progress bar, reports and plots."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from affray.cli.fight import parse_overrides
from affray.cli.render import CliError, console, escape, narrate
from affray.sim.stats import outcome_rows

if TYPE_CHECKING:
    from affray.api import Scenario
    from affray.sim.balance import Balance
    from affray.sim.runner import SimSpec
    from affray.sim.session import Sample

SeedOpt = Annotated[int, typer.Option("--seed", help="the run's seed: the same seed gives the same numbers")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object")]


def _progress(total: int, quiet: bool) -> Progress:
    return Progress(
        TextColumn("[bold]fights"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
        transient=True,
    )


def _load(path: Path) -> Scenario:
    from affray.api import load_scenario

    return load_scenario(path)


def render_report(report: dict[str, Any], title: str) -> None:
    table = Table(title=f"{escape(title)} — {report['fights']:,} fights", title_justify="left")
    for col in ("side", "wins", "win rate", "95% interval"):
        table.add_column(col, justify="right" if col != "side" else "left")
    for row in outcome_rows(report):  # each side's wins, the draws, the escapes (a side got away, WL-B14)
        lo, hi = row.ci95
        table.add_row(escape(row.label), f"{row.count:,}", f"{row.rate:.2%}", f"{lo:.2%} – {hi:.2%}")
    console.print(table)
    tail = report["rounds"]["tail"]
    marks = [t for t in tail if t["k"] in (2, 3, 5, 8, 10, 15, 20, 30)]
    word = report["rounds"].get("word", "round")
    console.print(
        f"{word}s: mean {report['rounds']['mean']:.2f}; "
        + ", ".join(f"P(≥{t['k']}) {t['p_at_least']:.1%}" for t in marks)
    )
    risks = Table(title="combatants", title_justify="left")
    for col in ("combatant", "side", "P(down)", "P(dead)", "HP left", "dealt", "taken", "conditions"):
        risks.add_column(col)
    for c in report["combatants"].values():
        conds = ", ".join(f"{k} {v:.1%}" for k, v in c["conditions"].items())
        risks.add_row(
            escape(c["name"]),
            escape(c["side"]),
            f"{c['p_down']:.1%}",
            f"{c['p_dead']:.1%}",
            f"{c['hp_left_mean']:.1f}/{c['hp_max']}",
            f"{c['damage_dealt_mean']:.1f}",
            f"{c['damage_taken_mean']:.1f}",
            escape(conds),
        )
    console.print(risks)


def render_stamp(report: dict[str, Any]) -> None:
    """What reproduces the run: the scenario and its digest, the seed, each seat's policy, the engine, the version."""
    scenario = report["scenario"]
    digest = f"sha256 {scenario['sha256']}" if scenario["sha256"] else "not read from a file"
    console.print(f"scenario: {escape(scenario['path'])} ({digest}; as simulated {scenario['setup_sha256'][:16]})")
    played = ", ".join(f"{escape(actor)} {escape(name)}" for actor, name in report["policies"].items())
    console.print(
        f"seed {report['seed']} · policies: {played} · engine {escape(report['path'])} · "
        f"affray {escape(report['version'])}, {escape(report['ruleset'])} rules "
        f"{escape(report['rules_version'])}"
    )


def sim_command(
    scenario: Path,
    n: int,
    seed: int,
    workers: int | None,
    policy: list[str],
    plot: Path | None,
    as_json: bool,
    sample: bool,
    scheduler: str | None,
    engine: bool,
    chunk: int | None,
    full: bool = False,
    records: Path | None = None,
) -> None:
    from affray.sim.executors import ExecutorError, executor_for
    from affray.sim.records import Columns, RecordsError, RecordsWriter, check_records_path
    from affray.sim.session import initial_reports, sim_report, simulate

    _check_outputs(plot, workers)
    if records is not None:
        from affray.core.files import check_output_path

        check_output_path(records, (".csv", ".parquet"), "--records")
        try:
            check_records_path(records)
        except RecordsError as exc:
            raise CliError(str(exc)) from None
    loaded = _load(scenario)
    overrides = parse_overrides(policy)
    started = (
        f"simulating {n:,} fights of {escape(loaded.model.name or scenario)} (Ctrl-C stops and reports the "
        "fights that finished)"
    )
    writer = RecordsWriter(records, Columns.of(initial_reports(loaded))) if records is not None else None
    try:
        with (
            executor_for(workers, scheduler) as executor,
            _progress(n, as_json) as bar,
            writer or nullcontext() as sink,
        ):
            task = bar.add_task("fights", total=n)

            def advance(k: int) -> None:
                if k == 0 and not as_json:  # the run is under way: Ctrl-C now reports what finished
                    console.print(started)
                bar.advance(task, k)

            outcome = simulate(loaded, n, seed, executor, overrides, advance, engine, chunk, full, sink)
    except (KeyError, ExecutorError) as exc:
        raise CliError(str(exc.args[0])) from None
    typed = sim_report(loaded, outcome)
    done = outcome.result
    report = {**typed.to_json(), "chunks": {"done": done.chunks_done, "total": done.chunks_total}}
    if plot is not None:
        from affray.sim.plots import plot_report

        plot_report(report, plot, loaded.model.name or str(scenario), typed.stamp_line())
    chosen = _sample(loaded, outcome.spec) if sample and not done.interrupted and outcome.spec else None
    if chosen is not None and as_json:
        report["sample"] = {
            "fight": chosen.index,
            "seed": chosen.seed,
            "actions": [{"actor": a, "action": x} for a, x in chosen.actions],
            "events": [e.to_dict() for e in chosen.match.events()],
        }
    if as_json:
        print(json.dumps(report))
    else:
        for note in outcome.notes:
            console.print(f"[yellow]note:[/] {escape(note)}")
        if done.interrupted:
            console.print(
                f"[yellow]interrupted:[/] {done.chunks_done} of {done.chunks_total} chunks finished; "
                "the report covers those."
            )
        render_stamp(report)
        render_report(report, loaded.model.name or str(scenario))
        if plot is not None:
            console.print(f"plot written to {escape(plot)}")
        if writer is not None:
            console.print(f"{writer.written:,} fights written to {escape(records)}, one row each")
    if chosen is not None and not as_json:
        console.rule(
            f"fight {chosen.index + 1} of the run (seed {chosen.seed}), replayed in full from its "
            f"{len(chosen.actions)} recorded actions"
        )
        narrate(chosen.match.events(), chosen.match)
    if done.interrupted:
        raise typer.Exit(130)


def _check_outputs(plot: Path | None, workers: int | None, precision: float | None = None) -> None:
    """Refuse now what would fail after the run: a plot path that cannot be written, no workers, a precision
    that no interval can reach (a half-width is between 0 and 0.5)."""
    from affray.core.files import check_output_path

    if plot is not None:
        check_output_path(plot, (".png", ".svg"), "--plot")
    if workers is not None and workers < 1:
        raise CliError(f"--workers must be at least 1 (got {workers})")
    if precision is not None and not 0 < precision < 0.5:
        raise CliError(f"--precision is a 95% interval half-width between 0 and 0.5, e.g. 0.01 (got {precision})")


def _sample(loaded: Scenario, spec: SimSpec) -> Sample:
    """The run's first fight, replayed in full from its record (:func:`affray.sim.session.sample_fight`)."""
    from affray.sim.fast import FastPathError
    from affray.sim.session import sample_fight

    try:
        return sample_fight(loaded, spec)
    except FastPathError as exc:
        raise CliError(f"the sample fight could not be replayed: {exc}") from None


def _side(loaded: Scenario, side: str | None) -> str:
    """``--side``, checked against the scenario's sides (default: the first)."""
    sides = [s.name for s in loaded.model.sides]
    if side is None:
        return str(sides[0])
    if side not in sides:
        raise CliError(f"--side {side}: the scenario has no side called that; its sides are {', '.join(sides)}")
    return side


def _exact_only(exact: bool, policy: list[str]) -> None:
    if exact and policy:
        raise CliError(
            "--exact solves the duel with its model's policies (affray odds duel says which); "
            "--policy does not apply to it"
        )


def _labels(loaded: Scenario, paths: list[str]) -> list[str]:
    from affray.sim.session import combatant_names
    from affray.sim.sweep import field_label

    names = combatant_names(loaded)
    return [field_label(path, names) for path in paths]


def sweep_command(
    scenario: Path,
    params: list[str],
    n: int,
    seed: int,
    workers: int | None,
    policy: list[str],
    precision: float | None,
    plot: Path | None,
    as_json: bool,
    scheduler: str | None,
    engine: bool,
    exact: bool = False,
    side: str | None = None,
) -> None:
    from affray.core.scenario import load_scenario_data
    from affray.sim.executors import ExecutorError, executor_for
    from affray.sim.session import run_stamp, run_stamp_line, sweep
    from affray.sim.sweep import SweepError, parse_param

    _check_outputs(plot, workers, precision)
    _exact_only(exact, policy)
    if not 1 <= len(params) <= 2:
        raise CliError(f"sweep varies one or two parameters: give --param once or twice (got {len(params)})")
    try:
        parsed = [parse_param(text) for text in params]
        if len(parsed) == 2 and parsed[0].path == parsed[1].path:
            raise CliError(f"--param {parsed[0].path} is given twice; a two-parameter sweep varies two fields")
        loaded = _load(scenario)  # the scenario itself is valid before any point is made of it
        chosen = _side(loaded, side)
        data = load_scenario_data(scenario)
        overrides = parse_overrides(policy)
        stamp = run_stamp(loaded, overrides, seed, engine, exact)
        points_total = len(parsed[0].values) * (len(parsed[1].values) if len(parsed) == 2 else 1)
        total = points_total * (1 if exact else n)
        with executor_for(workers, scheduler) as executor, _progress(total, as_json) as bar:
            task = bar.add_task("fights", total=total)
            points = sweep(
                data,
                scenario,
                parsed,
                n,
                seed,
                executor,
                overrides,
                precision,
                progress=lambda k: bar.advance(task, k),
                engine_only=engine,
                exact=exact,
                side=chosen,
            )
    except (SweepError, KeyError, ExecutorError) as exc:
        raise CliError(str(exc.args[0])) from None
    interrupted = any(p.get("interrupted") for p in points)
    sides = list(points[0]["sides"]) if points else []
    labels = _labels(loaded, [p.path for p in parsed])
    title = f"{loaded.model.name or scenario}: {' × '.join(labels)}"
    fights = "exact" if exact else f"at most {n:,} fights per point" + (f", ±{precision}" if precision else "")
    if plot is not None and points:
        from affray.sim.plots import plot_heatmap, plot_sweep

        if len(parsed) == 1:
            plot_sweep(points, labels[0], sides, plot, title, run_stamp_line(stamp, fights))
        else:
            plot_heatmap(points, labels, chosen, plot, title, run_stamp_line(stamp, fights))
    if as_json:
        body = {"param": parsed[0].path} if len(parsed) == 1 else {}
        print(
            json.dumps(
                {
                    **body,
                    "params": [p.path for p in parsed],
                    "side": chosen,
                    "exact": exact,
                    **stamp,
                    "points": points,
                    "interrupted": interrupted,
                }
            )
        )
        if interrupted:
            raise typer.Exit(130)
        return
    if len(parsed) == 1:
        _sweep_table(points, parsed[0].path, sides)
    else:
        _grid_table(points, [p.path for p in parsed], chosen)
    if exact:
        console.print(f"exact: {escape(_assumes(loaded))}")
    if plot is not None:
        console.print(f"plot written to {escape(plot)}")
    if interrupted:
        console.print(f"[yellow]interrupted:[/] {len(points)} of {points_total} points, the last one partly.")
        raise typer.Exit(130)


def _assumes(loaded: Scenario) -> str:
    from affray.odds.duels import duel_model

    return f"the duel model: {duel_model(loaded.plugin).assumes}"


def _cell(rate: float, ci95: list[float] | tuple[float, float]) -> str:
    lo, hi = ci95
    return f"{rate:.2%}" if lo == hi else f"{rate:.1%} ({lo:.1%}–{hi:.1%})"


def _sweep_table(points: list[dict[str, Any]], path: str, sides: list[str]) -> None:
    table = Table(title=f"sweep of {escape(path)}", title_justify="left")
    table.add_column(path)
    table.add_column("fights", justify="right")
    exact = bool(points) and points[0]["path"] == "exact"
    for side in sides:
        table.add_column(f"{side} win rate" + ("" if exact else " (95%)"), justify="right")
    rows = [outcome_rows(p) for p in points]  # draws and escapes (WL-B14) beside the wins when any happen
    shown = (
        [r.label for r in rows[0] if r.side or any(x.count or x.rate for pr in rows for x in pr if x.label == r.label)]
        if rows
        else []
    )
    for label in shown[len(sides) :]:
        table.add_column(f"{label}" + ("" if exact else " (95%)"), justify="right")
    for p, point_rows in zip(points, rows, strict=True):
        cells = [_cell(r.rate, r.ci95) for r in point_rows if r.label in shown]
        table.add_row(str(p["value"]), "exact" if exact else f"{p['fights']:,}", *cells)
    console.print(table)


def _grid_table(points: list[dict[str, Any]], paths: list[str], side: str) -> None:
    """One side's win rate over the grid: the first parameter down, the second across."""
    rows = sorted({p["values"][0] for p in points})
    cols = sorted({p["values"][1] for p in points})
    at = {tuple(p["values"]): p for p in points}
    table = Table(
        title=f"{escape(side)} win rate (± half its 95% interval) by {escape(paths[0])} (down) and "
        f"{escape(paths[1])} (across)",
        title_justify="left",
    )
    table.add_column("", no_wrap=True)
    for c in cols:
        table.add_column(str(c), justify="right")
    for r in rows:
        cells = []
        for c in cols:
            p = at.get((r, c))
            if p is None:
                cells.append("")
                continue
            rate, (lo, hi) = p["sides"][side]["win_rate"], p["sides"][side]["ci95"]
            cells.append(f"{rate:.2%}" if lo == hi else f"{rate:.1%} ±{(hi - lo) / 2:.1%}")
        table.add_row(str(r), *cells)
    console.print(table)


def balance_command(
    scenario: Path,
    param: str,
    target: float,
    side: str | None,
    precision: float,
    n: int | None,
    seed: int,
    workers: int | None,
    policy: list[str],
    as_json: bool,
    scheduler: str | None,
    engine: bool,
    exact: bool,
) -> None:
    from affray.core.scenario import load_scenario_data
    from affray.sim.balance import BalanceError, fights_for
    from affray.sim.executors import ExecutorError, executor_for
    from affray.sim.session import balance, run_stamp
    from affray.sim.sweep import SweepError, parse_param

    _check_outputs(None, workers, precision)
    _exact_only(exact, policy)
    try:
        parsed = parse_param(param)
        loaded = _load(scenario)
        chosen = _side(loaded, side)
        data = load_scenario_data(scenario)
        overrides = parse_overrides(policy)
        stamp = run_stamp(loaded, overrides, seed, engine, exact)
        most = n or fights_for(precision)
        with executor_for(None if exact else workers, scheduler) as executor, _progress(0, as_json or exact) as bar:
            task = bar.add_task("fights", total=None)
            found = balance(
                data,
                scenario,
                parsed,
                chosen,
                target,
                precision,
                most,
                seed,
                executor,
                overrides,
                lambda k: bar.advance(task, k),
                engine,
                exact,
            )
    except (SweepError, BalanceError, KeyError, ExecutorError) as exc:
        raise CliError(str(exc.args[0])) from None
    probes = [{"value": p.value, "win_rate": p.rate, "ci95": [p.low, p.high], "fights": p.fights} for p in found.probes]
    if as_json:
        best = found.best
        print(
            json.dumps(
                {
                    "param": parsed.path,
                    "range": [found.values[0], found.values[-1]],
                    "side": chosen,
                    "target": target,
                    "exact": exact,
                    "precision": None if exact else precision,
                    "value": best.value,
                    "win_rate": best.rate,
                    "ci95": [best.low, best.high],
                    "fights": best.fights,
                    "reached": found.reached,
                    "monotone": found.monotone,
                    "neighbours": [
                        {"value": p.value, "win_rate": p.rate, "ci95": [p.low, p.high], "fights": p.fights}
                        for p in found.neighbours
                    ],
                    "tried": probes,
                    "fights_total": found.fights,
                    "summary": " ".join(found.sentences()),
                    **stamp,
                    "interrupted": found.interrupted,
                }
            )
        )
    else:
        _balance_table(found, loaded, exact)
    if found.interrupted:
        raise typer.Exit(130)


def _balance_table(found: Balance, loaded: Scenario, exact: bool) -> None:
    from affray.sim.balance import pct, possessive

    table = Table(
        title=f"balance of {escape(found.param)} for {escape(possessive(found.side))} win chance {pct(found.target)}",
        title_justify="left",
    )
    table.add_column(found.param)
    table.add_column(f"{found.side} win chance" + ("" if exact else " (95%)"), justify="right")
    if not exact:
        table.add_column("fights", justify="right")
    shown = {p.value: p for p in (found.best, *found.neighbours)}
    for p in sorted(shown.values(), key=lambda p: p.value):
        mark = "  ← closest" if p.value == found.best.value else ""
        table.add_row(str(p.value), _cell(p.rate, (p.low, p.high)) + mark, *([] if exact else [f"{p.fights:,}"]))
    console.print(table)
    for sentence in found.sentences():
        console.print(escape(sentence))
    if exact:
        console.print(escape(_assumes(loaded)))
    elif (
        len(loaded.model.sides) == 2
        and all(len(s.combatants) == 1 for s in loaded.model.sides)
        and loaded.plugin.duel is not None
    ):
        console.print(
            "note: a one-on-one duel: --exact answers it exactly, with both sides playing the duel "
            "model's policy (affray odds duel says which)"
        )
