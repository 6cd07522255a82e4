"""A simulation report reproduces itself (docs/simulation.md, "The report"): the text, ``--json`` and the plot record
the scenario (its path, the SHA-256 of its file and of what was simulated), the seed, each acting seat's policy, the
engine and affray's version; ``--records`` writes one row per fight; ``affray.simulate`` gives the same report from
Python, typed."""

from __future__ import annotations

import csv
import hashlib
import json
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

import affray
from affray.core.plugin import plugin
from affray.sim.report import setup_digest
from tests.cli_run import affray as cli

EXAMPLES = Path(__file__).parents[2] / "examples"
DUEL = EXAMPLES / "hud" / "nerdified_duel.yaml"
SIMPLE = EXAMPLES / "hud" / "simplified_duel.yaml"
AMBUSH = EXAMPLES / "witchhammer" / "mill_ambush.yaml"


def sim_json(*args: str) -> dict[str, object]:
    done = cli("sim", *args, "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_sim_json_records_the_scenario_seed_policies_engine_and_version() -> None:
    """The user's step: ``affray sim nerdified_duel.yaml -n 40 --seed 9 --policy watch=random --json``. The report
    names the file and its SHA-256 (what ``sha256sum`` prints), the digest of the setup as simulated, the seed, the
    policy of each combatant (the HuD's GM has no calls, so no GM policy), the engine, affray's and the rules'
    versions: everything needed to run it again."""
    report = sim_json(str(DUEL), "-n", "40", "--seed", "9", "--policy", "watch=random")
    loaded = affray.load_scenario(DUEL)
    assert report["scenario"] == {
        "name": "Duel on the Toll Bridge",
        "path": str(DUEL),
        "sha256": hashlib.sha256(DUEL.read_bytes()).hexdigest(),
        "setup_sha256": setup_digest("hud", plugin("hud").rules_version, loaded.setup, loaded.options),
    }
    assert report["seed"] == 9 and report["policies"] == {"vesna": "heuristic", "hald": "random"}
    assert (report["engine"], report["path"]) == ("fast", "fast")
    assert report["version"] == version("affray") and report["ruleset"] == "hud"
    assert report["rules_version"] == plugin("hud").rules_version and report["notes"] == []


def test_sim_text_prints_the_stamp_and_a_gm_policy_only_where_the_gm_acts() -> None:
    """``affray sim mill_ambush.yaml`` (WitchHammer, where the GM has calls of its own): the text report prints the
    file's digest, the seed and every acting seat's policy, the GM's included; its rounds are vignettes."""
    done = cli("sim", str(AMBUSH), "-n", "10", "--seed", "2", "--workers", "1")
    assert done.returncode == 0, done.stderr
    digest = hashlib.sha256(AMBUSH.read_bytes()).hexdigest()
    assert f"sha256 {digest}" in done.stdout
    assert (
        "seed 2 · policies: ilse heuristic, tomas heuristic, hob heuristic, wat heuristic, dick heuristic, "
        "gm heuristic · engine fast"
    ) in done.stdout
    assert "vignettes: mean" in done.stdout and "rounds: mean" not in done.stdout
    report = sim_json(str(AMBUSH), "-n", "10", "--seed", "2")
    assert report["rounds"]["word"] == "vignette"  # type: ignore[index]


def test_sim_records_write_one_row_per_fight_that_matches_the_report(tmp_path: Path) -> None:
    """``affray sim nerdified_duel.yaml -n 60 --chunk 25 --records fights.csv``: 60 rows in the run's order (three
    chunks), each with its seed, winner, rounds and both combatants' end states; the rows add up to the report's
    counts, and each row's seed replays its fight (the same winner and rounds on the fast path)."""
    from affray.ai.base import get_policy
    from affray.sim.fast import play_fast
    from affray.sim.runner import fight_seed
    from affray.sim.session import spec_for

    out = tmp_path / "fights.csv"
    report = sim_json(str(DUEL), "-n", "60", "--seed", "5", "--chunk", "25", "--records", str(out))
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == [
        "fight",
        "seed",
        "winner",
        "reason",
        "rounds",
        *(
            f"{c}_{f}"
            for c in ("vesna", "hald")
            for f in ("hp", "down", "dead", "escaped", "dealt", "taken", "conditions")
        ),
    ]
    assert [int(r["fight"]) for r in rows] == list(range(60))
    sides = report["sides"]
    assert isinstance(sides, dict)
    for side, row in sides.items():
        assert sum(r["winner"] == side for r in rows) == row["wins"]
    assert sum(r["winner"] == "escaped" for r in rows) == report["escapes"]["count"]  # type: ignore[index]
    assert sum(r["vesna_down"] == "True" for r in rows) == round(report["combatants"]["vesna"]["p_down"] * 60)  # type: ignore[index]
    scenario = affray.load_scenario(DUEL)
    spec, _ = spec_for(scenario, {}, 5, 25)
    policies = {actor: get_policy("hud", name) for actor, name in spec.policies.items()}
    for index in (0, 30, 59):
        assert int(rows[index]["seed"]) == fight_seed(spec, index)
        state, fight = play_fast(scenario.ruleset, scenario.setup, scenario.options, policies, int(rows[index]["seed"]))
        assert (fight.outcome.label if fight.outcome else "draw", fight.rounds) == (
            rows[index]["winner"],
            int(rows[index]["rounds"]),
        )
        assert scenario.ruleset.report(state)["hald"].hp == int(rows[index]["hald_hp"])
    plain = sim_json(str(DUEL), "-n", "60", "--seed", "5", "--chunk", "25")
    assert {k: v for k, v in plain.items() if k != "chunks"} == {k: v for k, v in report.items() if k != "chunks"}


def test_sim_records_play_a_batch_scenario_on_the_engine(tmp_path: Path) -> None:
    """A scenario the numpy batch path fits (Dice Simplified one on one) plays no fight by itself: with ``--records``
    the run is on the engine's fast path, and says so, with a row per fight."""
    out = tmp_path / "fights.csv"
    report = sim_json(str(SIMPLE), "-n", "30", "--records", str(out))
    assert report["engine"] == "fast" and report["fights"] == 30
    assert len(out.read_text().splitlines()) == 31
    assert sim_json(str(SIMPLE), "-n", "30")["engine"] == "batch"


def test_sim_records_parquet_without_pyarrow_is_refused_before_the_run(tmp_path: Path) -> None:
    """``--records fights.parquet`` where pyarrow is not installed: one sentence saying to install it or to write a
    CSV file, exit 2, nothing written (affray does not install pyarrow itself)."""
    import importlib.util

    if importlib.util.find_spec("pyarrow") is not None:
        pytest.skip("pyarrow is installed here: the Parquet file is written instead")
    out = tmp_path / "fights.parquet"
    done = cli("sim", str(DUEL), "-n", "5", "--workers", "1", "--records", str(out))
    assert done.returncode == 2 and not out.exists()
    assert "a .parquet file needs pyarrow, which is not installed (pip install pyarrow)" in done.stderr
    assert "simulating" not in done.stdout


def test_sim_records_parquet_with_pyarrow(tmp_path: Path) -> None:
    """Where pyarrow is installed, ``--records fights.parquet`` writes the same columns, typed."""
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "fights.parquet"
    report = sim_json(str(DUEL), "-n", "30", "--records", str(out))
    table = pq.read_table(out)
    assert table.num_rows == report["fights"] == 30
    assert str(table.schema.field("vesna_down").type) == "bool"


def test_simulate_from_python_is_the_cli_report() -> None:
    """``affray.simulate(path, n=120, seed=4)`` and ``affray sim path -n 120 --seed 4 --json`` give the same report
    (every number, the stamp); a loaded ``Scenario`` and the scenario's mapping give the same numbers, the mapping
    with no file digest but the same digest of what was simulated."""
    report = affray.simulate(DUEL, n=120, seed=4)
    printed = sim_json(str(DUEL), "-n", "120", "--seed", "4")
    assert report.to_json() == {k: v for k, v in printed.items() if k != "chunks"}
    loaded = affray.simulate(affray.load_scenario(DUEL), n=120, seed=4, workers=2)
    as_data = affray.simulate(yaml.safe_load(DUEL.read_text()), n=120, seed=4)
    assert loaded == report
    assert (as_data.wins, as_data.rounds, as_data.combatants) == (report.wins, report.rounds, report.combatants)
    assert as_data.scenario.sha256 is None and as_data.scenario.setup_sha256 == report.scenario.setup_sha256


def test_simulate_returns_a_typed_report() -> None:
    """The report's numbers as typed fields: each side's wins as a ``Rate`` (count, rate, 95% interval), the rounds'
    mean and distribution, each combatant's down and dead chances with intervals, the policies, seed, engine."""
    report = affray.simulate(DUEL, n=100, seed=1, policies={"witcher": "steady", "watch": "steady"}, engine="full")
    witcher = report.wins["witcher"]
    assert isinstance(witcher, affray.Rate) and witcher.low <= witcher.rate <= witcher.high
    assert witcher.count + report.wins["watch"].count + report.draws.count + report.escapes.count == 100
    assert sum(report.rounds.values()) == 100 and report.rounds_at_least(1) == 1.0
    assert report.rounds_mean == sum(k * v for k, v in report.rounds.items()) / 100
    vesna = report.combatants["vesna"]
    assert isinstance(vesna, affray.CombatantRisk) and vesna.side == "witcher"
    assert vesna.down.count == report.wins["watch"].count  # a steady duel ends when one of them is down
    assert report.policies == {"vesna": "steady", "hald": "steady"}
    assert (report.seed, report.engine, report.round_word) == (1, "full", "round")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"n": 0}, "at least 1"),
        ({"policies": {"nobody": "random"}}, "names no side or combatant called nobody"),
        ({"policies": {"witcher": "clever"}}, "clever"),
        ({"engine": "batch"}, "engine is 'auto', 'fast' or 'full'"),
    ],
)
def test_simulate_refuses_bad_arguments_with_a_sentence(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        affray.simulate(DUEL, **kwargs)  # type: ignore[arg-type]
