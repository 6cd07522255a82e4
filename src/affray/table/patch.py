"""A seat's message as a patch of the one before it: the WebSocket's protocol 2 (docs/table.md, "Live updates").

After every change a seat used to be sent its whole message again (7-17 KB in a two-against-two grid fight), although
most of it had not changed: an action changes one combatant, the prompt and the log. Under protocol 2, the first message
is the whole one and every later push is ``{"patch": [...]}``, an RFC 6902 JSON Patch (of ``replace`` operations, RFC
6901 pointers) that turns the previous message into the new one. The contract: applying the patch to the previous
message gives *exactly* the message protocol 1 sends (tests/table/test_patch.py checks it on every push of whole fights
of every ruleset). A patch therefore never holds anything its seat's whole message would not.

How a message is cut (:data:`SPLIT`): each top-level field is a *unit*, but for the view, each of whose fields is
one, but for its ``combatants``, each of which is one. A unit that changed is sent whole; one that did not is not
sent. A split object whose fields are not the same ones, or a split list of another length, is sent whole. To know
what changed, a follower keeps only each unit's *fingerprint* (:data:`Units`), not the message (a few hundred bytes
a connection instead of 7-17 KB).

The fingerprint of a unit is its JSON text's length and Python's own 64-bit hash of it (SipHash, PEP 456): two texts
of one length that differ share it with a chance of 2**-64. Not a cryptographic digest on purpose: hashlib releases
the interpreter's lock for any text over 2 KB, and in a busy server getting it back cost far more than hashing
(BLAKE2b took 17% of the server's samples under load; docs/performance.md, "Patches"). A bytes object keeps its hash,
so a unit kept as text and sent to several seats is hashed once.

The parts of a message that several seats share and that are kept as JSON text (:mod:`affray.table.parts`: a view,
a legal list) come already cut (:class:`Cut`), so a push neither reads them back nor writes them again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson

from affray.core.json import Json
from affray.core.memo import Cache

# pointer -> which of its children are units of their own: "object" (each field), "list" (each item).
SPLIT: Mapping[str, str] = {"": "object", "/view": "object", "/view/combatants": "list"}
# A cut unit: a leaf's JSON text, a split object's field names (in order), a split list's length.
Unit = bytes | tuple[str, ...] | int
# A leaf's length and hash in one integer (at least 2**64: a split list's length is less); a split object's field
# names, each as a pointer token, joined by "/"; a split list's length. Never a tuple: a connection keeps its units'
# fingerprints until its table's next change, and a dict of integers and strings is one the cyclic collector never
# walks (CPython tracks a dict only once it holds a tracked object, as a tuple is), where a dict of tuples was six
# connections' thirty-odd objects an action for it to walk, young and then old (docs/performance.md, "Garbage
# collection and pings").
Fingerprint = int | str
Units = dict[str, Fingerprint]  # pointer -> fingerprint
_HASH_BITS = (1 << 64) - 1


class Cut:
    """A part of a message already cut into units at its place in the message (absolute pointers, in order): put in
    a message in place of the part's value, it is taken as is by :func:`cut`."""

    __slots__ = ("units",)

    def __init__(self, units: dict[str, Unit]) -> None:
        self.units = units


def dumps(value: object) -> bytes:
    """JSON text as ``json.dumps`` writes it but compact and about ten times faster (orjson); a value orjson refuses
    (an integer past 64 bits) falls back to the standard library. Every text a seat is pushed is written here."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # an integer past 64 bits (orjson.JSONEncodeError is a TypeError)
        return json.dumps(value, separators=(",", ":")).encode()


def _escape(key: str) -> str:
    """A field name as an RFC 6901 pointer token."""
    return key.replace("~", "~0").replace("/", "~1")


_KEPT_NAMES = 4096  # bounds both caches: a message's field names are the few its code writes, a view's the ruleset's
# split pointer (one of SPLIT's objects) -> field name -> the field's pointer
_CHILDREN: dict[str, Cache[str, str]] = {
    pointer: Cache(_KEPT_NAMES) for pointer, how in SPLIT.items() if how == "object"
}
_NAMES: Cache[tuple[str, ...], str] = Cache(_KEPT_NAMES)  # a split object's field names -> its fingerprint


def _child(pointer: str, key: str) -> str:
    """``pointer/key`` with ``key`` escaped, made once per split pointer and field name (every seat's every push asks
    for the same few dozen)."""
    children = _CHILDREN[pointer]
    found = children.get(key)
    return found if found is not None else children.keep(key, f"{pointer}/{_escape(key)}")


Written = dict[int, tuple[object, bytes]]  # id of a value -> (the value, kept alive, and its JSON text)


def cut(
    value: object, pointer: str = "", out: dict[str, Unit] | None = None, written: Written | None = None
) -> dict[str, Unit]:
    """The units of ``value``, found at ``pointer`` in a message, in order (a :class:`Cut` inside taken as is).

    ``written``: the texts of the dicts and lists written so far, by the object (:func:`affray.core.events.
    to_jsonable_shared` gives the seats' views the same objects for the parts they share): a unit that is one of them
    is not written again, and its text, being the same bytes object, is hashed once (:func:`fingerprint`). The values
    must not change while it is kept."""
    units: dict[str, Unit] = {} if out is None else out
    if isinstance(value, Cut):
        units.update(value.units)
        return units
    how = SPLIT.get(pointer)
    if how == "object" and isinstance(value, dict):
        units[pointer] = tuple(str(key) for key in value)
        for key, child in value.items():
            cut(child, _child(pointer, str(key)), units, written)
    elif how == "list" and isinstance(value, list):
        units[pointer] = len(value)
        for index, child in enumerate(value):
            cut(child, f"{pointer}/{index}", units, written)
    elif written is not None and (type(value) is dict or type(value) is list):
        hit = written.get(id(value))
        if hit is None or hit[0] is not value:
            hit = written[id(value)] = (value, dumps(value))
        units[pointer] = hit[1]
    else:
        units[pointer] = dumps(value)
    return units


def text(units: Mapping[str, Unit], pointer: str = "") -> bytes:
    """The JSON text of the value at ``pointer``, put together from its units."""
    unit = units[pointer]
    if isinstance(unit, bytes):
        return unit
    if isinstance(unit, int):
        return b"[" + b",".join(text(units, f"{pointer}/{index}") for index in range(unit)) + b"]"
    return b"{" + b",".join(dumps(key) + b":" + text(units, _child(pointer, key)) for key in unit) + b"}"


def fingerprint(unit: Unit) -> Fingerprint:
    """See :data:`Fingerprint`."""
    if isinstance(unit, bytes):
        return ((len(unit) + 1) << 64) | (hash(unit) & _HASH_BITS)
    if isinstance(unit, tuple):
        found = _NAMES.get(unit)
        return found if found is not None else _NAMES.keep(unit, "/".join(_escape(key) for key in unit))
    return unit


def whole(units: Mapping[str, Unit]) -> tuple[str, Units]:
    """The first message of a protocol-2 connection: the whole message's JSON text, and its units' fingerprints."""
    return text(units).decode(), {pointer: fingerprint(unit) for pointer, unit in units.items()}


def between(before: Units, units: Mapping[str, Unit]) -> tuple[str | None, Units]:
    """The push that turns the message whose fingerprints were ``before`` into the one cut into ``units``:
    ``{"patch": [...]}``'s JSON text (None when nothing changed), and the new message's fingerprints. Operations come
    in the message's order."""
    after: Units = {}
    ops: list[bytes] = []
    covered = "\0"  # the pointer (and "/") of the part last sent whole: its units inside are in it
    for pointer, unit in units.items():
        after[pointer] = mark = fingerprint(unit)
        if pointer.startswith(covered):
            continue
        old = before.get(pointer)
        if old == mark:
            continue
        if not isinstance(unit, bytes):  # a split part that is new, or has other fields or another length: whole
            covered = pointer + "/"
        # Always a replace: a field that is new, or gone, changes its object's fields, and the object is sent whole.
        ops.append(b'{"op":"replace","path":%s,"value":%s}' % (dumps(pointer), text(units, pointer)))
    if not ops:
        return None, after
    return (b'{"patch":[' + b",".join(ops) + b"]}").decode(), after


def apply(message: Json, patch: list[Json], *, copy: bool = True) -> Json:
    """``message`` with ``patch`` applied: what a protocol-2 client does with each push, here for tests and Python
    clients. A new value, ``message`` unchanged; with ``copy=False``, ``message`` itself changed (faster: a client
    that keeps only the newest message). Knows ``replace`` (which :func:`between` writes), ``add`` and ``remove``."""
    out: Any = json.loads(json.dumps(message)) if copy else message
    for op in patch:
        assert isinstance(op, dict)
        path = str(op["path"])
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]]
        if not tokens:
            out = op["value"]
            continue
        parent: Any = out
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
        if isinstance(parent, list):
            index = int(last)
            if op["op"] == "remove":
                del parent[index]
            elif op["op"] == "add":
                parent.insert(index, op["value"])
            else:
                parent[index] = op["value"]
        elif op["op"] == "remove":
            del parent[last]
        else:
            parent[last] = op["value"]
    result: Json = out
    return result
