"""A table's snapshot: its match's state every few records, kept in the server's own database, so that a table
rebuilt after it left memory (docs/table.md, "Tables in memory") never replays a long fight from the start.

What is kept: the match's :class:`~affray.core.checkpoint.Checkpoint` (the ruleset's state, the dice's positions, each
record's events, the lines in force), pickled. Pickle and not each ruleset's state as JSON because a state is a
graph of slotted dataclasses, four rulesets' worth, with shared parts (compiled cards, a map) that a JSON form
would have to name by hand per ruleset; pickle keeps the graph as it is, and its objects that a fresh setup also
builds (what the memo's setup-only store shares between tables) are kept as references to that fresh setup, so a
rebuilt table shares them again instead of holding its own copy.

Why a snapshot never makes a wrong table. A snapshot is used only if all of these hold; otherwise the table is
replayed in full from its records, exactly as before snapshots existed, and the log says why:

- ``code``: the same program wrote it (a digest of affray's own source files, :func:`code_version`). A snapshot of
  another version may unpickle into objects that look right and mean something else (a field renamed or re-read),
  and nothing else could tell;
- ``digest``: the body's SHA-256 matches (a damaged row, a disk error);
- ``chain``: it was taken at the chain head the store's records give at its version, so it belongs to this history
  and not to a rolled-back or rewritten one;
- the body unpickles through :class:`_Unpickler`, which names only classes (affray's core data classes, the table's
  ruleset's own, the builtin containers), never a function or another module's class, so at most it builds those
  classes' objects: the database is trusted with the seed already, but a row in it must not become code the
  server runs (``tests/table/test_evict.py`` tries a pickle that would);
- the unpickled state reads back as the ruleset's summary (``Ruleset.snapshot``) recorded beside it, and passes the
  ruleset's invariants.

Secrecy: the body holds what the records and the seed give anyone who holds them (face-down cards, the dice's
position), no more; it lives in the database beside the seed and is never sent to a seat.
"""

from __future__ import annotations

import builtins
import collections
import dataclasses
import hashlib
import io
import json
import logging
import pickle
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

from affray.core.checkpoint import Checkpoint
from affray.core.json import JsonObject
from affray.core.match import Match
from affray.store import Snapshot

log = logging.getLogger(__name__)

#: Records between two snapshots of a table. A rebuild replays at most this many records after the newest one (and
#: usually none: a table is snapshotted when it leaves memory). The slowest rules step with its events costs about
#: a millisecond, so 32 keeps the replay part of a rebuild within a few ms, and a snapshot (pickled on the worker
#: thread, one write) every 32 actions costs the action path nothing (docs/performance.md, "Tables out of memory").
SNAPSHOT_EVERY = 32
PROTOCOL = 5

# What the unpickler may build: the builtin containers and scalars, and classes defined in affray's core and in the
# table's own ruleset's package (plain data: those layers do no I/O, docs/architecture.md). Never a function, never
# another module's class.
_BUILTINS = frozenset(
    {"set", "frozenset", "dict", "list", "tuple", "bytes", "bytearray", "int", "float", "str", "bool"}
)
_COLLECTIONS = frozenset({"OrderedDict", "deque", "defaultdict", "Counter"})
_CORE = "affray.core."


class SnapshotRefused(Exception):
    """The snapshot does not check out (see the module docstring); the message says why."""


@cache
def code_version() -> str:
    """A digest of the program: every one of affray's Python source files (its version among them; read once)."""
    digest = hashlib.sha256()
    for path in sorted(_sources(resources.files("affray")), key=lambda p: p[0]):
        digest.update(path[0].encode() + b"\0" + path[1] + b"\0")
    return digest.hexdigest()


def _sources(root: Any, prefix: str = "") -> Iterator[tuple[str, bytes]]:
    for entry in root.iterdir():
        name = f"{prefix}/{entry.name}"
        if entry.is_dir() and entry.name != "__pycache__":
            yield from _sources(entry, name)
        elif entry.name.endswith(".py"):
            yield name, entry.read_bytes()


def summary_digest(match: Match) -> str:
    """The SHA-256 of the ruleset's summary of the state (``Ruleset.snapshot``) as canonical JSON."""
    data: JsonObject = match.ruleset.snapshot(match.state)
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def take(match: Match, chain: str) -> Snapshot:
    """The snapshot of ``match`` now, at chain head ``chain`` (under the table's lock: the state is read as it is).
    Objects a fresh setup of the match also holds are kept as references to it (see the module docstring)."""
    fresh = match.fresh()
    shared = _paths(fresh.state)
    buffer = io.BytesIO()
    pickler = _Pickler(buffer, shared)
    pickler.dump((summary_digest(match), match.checkpoint()))
    body = buffer.getvalue()
    return Snapshot(
        seq=match.version, code=code_version(), chain=chain, digest=hashlib.sha256(body).hexdigest(), body=body
    )


def load(match: Match, snapshot: Snapshot, records: list[JsonObject], chain: str) -> None:
    """Put the fresh ``match`` at ``snapshot``, taken after ``records`` (the store's first ``snapshot.seq``, in
    ``Record.to_dict`` form), whose chain head is ``chain``. :class:`SnapshotRefused` when it does not check out
    (the match is then unusable: build a fresh one and replay)."""
    if snapshot.code != code_version():
        raise SnapshotRefused("it was written by another version of affray")
    if hashlib.sha256(snapshot.body).hexdigest() != snapshot.digest:
        raise SnapshotRefused("its body does not match its digest")
    if snapshot.chain != chain or snapshot.seq != len(records):
        raise SnapshotRefused(f"it does not belong to the stored history at version {snapshot.seq}")
    try:
        rules = type(match.ruleset).__module__.rpartition(".")[0] + "."  # the ruleset's own package
        summary, checkpoint = _Unpickler(io.BytesIO(snapshot.body), _objects(match.state), (_CORE, rules)).load()
    except Exception as exc:  # any failure to read it back is a snapshot that does not check out
        raise SnapshotRefused(f"it does not read back ({type(exc).__name__}: {exc})") from None
    if not isinstance(checkpoint, Checkpoint) or not isinstance(summary, str):
        raise SnapshotRefused("it does not hold a checkpoint")
    try:
        match.resume(checkpoint, records)
        problems = match.ruleset.invariants(match.state)
        same = summary_digest(match) == summary
    except Exception as exc:
        raise SnapshotRefused(f"its state does not read as this ruleset's ({type(exc).__name__}: {exc})") from None
    if problems or not same:
        raise SnapshotRefused("its state does not read back as the one it was taken from")


def _walk(root: object) -> Iterator[tuple[tuple[object, ...], object]]:
    """Every container and data class object below ``root`` with its path (fields, keys and indices), depth first
    in a fixed order, each object once."""
    seen: set[int] = set()
    stack: list[tuple[tuple[object, ...], object]] = [((), root)]
    while stack:
        path, obj = stack.pop()
        if id(obj) in seen or isinstance(obj, str | bytes | int | float | bool | type(None)):
            continue
        seen.add(id(obj))
        yield path, obj
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            children: list[tuple[object, object]] = [
                (f.name, getattr(obj, f.name, None)) for f in dataclasses.fields(obj)
            ]
        elif isinstance(obj, dict):
            children = [(("v", i), v) for i, v in enumerate(obj.values())]
        elif isinstance(obj, list | tuple):
            children = list(enumerate(obj))
        else:
            continue
        stack.extend(((*path, key), child) for key, child in reversed(children))


def _paths(state: object) -> dict[int, tuple[object, ...]]:
    return {id(obj): path for path, obj in _walk(state)}


def _objects(state: object) -> dict[tuple[object, ...], object]:
    return {path: obj for path, obj in _walk(state)}


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: dict[int, tuple[object, ...]]) -> None:
        super().__init__(file, protocol=PROTOCOL)
        self._shared = shared

    def persistent_id(self, obj: object) -> tuple[object, ...] | None:
        return self._shared.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, objects: dict[tuple[object, ...], object], allowed: tuple[str, ...]) -> None:
        super().__init__(file)
        self._objects = objects
        self._allowed = allowed

    def persistent_load(self, pid: Any) -> object:
        return self._objects[tuple(pid)]

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _BUILTINS:
            return getattr(builtins, name)
        if module == "collections" and name in _COLLECTIONS:
            return getattr(collections, name)
        if module.startswith(self._allowed) and module != "affray.core.files":
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not name {module}.{name}")
