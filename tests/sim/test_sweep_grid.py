"""Two-parameter sweeps and plots as a designer reads them (docs/simulation.md, "Sweeps"): ``--param`` twice gives a
grid with each cell's interval in the JSON and a heatmap; the one-parameter plot names the parameter by its field,
has whole-number ticks for a whole-number parameter and a y-axis with its unit; every plot carries the run's stamp
(scenario, digest, fights, seed, policies); a ruleset's rounds carry its own word. The SVG keeps its text, so the
tests read a plot's words as a person would."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from tests.cli_run import affray as cli

EXAMPLES = Path(__file__).parents[2] / "examples"
DUEL = EXAMPLES / "hud" / "nerdified_duel.yaml"
AMBUSH = EXAMPLES / "witchhammer" / "mill_ambush.yaml"
GRID = ["--param", "hald.stats.endurance=4..8:4", "--param", "vesna.stats.agility=1..3:2"]


def texts(svg: Path) -> list[str]:
    """Every piece of text in an SVG plot (its labels, ticks, legend and stamp)."""
    return [t.strip() for t in re.findall(r"<text[^>]*>([^<]+)</text>", svg.read_text())]


def words(svg: Path) -> str:
    return " ".join(texts(svg))


def test_two_parameter_sweep_is_a_grid_with_an_interval_per_cell(tmp_path: Path) -> None:
    """``affray sweep nerdified_duel.yaml --param hald.stats.endurance=4..8:4 --param vesna.stats.agility=1..3:2
    -n 60 --plot grid.png --json``: four cells, the first parameter outer, each with its fights and every side's
    win rate and 95% interval; the JSON names both parameters and the stamp; the heatmap is a PNG."""
    out = tmp_path / "grid.png"
    done = cli("sweep", str(DUEL), *GRID, "-n", "60", "--seed", "3", "--workers", "1", "--plot", str(out), "--json")
    assert done.returncode == 0, done.stderr
    sweep = json.loads(done.stdout)
    assert sweep["params"] == ["hald.stats.endurance", "vesna.stats.agility"] and "param" not in sweep
    assert [p["values"] for p in sweep["points"]] == [[4, 1], [4, 3], [8, 1], [8, 3]]
    for point in sweep["points"]:
        assert point["fights"] == 60
        for row in point["sides"].values():
            low, high = row["ci95"]
            assert low <= row["win_rate"] <= high and high - low > 0
    assert (
        sweep["side"] == "witcher"
        and sweep["seed"] == 3
        and sweep["policies"] == {"vesna": "heuristic", "hald": "heuristic"}
    )
    assert sweep["scenario"]["sha256"] == hashlib.sha256(DUEL.read_bytes()).hexdigest()
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_grid_text_and_heatmap_name_the_fields_and_the_side(tmp_path: Path) -> None:
    """The grid's table has a row per endurance and a column per agility; the heatmap names both parameters by
    their field and combatant, the side whose win rate it colours, and carries the stamp."""
    out = tmp_path / "grid.svg"
    done = cli("sweep", str(DUEL), *GRID, "-n", "40", "--workers", "1", "--side", "watch", "--plot", str(out))
    assert done.returncode == 0, done.stderr
    assert (
        "watch win rate (± half its 95% interval) by hald.stats.endurance (down) and vesna.stats.agility"
        in " ".join(done.stdout.split())
    )
    shown = words(out)
    for label in (
        "endurance of Watch Sergeant Hald",
        "agility of Vesna of the Lynx",
        "watch win rate",
        "seed 0",
        "at most 40 fights per point",
        "policies vesna=heuristic, hald=heuristic",
    ):
        assert label in shown, label


def test_one_parameter_plot_reads_as_a_designer_reads_it(tmp_path: Path) -> None:
    """``affray sweep nerdified_duel.yaml --param hald.stats.endurance=4..8:2 --plot sweep.svg``: the x axis is
    named by the field ("endurance of Watch Sergeant Hald") with the swept whole numbers as its ticks (no 4.5),
    the y axis says its unit, the legend names each side's wins, and the stamp names the scenario, its digest,
    the fights, the seed and the policies."""
    out = tmp_path / "sweep.svg"
    done = cli(
        "sweep",
        str(DUEL),
        "--param",
        "hald.stats.endurance=4..8:2",
        "-n",
        "40",
        "--seed",
        "7",
        "--workers",
        "1",
        "--plot",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    shown = texts(out)
    assert "endurance of Watch Sergeant Hald" in shown and "share of fights (band: 95% interval)" in shown
    assert {"4", "6", "8"} <= set(shown) and not {"4.5", "5.0", "5", "7"} & set(shown)
    assert {"witcher wins", "watch wins", "0%", "40%", "100%"} <= set(shown)
    stamp = words(out)
    digest = hashlib.sha256(DUEL.read_bytes()).hexdigest()[:12]
    assert f"{DUEL} (sha256 {digest})" in stamp and "seed 7" in stamp and "at most 40 fights per point" in stamp


def test_sim_plot_groups_risks_by_side_with_vignettes_and_the_stamp(tmp_path: Path) -> None:
    """``affray sim mill_ambush.yaml --plot report.svg`` (WitchHammer): the rounds panel counts vignettes, the risk
    panel names each side over its combatants and says its unit, and the stamp names the policies of every acting
    seat (the GM's included), the engine and the version."""
    out = tmp_path / "report.svg"
    done = cli("sim", str(AMBUSH), "-n", "30", "--seed", "1", "--workers", "1", "--plot", str(out))
    assert done.returncode == 0, done.stderr
    shown = texts(out)
    assert "vignettes" in shown and any(t.startswith("vignettes per fight") for t in shown)
    assert {"hunters", "villagers", "chance per fight", "share of fights", "down", "dead"} <= set(shown)
    stamp = words(out)
    assert "30 fights" in stamp and "seed 1" in stamp and "gm=heuristic" in stamp and "engine fast" in stamp


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--param", "a=1..2", "--param", "b=1..2", "--param", "c=1..2"], "one or two parameters"),
        (["--param", "hald.stats.endurance=4..5", "--param", "hald.stats.endurance=6..7"], "is given twice"),
        (["--param", "hald.stats.endurance=4..5", "--exact", "--policy", "watch=random"], "--policy does not apply"),
        (["--param", "hald.stats.endurance=4..5", "--side", "nobody"], "its sides are witcher, watch"),
        (["--param", "hald.stats.endurance=4..5", "--param", "vesna.stats.agility=4..9"], "makes the scenario invalid"),
    ],
)
def test_sweep_refuses_with_a_sentence(args: list[str], message: str) -> None:
    done = cli("sweep", str(DUEL), *args, "-n", "5", "--workers", "1")
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
