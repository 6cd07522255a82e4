"""Plots of simulation reports and sweeps (matplotlib, Agg: PNG or SVG by the file's suffix)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

from affray.sim.stats import OutcomeRow, outcome_rows

if TYPE_CHECKING:
    from matplotlib.figure import Figure

matplotlib.use("Agg")
import matplotlib.pyplot as plt

matplotlib.rcParams["svg.fonttype"] = "none"  # an SVG keeps its labels as text (searchable, and smaller)

COLOURS = ["#4477aa", "#ee6677", "#ccbb44", "#66ccee", "#aa3377", "#228833"]
DRAW_COLOUR, ESCAPED_COLOUR = "#bbbbbb", "#228833"


def _save(fig: Figure, out: str | Path) -> None:
    path = Path(out)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"plots are written as .png or .svg, not '{path.suffix or path.name}'")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def plot_report(report: Mapping[str, Any], out: str | Path, title: str = "") -> None:
    """Three panels: every outcome of the report (each side's wins, draws, escapes) with 95% intervals, the rounds
    histogram, per-combatant risks."""
    fig, (ax_win, ax_rounds, ax_risk) = plt.subplots(1, 3, figsize=(15, 4.5))
    rows = outcome_rows(report)
    rates = [r.rate for r in rows]
    errors = [[max(0.0, r.rate - r.ci95[0]) for r in rows], [max(0.0, r.ci95[1] - r.rate) for r in rows]]
    ax_win.bar([r.label for r in rows], rates, yerr=errors, capsize=6, color=_colours(rows))
    ax_win.set_ylim(0, 1)
    ax_win.set_title(f"outcomes, 95% interval ({report['fights']:,} fights)")
    dist = {int(k): v for k, v in report["rounds"]["distribution"].items()}
    ax_rounds.bar(list(dist), list(dist.values()), color="#4477aa")
    ax_rounds.set_title(f"rounds (mean {report['rounds']['mean']:.2f})")
    ax_rounds.set_xlabel("rounds")
    names = [c["name"] for c in report["combatants"].values()]
    down = [c["p_down"] for c in report["combatants"].values()]
    dead = [c["p_dead"] for c in report["combatants"].values()]
    xs = range(len(names))
    ax_risk.bar([x - 0.2 for x in xs], down, width=0.4, label="down", color="#ee6677")
    ax_risk.bar([x + 0.2 for x in xs], dead, width=0.4, label="dead", color="#222222")
    ax_risk.set_xticks(list(xs), names, rotation=30, ha="right")
    ax_risk.set_ylim(0, 1)
    ax_risk.legend()
    ax_risk.set_title("risk per combatant")
    if title:
        fig.suptitle(title)
    _save(fig, out)


def _colours(rows: Sequence[OutcomeRow]) -> list[str]:
    sides = iter(COLOURS * (1 + len(rows) // len(COLOURS)))
    return [next(sides) if r.side else DRAW_COLOUR if r.label == "draw" else ESCAPED_COLOUR for r in rows]


def plot_sweep(points: Sequence[Mapping[str, Any]], param: str, sides: Sequence[str], out: str | Path,
               title: str = "") -> None:
    """The rate of every outcome against the swept parameter, with its 95% interval as a band: each side's wins
    (``sides``), and the draws and escapes wherever a point has any (the sweep's table shows them the same way)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [p["value"] for p in points]
    table = [outcome_rows(p) for p in points]
    shown = [r for r in table[0] if r.label in sides or (not r.side and any(
        row.count for rows in table for row in rows if row.label == r.label))] if table else []
    for r, colour in zip(shown, _colours(shown), strict=True):
        line = [next(row for row in rows if row.label == r.label) for rows in table]
        ax.plot(xs, [row.rate for row in line], marker="o", label=r.label, color=colour)
        ax.fill_between(xs, [row.ci95[0] for row in line], [row.ci95[1] for row in line], alpha=0.25, color=colour)
    ax.axhline(0.5, color="#999999", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel(param)
    ax.set_ylabel("rate (95% interval)")
    ax.legend()
    ax.set_title(title or f"sweep of {param}")
    _save(fig, out)
