"""``affray odds``: exact odds of single checks and of one-on-one duels, as tables or JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from typer.core import TyperGroup

from affray.cli.declared import command, option
from affray.cli.render import CliError, console, escape
from affray.core.checks import BadParameters, Check, CheckResult
from affray.core.plugin import AnyPlugin, plugin, plugin_names
from affray.odds.checks import means, result_json, run_check

if TYPE_CHECKING:  # typer carries its own click; its types are only named here
    from typer._click.core import Command, Context

    from affray.odds.expression import Side


class _OddsGroup(TyperGroup):
    """``affray odds``: ``duel`` and one group per registered ruleset with declared checks, found at run time."""

    def list_commands(self, ctx: Context) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in plugin_names() if plugin(n).checks is not None)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in plugin_names() or plugin(cmd_name).checks is None:
            return found
        return checks_group(cmd_name)


odds_app = typer.Typer(
    cls=_OddsGroup,
    no_args_is_help=True,
    help="Exact odds of dice expressions, checks and duels (fractions, not samples).",
)

JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object")]


def report(result: CheckResult, as_json_out: bool, extra: Mapping[str, object] | None = None) -> None:
    """Print a check's probabilities and distributions, each distribution with its mean (expected damage,
    expected HP loss...): JSON in the documented shape (``means: {name: {exact, value}}``), or tables with bars."""
    if as_json_out:
        print(json.dumps({**result_json(result), **(extra or {})}))
        return
    table = Table(title=result.title, title_justify="left")
    table.add_column("event")
    table.add_column("exact", justify="right")
    table.add_column("≈", justify="right")
    for key, p in result.probabilities.items():
        table.add_row(key.removeprefix("p_").replace("_", " "), f"{p.numerator}/{p.denominator}", f"{float(p):.2%}")
    average = means(result)
    for name, m in average.items():
        table.add_row(f"mean {name.replace('_', ' ')}", f"{m.numerator}/{m.denominator}", f"{float(m):.4g}")
    console.print(table)
    for name, dist in result.distributions.items():
        console.print(bars(f"{name.replace('_', ' ')} (mean {float(average[name]):.4g})", dist))


def bars(title: str, dist: Mapping[int, Fraction], width: int = 40) -> Table:
    table = Table(title=title, title_justify="left", show_header=False, box=None)
    table.add_column(justify="right")
    table.add_column()
    table.add_column(justify="right")
    top = max(dist.values(), default=Fraction(1))
    for k, p in sorted(dist.items()):
        if p:
            table.add_row(str(k), "█" * max(1, round(width * float(p / top))), f"{float(p):.2%}")
    return table


def checks_group(ruleset: str) -> Command:
    """``affray odds RULESET``: one command per check its record declares, flags and help from the declaration."""
    record = plugin(ruleset)
    declared = record.checks() if record.checks is not None else {}
    group = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help=f"Single checks of {record.title}.")
    for check in declared.values():
        group.command(check.name)(_check_command(check))
    return typer.main.get_group(group)


def _check_command(check: Check) -> Callable[..., None]:
    def body(values: dict[str, object]) -> None:
        as_json_out = bool(values.pop("as_json_out"))
        try:
            result = run_check(check, values)
        except BadParameters as exc:
            raise CliError(str(exc)) from None
        report(result, as_json_out)

    doc = " ".join(x for x in (check.help, check.description) if x)
    return command(
        check.name,
        doc,
        (),
        check.params,
        (option("as_json_out", bool, "--json", "print one JSON object", False),),
        body,
    )


@odds_app.command("dice", context_settings={"ignore_unknown_options": True})  # "-1d4 > 1d6" is an expression
def dice(
    expression: Annotated[str, typer.Argument(help='e.g. "4d6kh3", "2d6+1d4-1", "3d6+1b", "3d6kh2 > 2d6+1"')],
    as_json_out: JsonOpt = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="also draw the distribution (.png or .svg)")] = None,
) -> None:
    """Exact distribution of any dice expression in `affray roll`'s notation (NdS, khK/klK keep, + and - dice and
    numbers, +Nb/+Np bonus and penalty dice), or the chance of a comparison between two: >, >=, <, <=, ==, !=."""
    from affray.core.files import check_output_path
    from affray.odds.expression import ExpressionError, dice_odds, odds_json, plot_odds

    if plot is not None:
        check_output_path(plot, (".png", ".svg"), "--plot")
    try:
        odds = dice_odds(expression)
    except ExpressionError as exc:
        raise CliError(str(exc)) from None
    if plot is not None:
        plot_odds(odds, plot)
    if as_json_out:
        print(json.dumps(odds_json(odds)))
        return
    if odds.right is not None and odds.probability is not None:
        p = odds.probability
        console.print(f"P({escape(odds.text)}) = [bold]{_exact(p)}[/] ≈ {_percent(p)}", soft_wrap=True)
        for side in (odds.left, odds.right):
            console.print(f"  {escape(side.text)}: mean {_mean(side.mean)}, sd {side.sd:.4g}", soft_wrap=True)
    else:
        _dice_table(odds.left)
    if plot is not None:
        console.print(f"plot written to {escape(plot)}")


_LONG_TABLE = 400  # rows drawn as a table; longer distributions print as plain columns (a table of 10,000 rows
# takes rich seconds to lay out)


def _dice_table(side: Side, width: int = 30) -> None:
    """A side's distribution: each total's probability (exact and %), at least / at most that total, a bar; then
    its mean and standard deviation."""
    head = ("total", "exact", "%", "at least", "at most", "")
    rows = side.rows()
    top = max(p for _, p, _, _ in rows)
    cells = [
        (str(k), _exact(p), _percent(p), _percent(ge), _percent(le), "█" * max(1, round(width * p / top)))
        for k, p, ge, le in rows
    ]
    if len(cells) <= _LONG_TABLE:
        table = Table(title=escape(side.text), title_justify="left")
        for name in head:
            table.add_column(name, justify="right" if name else "left")
        for row in cells:
            table.add_row(*row)
        console.print(table)
    else:
        sizes = [max(len(r[i]) for r in (head, *cells)) for i in range(5)]
        lines = [side.text] + [
            ("  ".join(c.rjust(n) for c, n in zip(r, sizes, strict=False)) + "  " + r[5]).rstrip()
            for r in (head, *cells)
        ]
        sys.stdout.write("\n".join(lines) + "\n")
    cut = any(r[1] == "…" for r in cells)
    console.print(
        f"mean {_mean(side.mean)}   sd {side.sd:.4g}"
        + ("   (fractions longer than 40 characters are given whole by --json)" if cut else "")
    )


def _exact(p: Fraction) -> str:
    """A fraction for a table cell, or ``…`` when it is longer than 40 characters."""
    text = f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)
    return text if len(text) <= 40 else "…"


def _mean(m: Fraction) -> str:
    return str(m.numerator) if m.denominator == 1 else f"{_exact(m)} ≈ {float(m):.4g}"


def _percent(p: Fraction) -> str:
    value = 100 * float(p)
    return "0%" if p == 0 else "100%" if p == 1 else f"{value:.2f}%" if value >= 0.01 else f"{value:.2g}%"


@odds_app.command("duel")
def duel(
    scenario: Annotated[Path, typer.Argument(help="a one-against-one scenario")],
    exact: Annotated[bool, typer.Option("--exact", help="exact fractions (slower)")] = False,
    as_json_out: JsonOpt = False,
) -> None:
    """Exact chances of each side winning a one-on-one scenario, and how many rounds it lasts."""
    from affray.api import load_scenario
    from affray.odds.duels import solve_scenario
    from affray.odds.markov import NotSolvable
    from affray.odds.progress import reporting

    loaded = load_scenario(scenario)
    if exact:
        sys.set_int_max_str_digits(0)  # exact answers of long duels run to thousands of digits
    shown = Progress()
    try:
        with reporting(shown):
            odds = solve_scenario(loaded.plugin, loaded.setup, loaded.options, exact)
    except NotSolvable as exc:
        raise CliError(f"cannot solve {scenario} exactly: {exc}") from None
    finally:
        shown.close()
    show = (
        (lambda p: {"exact": f"{p.numerator}/{p.denominator}", "value": float(p)})
        if exact
        else (lambda p: {"value": float(p)})
    )
    if as_json_out:
        data = {
            "outcomes": {k: show(v) for k, v in odds.outcomes.items()},
            "expected_rounds": show(odds.expected_rounds),
            "rounds": [{"outcome": k, **show(p)} for k, p in odds.rounds if p],
            "tail": float(odds.tail),
            "states": odds.states,
            "exact": exact,
            "model": _assumes(loaded.plugin),
        }
        print(json.dumps(data))
        return
    table = Table(title=f"{escape(loaded.model.name or scenario)}: exact duel", title_justify="left")
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    if exact:
        table.add_column("exact", justify="right")
    long: dict[str, Fraction] = {}
    for k, v in odds.outcomes.items():
        table.add_row(escape(k), f"{float(v):.6%}", *([_fraction(k, Fraction(v), long)] if exact else []))
    console.print(table)
    rounds_exact = f" = {_fraction('expected rounds', Fraction(odds.expected_rounds), long)}" if exact else ""
    console.print(f"expected rounds: {float(odds.expected_rounds):.4f}{rounds_exact}   states: {odds.states}")
    for k, v in long.items():  # printed whole: --exact asked for the fractions, however long
        digits = len(str(v.denominator))
        console.print(f"{k} (exact, {digits:,}-digit denominator):\n{v.numerator}/{v.denominator}", soft_wrap=True)
    console.print(f"model: {_assumes(loaded.plugin)}")
    console.print(bars("rounds", {k: Fraction(p).limit_denominator(10**12) for k, p in odds.rounds[:30]}))


def _fraction(name: str, value: Fraction, long: dict[str, Fraction]) -> str:
    """A fraction for a table cell, or a note that it is printed whole below the table (kept in ``long``)."""
    text = f"{value.numerator}/{value.denominator}"
    if len(text) <= 40:
        return text
    long[name] = value
    return "below"


class Progress:
    """Shows a long solve's progress on stderr (docs/odds.md): nothing for the first second, then the stage and
    count at most twice a second, on one line on a terminal and a line every 5 s otherwise."""

    def __init__(self) -> None:
        import time

        self.clock = time.monotonic
        self.start = self.clock()
        self.last = self.start
        self.tty = sys.stderr.isatty()
        self.drawn = False

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        now = self.clock()
        if now - self.start < 1 or now - self.last < (0.5 if self.tty else 5):
            return
        self.last = now
        of = f" of {total:,}" if total else ""
        line = f"{stage}: {done:,}{of} ({now - self.start:.0f} s)"
        sys.stderr.write(f"\r{line:<60}" if self.tty else line + "\n")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn and self.tty:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _assumes(record: AnyPlugin) -> str:
    """What the ruleset's duel model assumes, in one sentence ('' when it has none)."""
    from affray.odds.duels import duel_model
    from affray.odds.markov import NotSolvable

    try:
        return duel_model(record).assumes
    except NotSolvable:
        return ""
