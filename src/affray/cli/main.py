"""The ``affray`` command line. Every failure a user can cause exits non-zero with one message."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from affray.cli.character import character_app
from affray.cli.db import db_app
from affray.cli.declared import RULESETS, NamesRulesets
from affray.cli.odds import odds_app
from affray.cli.render import CliError, console, escape, fail, narrate, warn
from affray.cli.schema import schema_app
from affray.cli.table import serve_command, table_app
from affray.core.content import ContentError
from affray.core.dice import Roll
from affray.core.files import FileProblem
from affray.core.json import JsonObject
from affray.core.log import LogFormatError, check_rules, import_log, read_log, verify
from affray.core.notation import DiceExpr, NotationError, parse, roll_expr
from affray.core.options import OptionError
from affray.core.rng import VerifiableRNG, new_secret_seed, seed_from_int
from affray.web.bounds import (
    BODY_TIMEOUT,
    FIRST_MESSAGE,
    HEADER_TIMEOUT,
    MAX_CONNECTIONS,
    PENDING_PER_ADDRESS,
    PER_ADDRESS,
    PING_INTERVAL,
    ConnectionLimits,
)

app = typer.Typer(
    cls=NamesRulesets,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=f"affray: a rules-true combat engine for tabletop RPGs (rulesets: {RULESETS}).",
)
content_app = typer.Typer(no_args_is_help=True, help="Check content and scenario files.")
app.add_typer(content_app, name="content")
app.add_typer(odds_app, name="odds")
app.add_typer(character_app, name="character")
app.add_typer(schema_app, name="schema")
app.add_typer(table_app, name="table")
app.add_typer(db_app, name="db")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            console.print(f"affray {version('affray')}")
        except PackageNotFoundError:
            console.print("affray (not installed as a package)")
        raise typer.Exit()


@app.callback()
def _root(
    _: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """affray: a rules-true combat engine for tabletop RPGs (rulesets: {rulesets})."""


SeedOpt = Annotated[int | None, typer.Option("--seed", help="a fixed seed (public, reproducible)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object instead of text")]
# The simulation commands' shared options (sim, sweep, balance): declared once, so their help says the same
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="local processes (default: all cores)")]
PoliciesOpt = Annotated[
    list[str] | None,
    typer.Option("--policy", help="SIDE=NAME or COMBATANT=NAME (random, steady, heuristic or search); repeatable"),
]
SchedulerOpt = Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address")]
EngineOpt = Annotated[bool, typer.Option("--engine", help="never use a vectorised batch path")]


@app.command()
def roll(
    notation: Annotated[str, typer.Argument(help="e.g. 3d6+1b, 1d13+2, 4d6kh3")],
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll dice from notation: NdS, kh/kl keep, +M/-M, +Nb/+Np bonus/penalty dice."""
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
    faces = _faces(expr, result)
    console.print(
        f"{escape(result.notation)}: {faces} {result.modifier:+d} = [bold]{result.total}[/]"
        if result.modifier
        else f"{escape(result.notation)}: {faces} = [bold]{result.total}[/]"
    )


def _faces(expr: DiceExpr, result: Roll) -> str:
    """The dice by group (``2d6 [3 5] -1d4 [2]``; one group: just ``[3 5]``), dropped dice in parentheses."""
    dice = list(result.dice)
    extra = abs(expr.bonus - expr.penalty)  # bonus/penalty dice join the only group (WR-B2)
    parts = []
    for group in expr.groups:
        mine, dice = dice[: group.count + extra], dice[group.count + extra :]
        shown = "\\[" + " ".join(str(d.value) if d.kept else f"({d.value})" for d in mine) + "]"
        parts.append(
            shown if len(expr.groups) == 1 else f"{'-' if group.sign < 0 else ''}{group.count}d{group.sides} {shown}"
        )
    return " ".join(parts) or "\\[]"


@app.command()
def fight(
    scenario: Annotated[Path | None, typer.Argument(help="a scenario YAML file (not with --resume)")] = None,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    log: Annotated[Path | None, typer.Option("--log", help="write the match log (JSON) here")] = None,
    play_seat: Annotated[str | None, typer.Option("--play", help="play this seat at the terminal")] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy", help="SIDE=NAME or COMBATANT=NAME (random, steady, heuristic, search, or human); repeatable"
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="where an unfinished --play fight is saved (default: affray-save.json)"),
    ] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help="continue a fight saved by --play")] = None,
) -> None:
    """Run a fight: policies play their seats; --play SEAT lets you play one; --resume SAVE continues one."""
    from affray.cli.fight import FightRequest, run_fight

    request = FightRequest(scenario, seed, as_json, log, play_seat, policy or [], save, resume)
    result = run_fight(request)
    if as_json:
        print(json.dumps(result))
    if result["stopped"] == "input ended":
        raise typer.Exit(1)


@app.command()
def sim(
    scenario: Annotated[Path, typer.Argument(help="a scenario YAML file")],
    n: Annotated[int, typer.Option("-n", "--fights", min=1, help="how many fights")] = 1000,
    seed: Annotated[
        int,
        typer.Option("--seed", help="the run's seed: the same seed, fight count and chunk size give the same numbers"),
    ] = 0,
    workers: WorkersOpt = None,
    policy: PoliciesOpt = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="write a plot (.png or .svg)")] = None,
    as_json: JsonOpt = False,
    sample: Annotated[
        bool,
        typer.Option(
            "--sample",
            help="also narrate the run's first fight, replayed in full "
            "from its seed and recorded actions (--json: its record)",
        ),
    ] = False,
    scheduler: SchedulerOpt = None,
    engine: EngineOpt = False,
    full: Annotated[
        bool,
        typer.Option(
            "--full",
            help="play every fight through the full engine (events, dice "
            "records, validation): slower, the same fights as the fast path",
        ),
    ] = False,
    chunk: Annotated[int | None, typer.Option("--chunk", min=1, help="fights per chunk")] = None,
    records: Annotated[
        Path | None,
        typer.Option(
            "--records",
            help="write one row per fight (winner, rounds, each combatant's end state) to a .csv or "
            ".parquet file (Parquet needs pyarrow)",
        ),
    ] = None,
) -> None:
    """Simulate N fights: win rates with 95% intervals, rounds, risks per combatant, and what reproduces the run."""
    from affray.cli.sim import sim_command

    sim_command(
        scenario, n, seed, workers, policy or [], plot, as_json, sample, scheduler, engine, chunk, full, records
    )


@app.command()
def sweep(
    scenario: Annotated[Path, typer.Argument(help="a scenario YAML file")],
    param: Annotated[
        list[str],
        typer.Option("--param", help="PATH=LO..HI[:STEP], e.g. widow.stats.endurance=6..14:2; twice for a grid of two"),
    ],
    n: Annotated[int, typer.Option("-n", "--fights", min=1, help="fights per point at most")] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", help="the sweep's seed (each point's is derived from it and the point's index)")
    ] = 0,
    workers: WorkersOpt = None,
    policy: PoliciesOpt = None,
    precision: Annotated[
        float | None, typer.Option("--precision", help="stop a point once its 95% interval half-width is below this")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot", help="write a plot (.png or .svg): the win rates by value, or a heatmap for two parameters"
        ),
    ] = None,
    as_json: JsonOpt = False,
    scheduler: SchedulerOpt = None,
    engine: EngineOpt = False,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="a one-on-one duel: each point's exact chances from "
            "the duel solver (affray odds duel) instead of fights",
        ),
    ] = False,
    side: Annotated[
        str | None,
        typer.Option(
            "--side", help="the side whose win rate a grid shows and a point's precision follows (default: the first)"
        ),
    ] = None,
) -> None:
    """Vary one number of a scenario (or two, as a grid) and report the win rate at each value."""
    from affray.cli.sim import sweep_command

    sweep_command(
        scenario, param, n, seed, workers, policy or [], precision, plot, as_json, scheduler, engine, exact, side
    )


@app.command()
def balance(
    scenario: Annotated[Path, typer.Argument(help="a scenario YAML file")],
    param: Annotated[
        str,
        typer.Option(
            "--param", help="PATH=LO..HI of a whole number, e.g. hald.stats.endurance=2..14 (the sweep's PATH syntax)"
        ),
    ],
    target: Annotated[float, typer.Option("--target", help="the win chance to reach, e.g. 0.6")],
    side: Annotated[str | None, typer.Option("--side", help="whose win chance (default: the first side)")] = None,
    precision: Annotated[
        float, typer.Option("--precision", help="simulate each value until its 95% interval half-width is below this")
    ] = 0.02,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="a one-on-one duel: solve each value exactly (the "
            "duel solver of affray odds duel) instead of simulating",
        ),
    ] = False,
    n: Annotated[
        int | None,
        typer.Option("-n", "--fights", min=1, help="fights per value at most (default: as many as --precision needs)"),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="the search's seed (each value's is derived from it and the value)")
    ] = 0,
    workers: WorkersOpt = None,
    policy: PoliciesOpt = None,
    as_json: JsonOpt = False,
    scheduler: SchedulerOpt = None,
    engine: EngineOpt = False,
) -> None:
    """Find the value of one number that brings a side's win chance closest to a target."""
    from affray.cli.sim import balance_command

    balance_command(
        scenario, param, target, side, precision, n, seed, workers, policy or [], as_json, scheduler, engine, exact
    )


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="a match log written by --log")],
    unverified: Annotated[
        bool, typer.Option("--unverified", help="narrate even a log that fails verification (with a warning)")
    ] = False,
) -> None:
    """Verify a logged match, then narrate it by replaying its actions."""
    data = read_log(log)
    _about(log, check_rules, data)  # a log of other rules is never replayed, --unverified or not
    report = _about(log, verify, data)
    if not report.ok:
        if not unverified:
            for problem in report.problems:
                fail(f"{log}: {problem}")
            fail(f"{log} fails verification; nothing narrated (--unverified narrates it anyway)")
            raise typer.Exit(1)
        warn(f"{log} fails verification ({report.problems[0]}); narrating it anyway as asked")
    match = _about(log, import_log, data)
    narrate(match.events(), match)


T = TypeVar("T")


def _about(log: Path, fn: Callable[[JsonObject], T], data: JsonObject) -> T:
    """``fn(data)``, a problem with the log named with its file."""
    try:
        return fn(data)
    except LogFormatError as exc:
        raise LogFormatError(f"{log}: {exc}") from None


@app.command("verify")
def verify_cmd(
    log: Annotated[Path, typer.Argument(help="a match log written by --log")],
    head: Annotated[
        str | None, typer.Option("--head", help="a chain head you kept: check that the log extends that history")
    ] = None,
) -> None:
    """Check the seed against its commitment, re-derive every roll, replay every action, check the hash chain. A log
    made under another version of its ruleset's rules fails: its seed, dice and chain are checked, its actions not
    replayed."""
    report = _about(log, lambda data: verify(data, head), read_log(log))
    if not report.ok:
        for problem in report.problems:
            fail(f"{log}: {problem}")
        raise typer.Exit(1)
    free = f" (with {report.free_rolls_checked} free rolls)" if report.free_rolls_checked else ""
    console.print(
        f"[green]verified[/]: seed matches its commitment; {report.rolls_checked} dice re-derived{free}, "
        f"{report.actions_checked} actions replayed, events identical."
    )
    for unchecked in report.unchecked:  # a whisper between other seats: the log holds no key for its dice
        console.print(f"[yellow]not checked[/]: {escape(unchecked)}")


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="the port to listen on")] = 8000,
    db: Annotated[str, typer.Option("--db", help="sqlite:///FILE or postgresql+psycopg://...")] = "sqlite:///affray.db",
    create_key: Annotated[
        str | None,
        typer.Option(
            "--create-key",
            envvar="AFFRAY_CREATE_KEY",
            help="require this key (16 characters or more) to open "
            "tables and check scenarios; needed unless --host is "
            "loopback and no proxy is trusted",
        ),
    ] = None,
    open_creation: Annotated[
        bool,
        typer.Option(
            "--open-creation", help="let anyone who reaches the server open tables, without a key (a warning)"
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            envvar="FORWARDED_ALLOW_IPS",
            metavar="IPS",
            help="the proxies whose X-Forwarded-For names the client (comma-separated; default 127.0.0.1); "
            "setting it says the server is behind a proxy, so it needs --create-key",
        ),
    ] = None,
    policy_pause: Annotated[float, typer.Option("--policy-pause", help="seconds before a policy moves")] = 0.5,
    examples: Annotated[Path | None, typer.Option("--examples", help="the examples folder")] = None,
    ws_compression: Annotated[
        bool,
        typer.Option(
            "--ws-compression/--no-ws-compression",
            help="compress WebSocket messages (less bandwidth for very slow links; costs about a fifth of the "
            "server's CPU per action and 45 KiB of memory per connection)",
        ),
    ] = False,
    per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            min=0,
            help="open connections from one client address (0: no cap, nor of incomplete requests; behind a "
            "proxy, let the proxy cap them)",
        ),
    ] = PER_ADDRESS,
    pending_per_address: Annotated[
        int,
        typer.Option(
            "--max-pending-per-address",
            min=0,
            help="incomplete requests from one client address (sent nothing yet, headers or body still "
            "arriving); one more sheds its oldest (0: no cap)",
        ),
    ] = PENDING_PER_ADDRESS,
    ai_cpu_per_address: Annotated[
        float | None,
        typer.Option(
            "--ai-cpu-per-address",
            metavar="SECONDS",
            min=0.01,
            help="CPU seconds the combatants the server plays may spend for the tables of one address at once, "
            "refilled in 10 minutes (default 30)",
        ),
    ] = None,
    ai_cpu_total: Annotated[
        float | None,
        typer.Option(
            "--ai-cpu-total",
            metavar="SECONDS",
            min=0.01,
            help="CPU seconds they may spend for all tables at once, refilled in 4 minutes (default 120)",
        ),
    ] = None,
    max_connections: Annotated[
        int, typer.Option("--max-connections", min=0, help="connections and requests of the whole server (0: no cap)")
    ] = MAX_CONNECTIONS,
    header_timeout: Annotated[
        float, typer.Option("--header-timeout", min=0.1, help="seconds for a request's headers to arrive")
    ] = HEADER_TIMEOUT,
    body_timeout: Annotated[
        float, typer.Option("--body-timeout", min=0.1, help="seconds for a request's body to arrive")
    ] = BODY_TIMEOUT,
    first_message_timeout: Annotated[
        float,
        typer.Option(
            "--first-message-timeout",
            min=0.1,
            help="seconds for a WebSocket's first message (its token) when its address carries none",
        ),
    ] = FIRST_MESSAGE,
    idle_evict: Annotated[
        str,
        typer.Option(
            "--idle-evict",
            metavar="SECONDS",
            help="seconds a table with no request and no connection stays in memory; then it is dropped and "
            "rebuilt from the database on its next request (0: never)",
        ),
    ] = "600",
    ws_ping: Annotated[
        float,
        typer.Option(
            "--ws-ping",
            metavar="SECONDS",
            min=0,
            max=3600,
            help="seconds between the server's pings of each WebSocket: how soon a vanished client frees its "
            "connection; under a proxy's idle timeout (0: no pings)",
        ),
    ] = PING_INTERVAL,
    lan: Annotated[
        str | None,
        typer.Option(
            "--lan",
            metavar="[ADDR]",
            help="listen on this machine's LAN address as well, for phones at the table: the default route's, or "
            "ADDR; the links printed carry it, and a creation key is made unless one is given",
        ),
    ] = None,
    content: Annotated[
        list[Path] | None,
        typer.Option(
            "--content",
            help="content files or folders (each file names its ruleset) whose items the content library lists "
            "beside the bundled ones; checked at start",
        ),
    ] = None,
) -> None:
    """Run the live table server (HTTP and WebSocket API, OpenAPI at /docs)."""
    limits = ConnectionLimits(
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        per_address=per_address,
        pending_per_address=pending_per_address,
        first_message=first_message_timeout,
        ping_interval=ws_ping or None,
    )
    serve_command(
        host,
        port,
        db,
        create_key,
        policy_pause,
        examples,
        ws_compression,
        limits,
        max_connections or None,
        idle_evict,
        open_creation=open_creation,
        forwarded_allow_ips=forwarded_allow_ips,
        ai_cpu=(ai_cpu_per_address, ai_cpu_total),
        lan=lan,
        content=content or [],
    )


@app.command()
def join(
    link: Annotated[str, typer.Argument(help="an invite link, http://HOST:PORT/t/TABLE#TOKEN (quote it)")],
    log: Annotated[
        Path | None, typer.Option("--log", help="where to save the table's log at the end (default affray-TABLE.json)")
    ] = None,
) -> None:
    """Play a seat at a remote table from the terminal, updated live as others act; at the end the log is saved for
    affray verify."""
    from affray.cli.join import join_command

    join_command(link, log)


@app.command("options")
def options_cmd(ruleset: Annotated[str, typer.Argument(help=f"the ruleset: {RULESETS}")]) -> None:
    """List a ruleset's named rule options with their defaults and rule IDs."""
    from rich.table import Table

    from affray.core.options import describe
    from affray.core.plugin import get_ruleset

    try:
        rs = get_ruleset(ruleset)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    table = Table(title=f"{rs.title}: rule options", title_justify="left")
    for col in ("option", "default", "range", "rule", "meaning"):
        table.add_column(col)
    for info in describe(rs.options_type):
        table.add_row(info.name, escape(repr(info.default)), info.range, info.rule, escape(info.doc))
    console.print(table)


@content_app.command("check")
def content_check(paths: Annotated[list[Path], typer.Argument(help="content/scenario files or folders")]) -> None:
    """Validate content and scenario files; every problem is listed with its file and field.

    A scenario is checked as ``fight`` would start it (content, options, sheets, the first state)."""
    from affray.cli.checks import check_path

    checked, problems = 0, list[str]()
    for path in paths:
        count, found = check_path(path)
        checked, problems = checked + count, problems + found
    for problem in problems:
        fail(problem)
    if problems:
        raise typer.Exit(1)
    console.print(f"[green]ok[/]: {checked} file(s) valid")


@content_app.command("list")
def content_list(
    ruleset: Annotated[str, typer.Argument(help=f"the ruleset: {RULESETS}")],
    kind: Annotated[
        str | None, typer.Argument(help="one section: characters, monsters, weapons, cards, traits...")
    ] = None,
    content: Annotated[list[Path] | None, typer.Option("--content", help="extra content files or folders")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """List the content ids a scenario can name, with their names: what a combatant's ``use:`` takes (characters,
    monsters) and what its stats name (weapons, cards, traits, armour...)."""
    from affray.cli import content_list as listed

    sections = listed.listing(ruleset, kind, content or [])
    if as_json:
        print(json.dumps(listed.as_json(ruleset, sections)))
    else:
        listed.print_listing(ruleset, sections)


@content_app.command("show")
def content_show(
    ruleset: Annotated[str, typer.Argument(help=f"the ruleset: {RULESETS}")],
    item_id: Annotated[str | None, typer.Argument(metavar="[ID]", help="one entry's id (default: every entry)")] = None,
    query: Annotated[str | None, typer.Option("-q", "--query", help="only names or ids holding this")] = None,
    content: Annotated[list[Path] | None, typer.Option("--content", help="extra content files or folders")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the API's JSON answer")] = False,
) -> None:
    """The content library with its numbers: every character, monster, weapon, armour, card, trait, technique and
    status, its stats in words as a player reads them (the words GET /api/content/RULESET answers)."""
    from affray.cli import content_show as shown

    shown.show(ruleset, shown.found(ruleset, item_id, query, content or []), as_json)


DEBUG = "AFFRAY_DEBUG"


def bare_lan(args: list[str]) -> list[str]:
    """``affray serve --lan`` with no address means "choose it" (``--lan auto``): Typer options take a value or none,
    never an optional one, so a bare ``--lan`` (last, or before another option) gets its value here."""
    if "serve" not in args:
        return args
    out = list(args)
    for i, arg in enumerate(out):
        if arg == "--lan" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = "--lan=auto"
    return out


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, turning every failure into a message and an exit code, never a traceback.

    Click handles usage errors itself (exit code 2) and Ctrl-C ("Aborted!", 1); domain errors raised inside a
    command (a bad file, bad notation, a broken log, an option out of range) are printed here as one message
    (exit 2). Anything else is a bug: one line says so (exit 70); ``AFFRAY_DEBUG=1`` shows the traceback.
    """
    try:
        app(args=bare_lan(sys.argv[1:] if argv is None else argv), prog_name="affray")
    except CliError as exc:
        fail(exc.message)
        sys.exit(exc.code)
    except (ContentError, LogFormatError, FileProblem, OptionError, NotationError) as exc:
        fail(str(exc))
        sys.exit(2)
    except KeyboardInterrupt:
        fail("interrupted")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get(DEBUG):
            raise
        fail(
            f"internal error ({type(exc).__name__}: {exc}). This is a bug in affray; {DEBUG}=1 shows where it happened."
        )
        sys.exit(70)
