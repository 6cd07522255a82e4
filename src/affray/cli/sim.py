"""``affray sim`` and ``affray sweep``: Monte Carlo balance runs with a progress bar, reports and plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from affray.cli.fight import parse_overrides
from affray.cli.render import CliError, console, escape, narrate
from affray.sim.stats import outcome_rows

SeedOpt = Annotated[int, typer.Option("--seed", help="the run's seed: the same seed gives the same numbers")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object")]


def _progress(total: int, quiet: bool) -> Progress:
    return Progress(TextColumn("[bold]fights"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=console, disable=quiet, transient=True)


def _load(path: Path) -> Any:
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
    console.print(f"rounds: mean {report['rounds']['mean']:.2f}; "
                  + ", ".join(f"P(≥{t['k']}) {t['p_at_least']:.1%}" for t in marks))
    risks = Table(title="combatants", title_justify="left")
    for col in ("combatant", "side", "P(down)", "P(dead)", "HP left", "dealt", "taken", "conditions"):
        risks.add_column(col)
    for c in report["combatants"].values():
        conds = ", ".join(f"{k} {v:.1%}" for k, v in c["conditions"].items())
        risks.add_row(escape(c["name"]), escape(c["side"]), f"{c['p_down']:.1%}", f"{c['p_dead']:.1%}",
                      f"{c['hp_left_mean']:.1f}/{c['hp_max']}", f"{c['damage_dealt_mean']:.1f}",
                      f"{c['damage_taken_mean']:.1f}", escape(conds))
    console.print(risks)


def sim_command(scenario: Path, n: int, seed: int, workers: int | None, policy: list[str], plot: Path | None,
                as_json: bool, sample: bool, scheduler: str | None, engine: bool, chunk: int | None,
                full: bool = False) -> None:
    from affray.sim.executors import ExecutorError, executor_for
    from affray.sim.session import simulate

    _check_outputs(plot, workers)
    loaded = _load(scenario)
    overrides = parse_overrides(policy)
    started = f"simulating {n:,} fights of {escape(loaded.model.name or scenario)} (Ctrl-C stops and reports the " \
              "fights that finished)"
    try:
        with executor_for(workers, scheduler) as executor, _progress(n, as_json) as bar:
            task = bar.add_task("fights", total=n)

            def advance(k: int) -> None:
                if k == 0 and not as_json:  # the run is under way: Ctrl-C now reports what finished
                    console.print(started)
                bar.advance(task, k)

            outcome = simulate(loaded, n, seed, executor, overrides, advance, engine, chunk, full)
    except (KeyError, ExecutorError) as exc:
        raise CliError(str(exc.args[0])) from None
    report = outcome.report
    done = outcome.result
    report.update({"seed": seed, "path": outcome.path, "notes": outcome.notes, "interrupted": done.interrupted,
                   "chunks": {"done": done.chunks_done, "total": done.chunks_total}})
    if plot is not None:
        from affray.sim.plots import plot_report

        plot_report(report, plot, loaded.model.name or str(scenario))
    chosen = _sample(loaded, outcome.spec) if sample and not done.interrupted and outcome.spec else None
    if chosen is not None and as_json:
        report["sample"] = {"fight": chosen.index, "seed": chosen.seed,
                            "actions": [{"actor": a, "action": x} for a, x in chosen.actions],
                            "events": [e.to_dict() for e in chosen.match.events()]}
    if as_json:
        print(json.dumps(report))
    else:
        for note in outcome.notes:
            console.print(f"[yellow]note:[/] {escape(note)}")
        if done.interrupted:
            console.print(f"[yellow]interrupted:[/] {done.chunks_done} of {done.chunks_total} chunks finished; "
                          "the report covers those.")
        console.print(f"path: {outcome.path}")
        render_report(report, loaded.model.name or str(scenario))
        if plot is not None:
            console.print(f"plot written to {escape(plot)}")
    if chosen is not None and not as_json:
        console.rule(f"fight {chosen.index + 1} of the run (seed {chosen.seed}), replayed in full from its "
                     f"{len(chosen.actions)} recorded actions")
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


def _sample(loaded: Any, spec: Any) -> Any:
    """The run's first fight, replayed in full from its record (:func:`affray.sim.session.sample_fight`)."""
    from affray.sim.fast import FastPathError
    from affray.sim.session import sample_fight

    try:
        return sample_fight(loaded, spec)
    except FastPathError as exc:
        raise CliError(f"the sample fight could not be replayed: {exc}") from None


def sweep_command(scenario: Path, param: str, n: int, seed: int, workers: int | None, policy: list[str],
                  precision: float | None, plot: Path | None, as_json: bool, scheduler: str | None,
                  engine: bool) -> None:
    from affray.core.scenario import load_scenario_data
    from affray.sim.executors import ExecutorError, executor_for
    from affray.sim.session import sweep
    from affray.sim.sweep import SweepError, parse_param

    _check_outputs(plot, workers, precision)
    try:
        parsed = parse_param(param)
        _load(scenario)  # the scenario itself is valid before any point is made of it
        data = load_scenario_data(scenario)
        overrides = parse_overrides(policy)
        total = n * len(parsed.values)
        with executor_for(workers, scheduler) as executor, _progress(total, as_json) as bar:
            task = bar.add_task("fights", total=total)
            points = sweep(data, scenario, parsed, n, seed, executor, overrides, precision,
                           progress=lambda k: bar.advance(task, k), engine_only=engine)
    except (SweepError, KeyError, ExecutorError) as exc:
        raise CliError(str(exc.args[0])) from None
    interrupted = any(p.get("interrupted") for p in points)
    sides = list(points[0]["sides"]) if points else []
    if plot is not None:
        from affray.sim.plots import plot_sweep

        plot_sweep(points, parsed.path, sides, plot)
    if as_json:
        print(json.dumps({"param": parsed.path, "seed": seed, "points": points, "interrupted": interrupted}))
        if interrupted:
            raise typer.Exit(130)
        return
    table = Table(title=f"sweep of {escape(parsed.path)}", title_justify="left")
    table.add_column(parsed.path)
    table.add_column("fights", justify="right")
    for side in sides:
        table.add_column(f"{side} win rate (95%)", justify="right")
    rows = [outcome_rows(p) for p in points]  # draws and escapes (WL-B14) beside the wins when any happen
    shown = [r.label for r in rows[0] if r.side or any(x.count for pr in rows for x in pr if x.label == r.label)] \
        if rows else []
    for label in shown[len(sides):]:
        table.add_column(f"{label} (95%)", justify="right")
    for p, point_rows in zip(points, rows, strict=True):
        cells = [f"{r.rate:.1%} ({r.ci95[0]:.1%}–{r.ci95[1]:.1%})" for r in point_rows if r.label in shown]
        table.add_row(str(p["value"]), f"{p['fights']:,}", *cells)
    console.print(table)
    if plot is not None:
        console.print(f"plot written to {escape(plot)}")
    if interrupted:
        console.print(f"[yellow]interrupted:[/] {len(points)} of {len(parsed.values)} points, the last one partly.")
        raise typer.Exit(130)
