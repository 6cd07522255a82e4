"""The ``affray`` command line. Every failure a user can cause exits non-zero with one message."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from affray.cli.character import character_app
from affray.cli.odds import odds_app
from affray.cli.render import CliError, console, escape, fail, narrate
from affray.cli.schema import schema_app
from affray.core.content import ContentError
from affray.core.log import LogFormatError, import_log, read_log, verify
from affray.core.notation import NotationError, parse, roll_expr
from affray.core.rng import VerifiableRNG, new_secret_seed, seed_from_int

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="affray: a rules-true combat engine for tabletop RPGs (Sim HuD, WaRP, Spellchrome, "
                       "WitchHammer).")
content_app = typer.Typer(no_args_is_help=True, help="Check content and scenario files.")
app.add_typer(content_app, name="content")
app.add_typer(odds_app, name="odds")
app.add_typer(character_app, name="character")
app.add_typer(schema_app, name="schema")

SeedOpt = Annotated[int | None, typer.Option("--seed", help="a fixed seed (public, reproducible)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object instead of text")]


@app.command()
def roll(notation: Annotated[str, typer.Argument(help="e.g. 3d6+1b, 1d13+2, 4d6kh3")], seed: SeedOpt = None,
         as_json: JsonOpt = False) -> None:
    """Roll dice from notation: NdS, kh/kl keep, +M/-M, +Nb/+Np WaRP bonus/penalty dice."""
    try:
        expr = parse(notation)
    except NotationError as exc:
        raise CliError(str(exc)) from None
    rng = VerifiableRNG(seed_from_int(seed) if seed is not None else new_secret_seed())
    result = roll_expr(rng, expr)
    if as_json:
        data = result.to_dict()
        data["commitment"] = rng.commitment
        data["seed"] = rng.seed.hex()
        print(json.dumps(data))
        return
    faces = " ".join(str(d.value) if d.kept else f"({d.value})" for d in result.dice)
    console.print(f"{escape(result.notation)}: [{faces}] {result.modifier:+d} = [bold]{result.total}[/]"
                  if result.modifier else f"{escape(result.notation)}: [{faces}] = [bold]{result.total}[/]")


@app.command()
def fight(scenario: Annotated[Path, typer.Argument(help="a scenario YAML file")], seed: SeedOpt = None,
          as_json: JsonOpt = False,
          log: Annotated[Path | None, typer.Option("--log", help="write the match log (JSON) here")] = None,
          play_seat: Annotated[str | None, typer.Option("--play", help="play this seat at the terminal")] = None,
          policy: Annotated[list[str] | None, typer.Option(
              "--policy", help="SIDE=NAME or COMBATANT=NAME (random, heuristic, human); repeatable")] = None,
          ) -> None:
    """Run a fight: policies play their seats; --play SEAT lets you play one."""
    from affray.cli.fight import run_fight

    result = run_fight(scenario, seed, as_json, log, play_seat, policy or [])
    if as_json:
        print(json.dumps(result))
    elif log is not None:
        console.print(f"log written to {log}")


@app.command()
def sim(scenario: Annotated[Path, typer.Argument(help="a scenario YAML file")],
        n: Annotated[int, typer.Option("-n", "--fights", min=1, help="how many fights")] = 1000,
        seed: Annotated[int, typer.Option("--seed")] = 0,
        workers: Annotated[int | None, typer.Option("--workers", help="local processes (default: all cores)")] = None,
        policy: Annotated[list[str] | None, typer.Option("--policy", help="SIDE=NAME or COMBATANT=NAME")] = None,
        plot: Annotated[Path | None, typer.Option("--plot", help="write a plot (.png or .svg)")] = None,
        as_json: JsonOpt = False,
        sample: Annotated[bool, typer.Option("--sample", help="also narrate one sample fight")] = False,
        scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address")] = None,
        engine: Annotated[bool, typer.Option("--engine", help="never use a vectorised batch path")] = False,
        chunk: Annotated[int | None, typer.Option("--chunk", min=1, help="fights per chunk")] = None) -> None:
    """Simulate N fights: win rates with 95% intervals, rounds, risks per combatant."""
    from affray.cli.sim import sim_command

    sim_command(scenario, n, seed, workers, policy or [], plot, as_json, sample, scheduler, engine, chunk)


@app.command()
def sweep(scenario: Annotated[Path, typer.Argument(help="a scenario YAML file")],
          param: Annotated[str, typer.Option("--param", help="PATH=LO..HI[:STEP], e.g. widow.stats.endurance=6..14:2")],
          n: Annotated[int, typer.Option("-n", "--fights", min=1, help="fights per point at most")] = 1000,
          seed: Annotated[int, typer.Option("--seed")] = 0,
          workers: Annotated[int | None, typer.Option("--workers")] = None,
          policy: Annotated[list[str] | None, typer.Option("--policy")] = None,
          precision: Annotated[float | None, typer.Option(
              "--precision", help="stop a point once its 95% interval half-width is below this")] = None,
          plot: Annotated[Path | None, typer.Option("--plot")] = None, as_json: JsonOpt = False,
          scheduler: Annotated[str | None, typer.Option("--scheduler")] = None,
          engine: Annotated[bool, typer.Option("--engine")] = False) -> None:
    """Vary one number of a scenario and report the win rate at each value."""
    from affray.cli.sim import sweep_command

    sweep_command(scenario, param, n, seed, workers, policy or [], precision, plot, as_json, scheduler, engine)


@app.command()
def replay(log: Annotated[Path, typer.Argument(help="a match log written by --log")]) -> None:
    """Narrate a logged match by replaying its actions."""
    match = import_log(read_log(log))
    narrate(match.events(), match.names())


@app.command("verify")
def verify_cmd(log: Annotated[Path, typer.Argument(help="a match log written by --log")]) -> None:
    """Check the seed against its commitment, re-derive every roll and replay every action."""
    report = verify(read_log(log))
    if not report.ok:
        for problem in report.problems:
            fail(problem)
        raise typer.Exit(1)
    console.print(f"[green]verified[/]: seed matches its commitment; {report.rolls_checked} dice re-derived, "
                  f"{report.actions_checked} actions replayed, events identical.")


@app.command("options")
def options_cmd(ruleset: Annotated[str, typer.Argument(help="hud, warp, spellchrome or witchhammer")]) -> None:
    """List a ruleset's named rule options with their defaults and rule IDs."""
    from rich.table import Table

    from affray.core.engine import get_ruleset
    from affray.core.options import describe

    try:
        rs = get_ruleset(ruleset)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    table = Table(title=f"{rs.title}: rule options", title_justify="left")
    for col in ("option", "default", "rule", "meaning"):
        table.add_column(col)
    for info in describe(rs.options_type):
        table.add_row(info.name, repr(info.default), info.rule, escape(info.doc))
    console.print(table)


@content_app.command("check")
def content_check(path: Annotated[Path, typer.Argument(help="a content/scenario file or a folder")]) -> None:
    """Validate content and scenario files; every problem is listed with its file and field."""
    from affray.cli.checks import check_path

    checked, problems = check_path(path)
    for problem in problems:
        fail(problem)
    if problems:
        raise typer.Exit(1)
    console.print(f"[green]ok[/]: {checked} file(s) valid")


def main() -> None:
    """Entry point: run the app, turning expected failures into a message and an exit code.

    Click handles usage errors itself (exit code 2); domain errors raised inside a command (a bad file,
    bad notation, a broken log) are printed here as one message, never a traceback.
    """
    try:
        app()
    except CliError as exc:
        fail(exc.message)
        sys.exit(exc.code)
    except (ContentError, LogFormatError) as exc:
        fail(str(exc))
        sys.exit(2)
