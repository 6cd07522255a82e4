"""Memory after WebSocket connections (docs/performance.md, "Memory after WebSocket connections"): a real
``affray serve`` with an SQLite file, 50 tables, then a warm-up round and ten more rounds of 2,000 WebSocket
connects and disconnects at once (from 60 loopback addresses; most with a valid token, some sending it as their first
message, some refused), with compression on and then off. Prints the server's resident memory after each round, the
growth of the ten rounds after the warm-up (the goal: under 20 MiB in all), and its ratio to the warm-up round's own
growth, measured in the same run. Asserts nothing.

Run: ``.venv/bin/python bench/bench_ws_memory.py [CONNECTIONS] [ROUNDS]`` (default 2000, 10).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.table.test_kill9 import Server  # the same real-process harness as the test suite
from tests.web.rounds import Rounds, rss_mib

GOAL_MIB = 20.0


def measure(connections: int, rounds: int, options: tuple[str, ...]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(f"sqlite:///{Path(folder) / 'affray.db'}", options=options)
        server.start()
        try:
            assert server.proc is not None
            started = rss_mib(server.proc.pid)
            measured = Rounds(server)
            measured.open_tables(50)
            opened = rss_mib(server.proc.pid)
            for _ in range(1 + rounds):
                measured.round(connections)
        finally:
            server.kill()
    warm_up = measured.rss[0] - opened
    growth = measured.growth()
    label = " ".join(options) or "--no-ws-compression"
    print(
        f"{label}: RSS {started:.1f} MiB at start, {opened:.1f} with 50 tables, after each round "
        f"{', '.join(f'{r:.1f}' for r in measured.rss)}"
    )
    print(
        f"  warm-up round +{warm_up:.1f} MiB; {rounds} rounds of {connections} after it +{growth:.1f} MiB in all "
        f"({growth / rounds:.2f} MiB a round; {growth / warm_up:.3f} of the warm-up's growth); goal under "
        f"{GOAL_MIB:.0f} MiB: {'met' if growth < GOAL_MIB else 'MISSED'}"
    )


def main() -> None:
    connections = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    for options in (("--ws-compression",), ()):
        measure(connections, rounds, options)


if __name__ == "__main__":
    main()
