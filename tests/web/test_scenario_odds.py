"""The odds before the fight (``POST /api/scenarios/odds``, docs/table.md "The odds before the fight"): a quick
simulation in a worker process, the same fights ``affray sim`` plays with the same seed and chunk size, or the exact
duel solver where it applies; bounded (fights, combatants, time, one job per key, a small queue) and cancellable."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.api import load_scenario
from affray.odds.duels import solve_scenario
from affray.store import Store
from affray.table import odds_job
from affray.table.errors import Refusal
from affray.table.odds_job import CANCELLED, OddsJobs
from tests.cli.inproc import run_cli
from tests.web.helpers import make_app
from tests.web.inprocess import InProcessClient

EXAMPLES = Path(__file__).parents[2] / "examples"
BRAWL = EXAMPLES / "warp" / "melee_brawl.yaml"  # five in a brawl: simulated, not solvable exactly
DUEL = EXAMPLES / "warp" / "knight_duel.yaml"  # one on one: the exact duel solver's


@pytest.fixture
def jobs(client: TestClient) -> Iterator[OddsJobs]:
    """The app's odds queue, with room for a slow machine (a minute of wall time instead of four seconds)."""
    made = OddsJobs(wall=60.0, exact_wall=60.0)
    client.app.state.odds_jobs = made  # type: ignore[attr-defined]
    yield made
    made.close()


def odds(client: TestClient, path: Path, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/scenarios/odds", json={"scenario": path.read_text(), **body})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_the_odds_are_the_fights_affray_sim_plays(client: TestClient, jobs: OddsJobs) -> None:
    """The same scenario, seed, fight count and chunk size: ``affray sim`` counts the same wins, rounds and downs,
    and each side's rate lies within the odds' 95% interval."""
    got = odds(client, BRAWL, fights=200, seed=7)
    code, out, err = run_cli(
        ["sim", str(BRAWL), "-n", "200", "--seed", "7", "--chunk", "25", "--workers", "1", "--json"]
    )
    assert code == 0, err
    sim = json.loads(out)
    assert (got["fights"], got["exact"], got["seed"], got["chunk"]) == (200, False, 7, 25)
    for side, row in sim["sides"].items():
        assert got["sides"][side]["win"] == pytest.approx(row["win_rate"])
        assert got["sides"][side]["low"] <= row["win_rate"] <= got["sides"][side]["high"]
        assert [got["sides"][side]["low"], got["sides"][side]["high"]] == pytest.approx(row["ci95"])
    assert got["rounds"] == pytest.approx(sim["rounds"]["mean"])
    downs = {row["combatant"]: row["down"] for row in got["at_risk"]}
    assert downs == pytest.approx({actor: c["p_down"] for actor, c in sim["combatants"].items()})
    assert [row["down"] for row in got["at_risk"]] == sorted(downs.values(), reverse=True)  # most at risk first
    scenario = load_scenario(BRAWL)
    assert got["policies"] == {c.id: "heuristic" for _, c in scenario.model.combatants()}


def test_a_duel_the_solver_takes_is_answered_exactly(client: TestClient, jobs: OddsJobs) -> None:
    """WaRP's one-on-one duel: the exact duel solver's outcomes (``affray odds duel``'s), intervals of no width, and
    the sentence of what it assumes instead of policies."""
    got = odds(client, DUEL)
    scenario = load_scenario(DUEL)
    solved = solve_scenario(scenario.plugin, scenario.setup, scenario.options)
    assert got["exact"] is True and got["fights"] == 0 and got["policies"] == {}
    assert "steady" in got["assumes"]
    for side in ("theo", "knight"):
        p = float(solved.outcomes[side])
        assert got["sides"][side] == pytest.approx({"win": p, "low": p, "high": p})
    assert got["rounds"] == pytest.approx(float(solved.expected_rounds))
    simulated = odds(client, DUEL, exact=False, fights=50)
    assert simulated["exact"] is False and simulated["fights"] == 50


def test_a_new_request_with_the_same_key_cancels_the_one_under_way(client: TestClient, jobs: OddsJobs) -> None:
    """One job per key: the page sends one per change. The job under way is marked cancelled and answers 409
    ``cancelled`` at its next chunk's end; the new one runs. Keys are the caller's own (scoped to its address)."""
    earlier = jobs._enter("host:testclient|build-1")
    other = jobs._enter("host:elsewhere|build-1")
    got = odds(client, BRAWL, fights=25, key="build-1")
    assert got["fights"] == 25
    assert earlier.cancelled and not other.cancelled
    finished = jobs._submit(earlier, odds_job._ready)
    with pytest.raises(Refusal) as refused:
        jobs._wait(earlier, finished, float("inf"))
    assert (refused.value.status, refused.value.code, refused.value.message) == (409, "cancelled", CANCELLED)


def test_a_full_queue_answers_503_with_a_sentence(client: TestClient) -> None:
    full = OddsJobs(queue=1)
    client.app.state.odds_jobs = full  # type: ignore[attr-defined]
    full._enter("someone else")
    answer = client.post("/api/scenarios/odds", json={"scenario": BRAWL.read_text()})
    assert answer.status_code == 503
    assert answer.json() == {"code": "busy", "message": odds_job.BUSY}
    full.close()


def test_the_work_is_bounded(client: TestClient, jobs: OddsJobs, monkeypatch: pytest.MonkeyPatch) -> None:
    """At most 500 fights (422 beyond), at most MAX_COMBATANTS combatants (422 with a sentence)."""
    answer = client.post("/api/scenarios/odds", json={"scenario": BRAWL.read_text(), "fights": 501})
    assert answer.status_code == 422
    monkeypatch.setattr(odds_job, "MAX_COMBATANTS", 4)
    answer = client.post("/api/scenarios/odds", json={"scenario": BRAWL.read_text()})
    assert answer.status_code == 422
    assert answer.json() == {"code": "too_large", "message": "The odds take at most 4 combatants; this fight has 5."}


def test_a_broken_scenario_is_422_with_its_problems(client: TestClient) -> None:
    answer = client.post("/api/scenarios/odds", json={"scenario": "ruleset: warp\nsides: []\n"})
    assert answer.status_code == 422
    assert answer.json()["code"] == "bad_scenario"


def test_the_odds_need_the_creation_key(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'keyed.db'}") as store:
        service, app = make_app(store, create_key="k" * 20)
        with InProcessClient(app) as keyed:
            answer = keyed.post("/api/scenarios/odds", json={"scenario": BRAWL.read_text()})
            assert answer.status_code == 401 and answer.json()["code"] == "bad_create_key"
        service.close()


class Signalling(OddsJobs):
    """An odds queue that says when a job has taken its place (so a test starts the second request after it)."""

    def __init__(self) -> None:
        super().__init__(wall=60.0, exact_wall=60.0)
        self.entered = threading.Event()

    def _enter(self, key: str | None) -> odds_job._Job:
        job = super()._enter(key)
        self.entered.set()
        return job


def test_the_earlier_request_answers_409_cancelled_over_http(client: TestClient) -> None:
    """Two requests of one page, the second sent while the first plays its 500 fights: the first answers 409
    ``cancelled`` with its sentence, the second the odds."""
    signalling = Signalling()
    client.app.state.odds_jobs = signalling  # type: ignore[attr-defined]
    answers: dict[str, Any] = {}

    def first() -> None:
        answers["first"] = client.post(
            "/api/scenarios/odds", json={"scenario": BRAWL.read_text(), "fights": 500, "key": "page"}
        )

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert signalling.entered.wait(60)
        second = client.post("/api/scenarios/odds", json={"scenario": BRAWL.read_text(), "fights": 25, "key": "page"})
    finally:
        thread.join(120)
        signalling.close()
    assert second.status_code == 200 and second.json()["fights"] == 25
    assert answers["first"].status_code == 409
    assert answers["first"].json() == {"code": "cancelled", "message": CANCELLED}


def test_the_odds_worker_leaves_with_a_server_killed_outright(tmp_path: Path) -> None:
    """A server killed with no shutdown (SIGKILL, a crash) while a job runs leaves no worker behind: the worker waits on
    its parent's sentinel beside the job and exits once the parent is gone (an idle worker would see its queue close,
    a busy one would play on to the end of its job, which nobody hears)."""
    script = (
        "import os, sys, time\n"
        "from affray.table import odds_job\n"
        "def hold(fifo):  # a job under way, as a long exact solve would be\n"
        "    with open(fifo, 'w') as told:\n"
        "        told.write('started')\n"
        "    time.sleep(600)\n"
        "if __name__ == '__main__':\n"
        "    os.mkfifo(sys.argv[1])\n"
        "    queue = odds_job.OddsJobs()  # kept: a queue collected stops its pool\n"
        "    pool = queue._pool_now()\n"
        "    print(pool.apply(os.getpid), flush=True)\n"
        "    pool.apply_async(hold, (sys.argv[1],))\n"
        "    with open(sys.argv[1]) as told:\n"
        "        told.read()  # the job has started\n"
        "    os._exit(9)  # as if killed: no close, no atexit\n"
    )
    (tmp_path / "server.py").write_text(script)
    # files, not pipes: a worker left behind would hold a pipe open
    with (tmp_path / "out").open("w") as out, (tmp_path / "err").open("w") as err:
        done = subprocess.run(
            [sys.executable, str(tmp_path / "server.py"), str(tmp_path / "started")],
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
    assert done.returncode == 9, (tmp_path / "err").read_text()
    worker = int((tmp_path / "out").read_text().strip())
    try:
        handle = os.pidfd_open(worker)
    except ProcessLookupError:
        return  # gone already
    try:
        ready, _, _ = select.select([handle], [], [], 60)  # readable once the process has exited
        assert ready == [handle], f"worker {worker} outlived its server"
    finally:
        os.close(handle)


def test_a_queue_collected_without_a_shutdown_stops_its_worker() -> None:
    """An app that never ran its shutdown (a test's app, never started) still stops the odds worker when its queue
    is collected: the pool is terminated, never left for its own finaliser to warn of a running pool."""
    import gc
    from multiprocessing.pool import TERMINATE

    queue = OddsJobs()
    pool = queue._pool_now()
    del queue
    gc.collect()
    assert pool._state == TERMINATE  # type: ignore[attr-defined]
    pool.join()
