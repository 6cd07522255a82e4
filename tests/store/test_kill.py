"""A writer killed with SIGKILL mid-stream (kill -9 at the store's level): every append it saw
acknowledged is in the database afterwards, the log has no hole, and the database opens and takes more."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import time

from affray.store import Record, Store
from tests.store.conftest import SEATS, new_table
from tests.waiting import lines_of

WRITER = """
import sys
from affray.store import Record, Store
store = Store(sys.argv[1])
seq = 0
while True:
    if store.append("tbl1", Record(seq=seq, kind="action", seat="ulla", actor="Ulla", payload={"n": seq},
                                   chain=str(seq), submission_id=f"s{seq}")):
        print(seq, flush=True)  # acknowledged: committed before append returned
        seq += 1
"""
ACKED_BEFORE_KILL = 25
DEADLINE_S = 60.0


def test_every_acknowledged_append_survives_a_sigkill(store_url: str) -> None:
    with Store(store_url) as store:
        store.create_table(new_table(), SEATS)
    acked: list[int] = []
    with subprocess.Popen([sys.executable, "-c", WRITER, store_url], stdout=subprocess.PIPE, text=True) as writer:
        assert writer.stdout is not None
        lines = lines_of(writer.stdout)
        try:
            deadline = time.monotonic() + DEADLINE_S
            while len(acked) < ACKED_BEFORE_KILL and (left := deadline - time.monotonic()) > 0:
                try:
                    acked.append(int(lines.get(timeout=left)))
                except queue.Empty:
                    break
        finally:
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait(timeout=DEADLINE_S)
    assert len(acked) == ACKED_BEFORE_KILL, f"the writer stopped after {len(acked)} appends"
    with Store(store_url) as after:
        seqs = [record.seq for record in after.records("tbl1")]
        assert seqs == list(range(len(seqs)))  # no hole, whatever was in flight at the kill
        assert set(acked) <= set(seqs)
        assert all(record.payload == {"n": record.seq} for record in after.records("tbl1"))
        assert after.append(
            "tbl1", Record(seq=len(seqs), kind="action", seat="ulla", actor="Ulla", payload={}, chain="next")
        )
