"""``--plot`` shows every outcome the report counts: each side's wins, the draws and the escapes (a side got away,
Sim HuD WL-B14). The plots are SVG with their labels kept as text, so a test reads them as a person would."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.inproc import run_cli

NIGHT_WIDOW = Path(__file__).parents[2] / "examples" / "hud" / "nerdified_night_widow.yaml"


def labels(svg: Path) -> set[str]:
    return set(re.findall(r"<text[^>]*>([^<]+)</text>", svg.read_text()))


def test_affray_sim_night_widow_plot_shows_the_escapes(tmp_path: Path) -> None:
    """The user's step: ``affray sim nerdified_night_widow.yaml --plot out.svg``: the report counts escapes (WL-B14)
    and the plot's outcome panel has a bar for each side, the draws and the escapes (it used to drop the escapes)."""
    out = tmp_path / "widow.svg"
    code, stdout, err = run_cli(
        ["sim", str(NIGHT_WIDOW), "-n", "400", "--seed", "1", "--workers", "1", "--plot", str(out), "--json"]
    )
    assert code == 0, err
    report = json.loads(stdout)
    assert report["escapes"]["count"] > 0
    assert {*report["sides"], "draw", "escaped"} <= labels(out)


def test_affray_sweep_night_widow_plot_shows_the_escapes(tmp_path: Path) -> None:
    """The user's step: ``affray sweep nerdified_night_widow.yaml --param widow.stats.endurance=8..12:4 --plot``:
    the sweep's points count escapes and its plot has a line for them beside the sides' (WL-B14)."""
    out = tmp_path / "sweep.svg"
    code, stdout, err = run_cli(
        [
            "sweep",
            str(NIGHT_WIDOW),
            "--param",
            "widow.stats.endurance=8..12:4",
            "-n",
            "200",
            "--seed",
            "1",
            "--workers",
            "1",
            "--plot",
            str(out),
            "--json",
        ]
    )
    assert code == 0, err
    points = json.loads(stdout)["points"]
    assert all(p["escapes"]["count"] > 0 for p in points)
    assert {*(f"{side} wins" for side in points[0]["sides"]), "escaped"} <= labels(out)
