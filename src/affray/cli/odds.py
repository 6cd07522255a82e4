"""``affray odds``: exact odds of single checks and of one-on-one duels, as tables or JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from affray.cli.render import CliError, console
from affray.odds.dist import as_json, prob_json

odds_app = typer.Typer(no_args_is_help=True, help="Exact odds of checks and duels (fractions, not samples).")
hud_app = typer.Typer(no_args_is_help=True, help="Sim HuD checks.")
odds_app.add_typer(hud_app, name="hud")

JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object")]


def report(title: str, probabilities: Mapping[str, Fraction], distributions: Mapping[str, Mapping[int, Fraction]],
           as_json_out: bool, extra: Mapping[str, Any] | None = None) -> None:
    """Print probabilities and distributions: JSON in the documented shape, or tables with bars."""
    if as_json_out:
        data: dict[str, Any] = {k: prob_json(v) for k, v in probabilities.items()}
        data.update({k: as_json(v) for k, v in distributions.items()})
        data.update(extra or {})
        print(json.dumps(data))
        return
    table = Table(title=title, title_justify="left")
    table.add_column("event")
    table.add_column("exact", justify="right")
    table.add_column("≈", justify="right")
    for key, p in probabilities.items():
        table.add_row(key.removeprefix("p_").replace("_", " "), f"{p.numerator}/{p.denominator}", f"{float(p):.2%}")
    console.print(table)
    for name, dist in distributions.items():
        console.print(bars(name.replace("_", " "), dist))


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


@hud_app.command("exchange")
def hud_exchange(attack_mod: Annotated[int, typer.Option("--attack-mod")] = 0,
                 defense_mod: Annotated[int, typer.Option("--defense-mod")] = 0,
                 damage_mod: Annotated[int, typer.Option("--damage-mod")] = 0,
                 injury_mod: Annotated[int, typer.Option("--injury-mod")] = 0,
                 riposte_margin: Annotated[int, typer.Option("--riposte-margin", help="WL-B3")] = 6,
                 as_json_out: JsonOpt = False) -> None:
    """Combat Nerdified: the chance of a hit and of a riposte, and the HP-loss distribution (WL-11..WL-13)."""
    from affray.odds.hud import exchange_odds

    odds = exchange_odds(attack_mod, defense_mod, damage_mod, injury_mod, riposte_margin)
    report("Sim HuD exchange (d13 + modifiers)", {"p_hit": odds.p_hit, "p_riposte": odds.p_riposte},
           {"hp_loss": odds.hp_loss}, as_json_out)


@odds_app.command("duel")
def duel(scenario: Annotated[Path, typer.Argument(help="a one-against-one scenario")],
         exact: Annotated[bool, typer.Option("--exact", help="exact fractions (slower)")] = False,
         as_json_out: JsonOpt = False) -> None:
    """Exact chances of each side winning a one-on-one scenario, and how many rounds it lasts."""
    from affray.api import load_scenario
    from affray.odds.duels import solve_scenario
    from affray.odds.markov import NotSolvable

    loaded = load_scenario(scenario)
    try:
        odds = solve_scenario(loaded.ruleset.name, loaded.setup, loaded.options, exact)
    except NotSolvable as exc:
        raise CliError(f"cannot solve {scenario} exactly: {exc}") from None
    show = (lambda p: {"exact": f"{p.numerator}/{p.denominator}", "value": float(p)}) if exact else (
        lambda p: {"value": float(p)})
    if as_json_out:
        data = {"outcomes": {k: show(v) for k, v in odds.outcomes.items()},
                "expected_rounds": show(odds.expected_rounds),
                "rounds": [{"outcome": k, **show(p)} for k, p in odds.rounds if p],
                "tail": float(odds.tail), "states": odds.states, "exact": exact}
        print(json.dumps(data))
        return
    table = Table(title=f"{loaded.model.name or scenario}: exact duel", title_justify="left")
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    for k, v in odds.outcomes.items():
        table.add_row(k, f"{float(v):.6%}" + (f"  ({v})" if exact and len(str(v)) < 40 else ""))
    console.print(table)
    console.print(f"expected rounds: {float(odds.expected_rounds):.4f}   states: {odds.states}")
    console.print(bars("rounds", {k: Fraction(p).limit_denominator(10**12) for k, p in odds.rounds[:30]}))
