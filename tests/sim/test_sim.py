"""Monte Carlo runs: reproducibility at any scale, agreement with exact odds, sweeps, interruption."""

from __future__ import annotations

import json
import math
import os
import select
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.core.scenario import load_scenario_data
from affray.rulesets.hud.odds import duel_odds
from affray.sim.runner import SimSpec, run
from affray.sim.session import simulate, sweep
from affray.sim.stats import Tally, wilson
from affray.sim.sweep import SweepError, parse_param, scenario_with

ROOT = Path(__file__).parents[2]
DUEL = ROOT / "examples" / "hud" / "nerdified_duel.yaml"
SIMPLE = ROOT / "examples" / "hud" / "simplified_duel.yaml"


def local_cluster() -> Any:
    """An in-process Dask cluster on free ports (parallel test workers must not collide on 8786/8787)."""
    from distributed import LocalCluster

    return LocalCluster(n_workers=1, processes=False, scheduler_port=0, dashboard_address=":0")


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-4 and abs(hi - 0.5962) < 1e-4
    assert wilson(0, 10)[0] == 0.0 and abs(wilson(10, 10)[1] - 1.0) < 1e-12
    assert abs(wilson(0, 10)[1] - 0.2775) < 1e-4


def test_serial_pool_and_dask_give_identical_numbers() -> None:
    """Every chunk's seed comes from the run's seed and its index, so the executor cannot change a number."""
    from distributed import Client

    scenario = affray.load_scenario(DUEL)
    serial = simulate(scenario, 240, 5, None, {}, chunk=40)
    with ProcessPoolExecutor(2) as pool:
        pooled = simulate(scenario, 240, 5, pool, {}, chunk=40)
    with local_cluster() as cluster, Client(cluster) as client:
        dasked = simulate(scenario, 240, 5, client.get_executor(), {}, chunk=40)
    assert serial.report == pooled.report == dasked.report
    assert serial.report["fights"] == 240 and serial.path == "fast"
    assert simulate(scenario, 240, 6, None, {}, chunk=40).report != serial.report


def test_engine_monte_carlo_agrees_with_exact_duel() -> None:
    """The full engine (steady policy) against the exact Combat Nerdified duel: within 4 standard errors."""
    scenario = affray.load_scenario(DUEL)
    exact = duel_odds(scenario.setup, scenario.options).outcomes["witcher"]
    n = 1200
    report = simulate(scenario, n, 11, None, {"witcher": "steady", "watch": "steady"}).report
    assert abs(report["sides"]["witcher"]["win_rate"] - exact) <= 4 * math.sqrt(exact * (1 - exact) / n)


def test_batch_path_agrees_with_exact_duel_and_engine() -> None:
    """The numpy batch path (Dice Simplified) against the exact solver (200,000 duels: within 4 SE) and
    against the full engine (1,500 fights: within 4 SE of the two estimates' difference)."""
    scenario = affray.load_scenario(SIMPLE)
    exact = duel_odds(scenario.setup, scenario.options)
    batch = simulate(scenario, 200_000, 3, None, {})
    assert batch.path.startswith("batch")
    p = exact.outcomes["scout"]
    assert abs(batch.report["sides"]["scout"]["win_rate"] - p) <= 4 * math.sqrt(p * (1 - p) / 200_000)
    sd = math.sqrt(sum(k * k * q for k, q in exact.rounds) - exact.expected_rounds**2)
    assert abs(batch.report["rounds"]["mean"] - exact.expected_rounds) <= 4 * sd / math.sqrt(200_000)
    engine = simulate(scenario, 1500, 3, None, {}, engine_only=True)
    assert engine.path == "fast"
    se = math.sqrt(p * (1 - p) / 1500 + p * (1 - p) / 200_000)
    assert abs(engine.report["sides"]["scout"]["win_rate"] - batch.report["sides"]["scout"]["win_rate"]) <= 4 * se
    assert batch.report["combatants"]["ilka"]["hp_max"] == 3


def test_interrupted_run_reports_what_finished() -> None:
    calls: list[int] = []

    def flaky(spec: SimSpec, chunk: int, count: int) -> Tally:
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(chunk)
        tally = Tally()
        tally.fights = count
        return tally

    spec = SimSpec("hud", {}, {}, {}, 0, chunk_size=10)
    result = run(spec, 50, None, None, flaky)
    assert result.interrupted and result.chunks_done == 2 and result.chunks_total == 5 and result.tally.fights == 20


def _read_until(proc: subprocess.Popen[str], text: str, seconds: float) -> str:
    """Lines of ``proc``'s stdout up to one containing ``text`` (bounded by ``seconds``; no sleeping)."""
    assert proc.stdout is not None
    seen, deadline = "", time.monotonic() + seconds
    while text not in seen:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no {text!r} within {seconds}s; got {seen!r}"
        line = proc.stdout.readline()
        assert line, f"the CLI ended before printing {text!r}: {seen!r}"
        seen += line
    return seen


def test_ctrl_c_in_the_cli_prints_the_finished_part() -> None:
    """Ctrl-C once the run has started: the report of what finished, and a non-zero exit (nothing finished is lost)."""
    # SIGINT as a terminal delivers it, to a child that takes it: a suite run in the background of a shell (a CI
    # job, `make test &`) has SIGINT ignored, which a child inherits, and Python then never raises KeyboardInterrupt.
    # So the child puts Python's own handler back before it runs `python -m affray` (no preexec_fn: this process has
    # threads, and a hook between fork and exec is not safe with threads).
    launch = (
        "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv[0] = 'affray'; runpy.run_module('affray', run_name='__main__', alter_sys=True)"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", launch, "sim", str(DUEL), "-n", "200000", "--workers", "1", "--chunk", "20", "--engine"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with proc:  # its pipes closed however the test ends
        try:
            started = _read_until(proc, "Ctrl-C stops", 60)
            os.kill(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
    assert proc.returncode == 130, err
    assert "simulating 200,000 fights of Duel on the Toll Bridge" in started
    assert "interrupted:" in out and "of 10000 chunks finished" in out and "Duel on the Toll Bridge" in out
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hp=1..3", None),
        ("x", "PATH=LO..HI"),
        ("a=5..1", "backwards"),
        ("a=1..5:0", "positive"),
        ("a=1..b", "PATH=LO..HI"),
    ],
)
def test_param_syntax(text: str, message: str | None) -> None:
    if message is None:
        assert parse_param(text).values == (1, 2, 3)
        assert parse_param("a=0.5..1.0:0.25").values == (0.5, 0.75, 1.0)
    else:
        with pytest.raises(SweepError, match=message):
            parse_param(text)


def test_param_paths_reach_scenario_and_content_or_say_why() -> None:
    data = load_scenario_data(DUEL)
    by_id = scenario_with(data, DUEL, [("hald.stats.endurance", 4)])
    assert by_id.setup["combatants"][1]["endurance"] == 4
    by_index = scenario_with(data, DUEL, [("sides[1].combatants[0].stats.strength", 5)])
    assert by_index.setup["combatants"][1]["strength"] == 5
    content = scenario_with(data, DUEL, [("content.characters.sergeant.endurance", 12)])
    assert content.setup["combatants"][1]["endurance"] == 12
    with pytest.raises(SweepError, match="is a list of 2"):
        scenario_with(data, DUEL, [("sides[5].name", 1)])
    with pytest.raises(SweepError, match="no characters called 'nobody'"):
        scenario_with(data, DUEL, [("content.characters.nobody.endurance", 3)])
    with pytest.raises(SweepError, match="makes the scenario invalid"):
        scenario_with(data, DUEL, [("hald.stats.endurance", 99)])


def test_sweep_on_an_in_process_dask_cluster_with_early_stopping() -> None:
    from distributed import Client

    data = load_scenario_data(DUEL)
    with local_cluster() as cluster, Client(cluster) as client:
        points = sweep(
            data,
            DUEL,
            parse_param("hald.stats.endurance=2..8:6"),
            600,
            1,
            client.get_executor(),
            {},
            precision=0.06,
            batch=100,
        )
    assert [p["value"] for p in points] == [2, 8]
    assert all(100 <= p["fights"] <= 600 for p in points)
    low, high = (p["sides"]["witcher"]["win_rate"] for p in points)
    assert low > high  # a tougher sergeant wins more often
    for p in points:
        lo, hi = p["sides"]["witcher"]["ci95"]
        assert (hi - lo) / 2 < 0.06 or p["fights"] == 600


def test_chunks_are_submitted_lazily_with_a_bounded_number_in_flight() -> None:
    """Size limits: `sim -n 1000000000` must not queue every chunk up front; at most 4 per worker wait."""
    from concurrent.futures import Future, ThreadPoolExecutor

    from affray.sim.runner import chunks_of, in_flight_for

    class Counting(ThreadPoolExecutor):
        def __init__(self) -> None:
            super().__init__(max_workers=2)
            self.outstanding = self.most = 0

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
            self.outstanding += 1
            self.most = max(self.most, self.outstanding)
            future = super().submit(fn, *args, **kwargs)
            future.add_done_callback(lambda _: setattr(self, "outstanding", self.outstanding - 1))
            return future

    def counted(spec: SimSpec, chunk: int, count: int) -> Tally:
        tally = Tally()
        tally.fights = count
        return tally

    assert not isinstance(chunks_of(10**12, 100), list)
    with Counting() as pool:
        result = run(SimSpec("hud", {}, {}, {}, 0, chunk_size=3), 3000, pool, None, counted)
        assert result.tally.fights == 3000 and result.chunks_done == result.chunks_total == 1000
        assert pool.most <= in_flight_for(pool) == 8


def test_sim_sample_is_the_runs_first_fight_replayed_in_full() -> None:
    """``affray sim --sample`` replays a simulated fight in full from its seed and actions; the
    report is the same on the fast path and the full engine (``--full``), and the sample's record is that fight's."""
    from affray.sim.fast import replay_in_full
    from affray.sim.runner import fight_seed
    from affray.sim.session import spec_for
    from tests.cli.inproc import run_cli

    args = ["sim", str(DUEL), "-n", "40", "--seed", "3", "--workers", "1", "--chunk", "10", "--json", "--sample"]
    code, out, _ = run_cli(args)
    fast = json.loads(out)
    code_full, out_full, _ = run_cli([*args, "--full"])
    full = json.loads(out_full)
    assert code == code_full == 0 and (fast["path"], full["path"]) == ("fast", "full")
    for key in ("sides", "draws", "escapes", "rounds", "combatants", "fights"):
        assert fast[key] == full[key], key
    sample = fast["sample"]
    spec, _ = spec_for(affray.load_scenario(DUEL), {}, 3, 10)
    assert sample["fight"] == 0 and sample["seed"] == fight_seed(spec, 0) == full["sample"]["seed"]
    assert sample["actions"] == full["sample"]["actions"] and len(sample["actions"]) > 4
    # The record alone replays to the very events reported, from the seed and the actions.
    from affray.sim.fast import FastFight

    record = FastFight(sample["seed"], [(a["actor"], a["action"]) for a in sample["actions"]])
    scenario = affray.load_scenario(DUEL)
    match = replay_in_full(scenario.ruleset, scenario.setup, scenario.options, record)
    assert [e.to_dict() for e in match.events()] == sample["events"]
    assert sample["events"][-1]["type"] == "ended"
    code, text, _ = run_cli([a for a in args if a != "--json"])
    assert code == 0 and "replayed in full from its" in text and "wins" in text
