"""Races: the database's unique (table, seq) key, not a lock in one process, picks the winner.

Each racer has its own Store (its own engine and connections), as two server processes would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

from affray.store import Record, Store
from tests.store.conftest import SEATS, new_table

TIMEOUT_S = 60.0


def claim(seq: int, racer: str) -> Record:
    return Record(
        seq=seq, kind="action", seat="ulla", actor="Ulla", payload={"by": racer, "seq": seq}, chain=f"{racer}-{seq}"
    )


def run_all(workers: list[Callable[[], None]]) -> None:
    """Run each worker in a thread; re-raise the first error; fail if one does not finish in time."""
    errors: list[BaseException] = []

    def guard(work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=guard, args=(work,)) for work in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT_S)
    assert not any(thread.is_alive() for thread in threads), "a racer did not finish"
    if errors:
        raise errors[0]


@pytest.fixture
def stores(store_url: str) -> Iterator[list[Store]]:
    opened = [Store(store_url) for _ in range(2)]
    opened[0].create_table(new_table(), SEATS)
    yield opened
    for store in opened:
        store.close()


def test_two_racers_for_the_same_seq_exactly_one_wins_and_its_record_is_stored(stores: list[Store]) -> None:
    rounds = 20
    barrier = threading.Barrier(2, timeout=TIMEOUT_S)
    results: dict[str, list[bool]] = {"A": [], "B": []}

    def racer(name: str, store: Store) -> Callable[[], None]:
        def work() -> None:
            for seq in range(rounds):
                barrier.wait()  # both submit seq together, as two clients at the same version
                results[name].append(store.append("tbl1", claim(seq, name)))

        return work

    run_all([racer("A", stores[0]), racer("B", stores[1])])
    for seq in range(rounds):
        assert results["A"][seq] != results["B"][seq], f"seq {seq}: exactly one racer must win"
    stored = stores[0].records("tbl1")
    assert [record.seq for record in stored] == list(range(rounds))
    for record in stored:
        winner = "A" if results["A"][record.seq] else "B"
        assert record.payload == {"by": winner, "seq": record.seq}
        assert record.chain == f"{winner}-{record.seq}"


def test_many_racers_for_seqs_0_to_49_take_every_seq_exactly_once(stores: list[Store]) -> None:
    target, racers = 50, 6
    won: dict[str, list[int]] = {f"r{i}": [] for i in range(racers)}

    def racer(name: str, store: Store) -> Callable[[], None]:
        def work() -> None:
            for _ in range(10 * target):  # bounded: a store that never lets anyone win fails, not hangs
                if (seq := store.version("tbl1")) >= target:
                    return
                if store.append("tbl1", claim(seq, name)):
                    won[name].append(seq)

        return work

    run_all([racer(name, stores[i % 2]) for i, name in enumerate(won)])
    stored = stores[1].records("tbl1")
    assert [record.seq for record in stored] == list(range(target))
    assert sorted(seq for seqs in won.values() for seq in seqs) == list(range(target))
    for name, seqs in won.items():
        for seq in seqs:
            assert stored[seq].payload == {"by": name, "seq": seq}


def test_racing_retries_of_one_submission_act_once(stores: list[Store]) -> None:
    """A client retrying through two servers at once: one record, and both can find it."""
    barrier = threading.Barrier(2, timeout=TIMEOUT_S)
    results: list[bool] = []

    def retry(store: Store, seq: int) -> Callable[[], None]:
        def work() -> None:
            record = Record(
                seq=seq, kind="action", seat="ulla", actor="Ulla", payload={"try": seq}, chain="", submission_id="same"
            )
            barrier.wait()
            results.append(store.append("tbl1", record))

        return work

    stores[0].append("tbl1", claim(0, "setup"))
    run_all([retry(stores[0], 1), retry(stores[1], 1)])
    assert sorted(results) == [False, True]
    assert stores[0].version("tbl1") == 2
    found = stores[1].record_by_submission("tbl1", "same")
    assert found is not None and found.seq == 1
