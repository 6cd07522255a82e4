"""``affray sim --records OUT.csv|OUT.parquet``: one row per fight of a run, for pandas.

The columns: ``fight`` (its place in the run, from 0), ``seed`` (its dice; ``affray.sim.fast.play_fast`` with the
run's policies plays it again), ``winner`` (a side, ``draw`` or ``escaped``, as the report counts it), ``reason``
(the outcome's words), ``rounds``, then for each combatant ``<id>_hp``, ``<id>_down``, ``<id>_dead``,
``<id>_escaped``, ``<id>_dealt``, ``<id>_taken``, ``<id>_conditions`` (its lasting conditions, ``;`` between them)
and one ``<id>_<name>`` per extra number its ruleset reports (Poise left, EX-HP left, stun). The combatants and
their extras are read from the scenario's first state, so the header is written before the first fight ends.

CSV needs nothing more; Parquet needs ``pyarrow`` (``pip install pyarrow``), which affray does not install itself.
Rows are written chunk by chunk in the run's order as chunks finish, so a run of any size holds only a few chunks'
rows in memory.
"""

from __future__ import annotations

import csv
import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from affray.core.engine import ESCAPED, CombatantReport
from affray.sim.stats import FightRecord

#: Parquet rows kept before a row group is written (a chunk is only 100 fights: too small a group).
ROW_GROUP = 65_536
PER_COMBATANT = (
    ("hp", "int"),
    ("down", "bool"),
    ("dead", "bool"),
    ("escaped", "bool"),
    ("dealt", "int"),
    ("taken", "int"),
    ("conditions", "str"),
)


class RecordsError(ValueError):
    """Records cannot be written as asked (a Parquet file without pyarrow); the message says what to do."""


def check_records_path(path: Path) -> None:
    """Refuse before the run what would fail after it: Parquet without pyarrow."""
    if path.suffix.lower() == ".parquet" and importlib.util.find_spec("pyarrow") is None:
        raise RecordsError(
            f"--records {path}: a .parquet file needs pyarrow, which is not installed "
            "(pip install pyarrow), or write a .csv file, which pandas.read_csv reads as well"
        )


@dataclass(frozen=True, slots=True)
class Columns:
    """The records' header: the combatants in the scenario's order and each one's extra numbers."""

    combatants: tuple[str, ...]
    extras: Mapping[str, tuple[str, ...]]

    @classmethod
    def of(cls, reports: Mapping[str, CombatantReport]) -> Columns:
        """From the reports of the scenario's first state (every combatant, every extra its ruleset reports)."""
        return cls(tuple(reports), {actor: tuple(sorted(r.extra)) for actor, r in reports.items()})

    def typed(self) -> list[tuple[str, str]]:
        """Each column's name and kind (``int``, ``bool``, ``str``, ``float``): Parquet's schema."""
        out = [("fight", "int"), ("seed", "int"), ("winner", "str"), ("reason", "str"), ("rounds", "int")]
        for actor in self.combatants:
            out += [(f"{actor}_{field}", kind) for field, kind in PER_COMBATANT]
            out += [(f"{actor}_{name}", "float") for name in self.extras[actor]]
        return out

    def names(self) -> list[str]:
        return [name for name, _ in self.typed()]

    def row(self, record: FightRecord) -> list[object]:
        out: list[object] = [record.index, record.seed, record.winner, record.reason, record.rounds]
        for actor in self.combatants:
            r = record.combatants.get(actor)
            if r is None:  # a combatant the fight's end no longer reports: its cells stay empty
                out += [None] * (7 + len(self.extras[actor]))
                continue
            out += [
                r.hp,
                r.down,
                r.dead,
                ESCAPED in r.conditions,
                r.damage_dealt,
                r.damage_taken,
                ";".join(r.conditions),
            ]
            out += [r.extra.get(name) for name in self.extras[actor]]
        return out


class RecordsWriter:
    """Writes fight records to ``path`` (``.csv`` or ``.parquet``) as a context manager; call it with each chunk's
    records in the run's order."""

    def __init__(self, path: Path, columns: Columns) -> None:
        self.path, self.columns = path, columns
        self.parquet = path.suffix.lower() == ".parquet"
        self.written = 0
        self._rows: list[list[object]] = []
        self._file: IO[str] | None = None
        self._csv: Any = None
        self._parquet: Any = None

    def __enter__(self) -> RecordsWriter:
        if self.parquet:
            check_records_path(self.path)
        else:
            self._file = self.path.open("w", newline="", encoding="utf-8")
            self._csv = csv.writer(self._file)
            self._csv.writerow(self.columns.names())
        return self

    def __call__(self, records: Sequence[FightRecord]) -> None:
        rows = [self.columns.row(r) for r in records]
        self.written += len(rows)
        if not self.parquet:
            self._csv.writerows(rows)
            return
        self._rows += rows
        if len(self._rows) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        pa = importlib.import_module("pyarrow")  # an optional dependency: typed as Any here
        pq = importlib.import_module("pyarrow.parquet")
        kinds = {"int": pa.int64(), "bool": pa.bool_(), "str": pa.string(), "float": pa.float64()}
        schema = pa.schema([(name, kinds[kind]) for name, kind in self.columns.typed()])
        table = pa.table({name: [row[i] for row in self._rows] for i, name in enumerate(schema.names)}, schema=schema)
        if self._parquet is None:
            self._parquet = pq.ParquetWriter(str(self.path), schema)
        self._parquet.write_table(table)
        self._rows = []

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()
        if self.parquet:
            if self._rows or self._parquet is None:  # the last rows, or an empty run's header
                self._flush()
            self._parquet.close()
