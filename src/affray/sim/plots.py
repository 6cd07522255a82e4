"""Plots of simulation reports and sweeps (matplotlib, Agg: PNG or SVG by the file's suffix)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def _save(fig: Any, out: str | Path) -> None:
    path = Path(out)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"plots are written as .png or .svg, not '{path.suffix or path.name}'")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def plot_report(report: Mapping[str, Any], out: str | Path, title: str = "") -> None:
    """Three panels: win rates with 95% intervals, the rounds histogram, per-combatant risks."""
    fig, (ax_win, ax_rounds, ax_risk) = plt.subplots(1, 3, figsize=(15, 4.5))
    sides = report["sides"]
    labels = [*sides, "draw"]
    rates = [sides[s]["win_rate"] for s in sides] + [report["draws"]["rate"]]
    cis = [sides[s]["ci95"] for s in sides] + [report["draws"]["ci95"]]
    errors = [[max(0.0, r - lo) for r, (lo, _) in zip(rates, cis, strict=True)],
              [max(0.0, hi - r) for r, (_, hi) in zip(rates, cis, strict=True)]]
    ax_win.bar(labels, rates, yerr=errors, capsize=6, color=["#4477aa", "#ee6677", "#bbbbbb", "#228833"][: len(labels)])
    ax_win.set_ylim(0, 1)
    ax_win.set_title(f"win rate, 95% interval ({report['fights']:,} fights)")
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


def plot_sweep(points: Sequence[Mapping[str, Any]], param: str, sides: Sequence[str], out: str | Path,
               title: str = "") -> None:
    """Win rate of each side against the swept parameter, with its 95% interval as a band."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [p["value"] for p in points]
    for side in sides:
        ys = [p["sides"][side]["win_rate"] for p in points]
        lo = [p["sides"][side]["ci95"][0] for p in points]
        hi = [p["sides"][side]["ci95"][1] for p in points]
        ax.plot(xs, ys, marker="o", label=side)
        ax.fill_between(xs, lo, hi, alpha=0.25)
    ax.axhline(0.5, color="#999999", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel(param)
    ax.set_ylabel("win rate (95% interval)")
    ax.legend()
    ax.set_title(title or f"sweep of {param}")
    _save(fig, out)
