"""Plots of simulation reports and sweeps (matplotlib, Agg: PNG or SVG by the file's suffix).

Each figure carries its run's stamp at the bottom (the scenario and its digest, the fights, the seed, each seat's
policy, the engine and affray's version: :meth:`affray.sim.report.SimReport.stamp_line`), so a figure cut out of a
report still says how to make it again. Shares are drawn in percent; whole-number quantities (rounds, whole-number
parameters) get whole-number ticks; the rounds axis says what the ruleset calls a round (``vignette``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

from affray.sim.stats import OutcomeRow, outcome_rows

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator, PercentFormatter

matplotlib.rcParams["svg.fonttype"] = "none"  # an SVG keeps its labels as text (searchable, and smaller)

COLOURS = ["#4477aa", "#ee6677", "#ccbb44", "#66ccee", "#aa3377", "#228833"]
DRAW_COLOUR, ESCAPED_COLOUR = "#bbbbbb", "#228833"
DOWN_COLOUR, DEAD_COLOUR = "#ee6677", "#222222"


def _save(fig: Figure, out: str | Path, stamp: str = "") -> None:
    path = Path(out)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"plots are written as .png or .svg, not '{path.suffix or path.name}'")
    if stamp:  # under everything drawn so far (rotated tick labels included), across the figure's width
        fig.canvas.draw()
        bottom = fig.get_tightbbox().y0 / fig.get_figheight()
        width = max(60, int(fig.get_figwidth() * 15))  # about the characters of 8-point text across the figure
        fig.text(
            0.01,
            bottom - 0.02,
            "\n".join(textwrap.wrap(stamp, width)),
            fontsize=8,
            color="#555555",
            va="top",
            ha="left",
        )
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def _percent_axis(ax: Axes, label: str) -> None:
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel(label)


def plot_report(report: Mapping[str, Any], out: str | Path, title: str = "", stamp: str = "") -> None:
    """Three panels: every outcome of the report (each side's wins, draws, escapes) with 95% intervals; the rounds
    histogram; each combatant's chance of going down and of dying with their intervals, grouped by side."""
    fig, (ax_win, ax_rounds, ax_risk) = plt.subplots(1, 3, figsize=(15, 4.8), layout="constrained")
    rows = outcome_rows(report)
    rates = [r.rate for r in rows]
    errors = [[max(0.0, r.rate - r.ci95[0]) for r in rows], [max(0.0, r.ci95[1] - r.rate) for r in rows]]
    ax_win.bar([r.label for r in rows], rates, yerr=errors, capsize=6, color=_colours(rows))
    _percent_axis(ax_win, "share of fights")
    ax_win.set_title(f"outcomes, 95% interval ({report['fights']:,} fights)")
    _rounds_panel(ax_rounds, report)
    _risk_panel(ax_risk, report)
    if title:
        fig.suptitle(title)
    _save(fig, out, stamp)


def _rounds_panel(ax: Axes, report: Mapping[str, Any]) -> None:
    word = report["rounds"].get("word", "round")
    dist = {int(k): v for k, v in report["rounds"]["distribution"].items()}
    ax.bar(list(dist), list(dist.values()), color="#4477aa")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"{word}s per fight (mean {report['rounds']['mean']:.2f})")
    ax.set_xlabel(f"{word}s")
    ax.set_ylabel("fights")


def _risk_panel(ax: Axes, report: Mapping[str, Any]) -> None:
    """Down and dead per combatant with their 95% intervals; the combatants of a side together, the side named
    under them and its groups set apart by a line."""
    sides = list(report["sides"])
    combatants = sorted(
        report["combatants"].values(), key=lambda c: sides.index(c["side"]) if c["side"] in sides else len(sides)
    )
    xs = list(range(len(combatants)))
    for offset, key, label, colour in ((-0.2, "down", "down", DOWN_COLOUR), (0.2, "dead", "dead", DEAD_COLOUR)):
        rates = [c[f"p_{key}"] for c in combatants]
        err = [
            [max(0.0, c[f"p_{key}"] - c[f"p_{key}_ci95"][0]) for c in combatants],
            [max(0.0, c[f"p_{key}_ci95"][1] - c[f"p_{key}"]) for c in combatants],
        ]
        ax.bar(
            [x + offset for x in xs], rates, width=0.4, yerr=err, capsize=3, label=label, color=colour, ecolor="#777777"
        )
    ax.set_xticks(xs, [c["name"] for c in combatants], rotation=30, ha="right")
    start = 0
    for i in range(1, len(combatants) + 1):
        if i == len(combatants) or combatants[i]["side"] != combatants[start]["side"]:
            ax.text(
                (start + i - 1) / 2,
                1.02,
                combatants[start]["side"],
                ha="center",
                va="bottom",
                transform=ax.get_xaxis_transform(),
                fontsize=9,
                color="#333333",
            )
            if i < len(combatants):
                ax.axvline(i - 0.5, color="#999999", lw=0.8)
            start = i
    _percent_axis(ax, "chance per fight")
    ax.legend(loc="upper right")
    ax.set_title("risk per combatant by side, 95% interval", pad=18)


def _colours(rows: Sequence[OutcomeRow]) -> list[str]:
    sides = iter(COLOURS * (1 + len(rows) // len(COLOURS)))
    return [next(sides) if r.side else DRAW_COLOUR if r.label == "draw" else ESCAPED_COLOUR for r in rows]


def plot_sweep(
    points: Sequence[Mapping[str, Any]],
    param: str,
    sides: Sequence[str],
    out: str | Path,
    title: str = "",
    stamp: str = "",
) -> None:
    """The rate of every outcome against the swept parameter (``param``: its label, by its field), with its 95%
    interval as a band: each side's wins (``sides``), and the draws and escapes wherever a point has any (the
    sweep's table shows them the same way). Whole-number values get whole-number ticks."""
    fig, ax = plt.subplots(figsize=(8, 4.8), layout="constrained")
    xs = [p["value"] for p in points]
    table = [outcome_rows(p) for p in points]
    shown = (
        [
            r
            for r in table[0]
            if r.label in sides
            or (not r.side and any(row.count or row.rate for rows in table for row in rows if row.label == r.label))
        ]
        if table
        else []
    )
    for r, colour in zip(shown, _colours(shown), strict=True):
        line = [next(row for row in rows if row.label == r.label) for rows in table]
        label = f"{r.label} wins" if r.side else "draws" if r.label == "draw" else r.label
        ax.plot(xs, [row.rate for row in line], marker="o", label=label, color=colour)
        ax.fill_between(xs, [row.ci95[0] for row in line], [row.ci95[1] for row in line], alpha=0.25, color=colour)
    ax.axhline(0.5, color="#999999", lw=0.8, ls="--")
    if all(isinstance(x, int) for x in xs):  # whole numbers: the swept values themselves, or whole ticks
        if len(xs) <= 15:
            ax.set_xticks(xs)
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    exact = bool(points) and all(p.get("path") == "exact" for p in points)
    _percent_axis(ax, "share of fights (exact)" if exact else "share of fights (band: 95% interval)")
    ax.set_xlabel(param)
    ax.legend()
    ax.set_title(title or f"sweep of {param}")
    _save(fig, out, stamp)


def plot_heatmap(
    points: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    side: str,
    out: str | Path,
    title: str = "",
    stamp: str = "",
) -> None:
    """``side``'s win rate over a grid of two parameters (``labels``: theirs, the first down the side, the second
    along the bottom), each cell written with its rate and the half-width of its 95% interval."""
    rows = sorted({p["values"][0] for p in points})
    cols = sorted({p["values"][1] for p in points})
    grid = [[float("nan")] * len(cols) for _ in rows]
    for p in points:
        grid[rows.index(p["values"][0])][cols.index(p["values"][1])] = p["sides"][side]["win_rate"]
    fig, ax = plt.subplots(
        figsize=(max(6.0, 0.9 * len(cols) + 3), max(4.5, 0.6 * len(rows) + 2.5)), layout="constrained"
    )
    image = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    bar = fig.colorbar(image, ax=ax, format=PercentFormatter(1.0, decimals=0))
    bar.set_label(f"{side} win rate")
    ax.set_xticks(range(len(cols)), [str(c) for c in cols])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlabel(labels[1])
    ax.set_ylabel(labels[0])
    if len(rows) * len(cols) <= 225:
        for p in points:
            rate = p["sides"][side]["win_rate"]
            lo, hi = p["sides"][side]["ci95"]
            text = f"{rate:.0%}" if hi == lo else f"{rate:.0%}\n±{(hi - lo) / 2:.0%}"
            ax.text(
                cols.index(p["values"][1]),
                rows.index(p["values"][0]),
                text,
                ha="center",
                va="center",
                fontsize=8,
                color="white" if abs(rate - 0.5) > 0.3 else "black",
            )
    ax.set_title(title or f"{side} win rate")
    _save(fig, out, stamp)
