"""Reading and writing the files a user hands the program, with limits and clear refusals.

Every YAML or JSON file (content, scenarios, sheets, match logs, saves) is read through :func:`read_text`: a
regular file, at most ``limit`` bytes, UTF-8 text without NUL bytes. YAML is parsed by :func:`load_yaml`, which
refuses documents that expand past :data:`MAX_YAML_NODES` nodes (an alias bomb is a few hundred bytes
that expand to billions of nodes), nest deeper than :data:`MAX_YAML_DEPTH` levels, hold aliases that contain
themselves, hold a lone surrogate (``"\\ud800"``: an escape that names no character, which no UTF-8 file,
database or answer can hold), or hold a whole number outside 64 bits (:data:`MAX_YAML_INT`: ``9`` x 4,301 is past
what Python turns into a number from text at all, and a longer one than the database and numpy hold is no
sensible count of anything); a value its tag cannot hold (``2020-13-45``, ``!!int abc``) is refused with its line
too, never an exception. The same limits hold for scenario text sent to the table server. JSON files get the
surrogate check too (:func:`lone_surrogate`, also used on the server's request bodies). Output paths are checked by
:func:`check_output_path` before any work starts, so a long run is never thrown away at its end; files that hold
secrets are written owner-only by :func:`write_text`. Limits are documented in docs/content.md ("Limits").

Every refusal is a :class:`FileProblem` naming the file and what was expected.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import yaml

from affray.core.json import Json

MAX_YAML_BYTES = 512 * 1024
MAX_JSON_BYTES = 64 * 1024 * 1024
MAX_YAML_NODES = 50_000
MAX_YAML_DEPTH = 100
MAX_YAML_INT = 2**63 - 1  # a YAML whole number lies from -MAX_YAML_INT - 1 to MAX_YAML_INT (64 bits, signed)


class FileProblem(ValueError):
    """A file that cannot be used: ``path`` and ``reason`` (what was expected), as one sentence."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


def read_text(path: str | Path, limit: int) -> str:
    """The UTF-8 text of the regular file ``path`` (at most ``limit`` bytes), or a :class:`FileProblem`."""
    p = Path(path)
    try:
        if p.is_dir():
            raise FileProblem(p, "a file, but this is a folder")
        if not p.exists():
            raise FileProblem(p, "an existing file (there is no such file)")
        if not p.is_file():  # a FIFO or a device would block or never end
            raise FileProblem(p, "a regular file (this is a device, pipe or socket)")
        with p.open("rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise FileProblem(p, f"a readable file ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise FileProblem(p, f"a file of at most {limit // 1024} KiB (it is larger; see docs/content.md, Limits)")
    nul = raw.find(b"\0")
    if nul >= 0:
        raise FileProblem(p, f"a text file (it holds binary data: a NUL byte at offset {nul})")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileProblem(p, f"UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start} is not UTF-8)") from None


LONE_SURROGATE = "text that is Unicode (a \\ud800 to \\udfff escape alone names no character)"
_SURROGATE = re.compile("[\ud800-\udfff]")


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def may_escape_surrogate(json_text: str) -> bool:
    """Whether JSON text holds a ``\\uD800``-``\\uDFFF`` escape (a pair is a character, one alone is not): the
    cheap test before :func:`lone_surrogate` walks the parsed value."""
    return _SURROGATE_ESCAPE.search(json_text) is not None


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (a string decoded from UTF-8 never does; a JSON or YAML escape can)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def lone_surrogate(value: object) -> str | None:
    """Where a lone surrogate hides in a JSON-like value (a key or a string, at any depth): its path, such as
    ``action.text`` or ``sides[0]`` (``(top level)`` for the value itself), or None. Iterative, so any depth."""
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if has_surrogate(item):
                return where or "(top level)"
        elif isinstance(item, dict):
            for key, inner in item.items():
                name = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and has_surrogate(key):
                    return f"a key of {where or '(top level)'}"
                stack.append((inner, name))
        elif isinstance(item, list):
            stack.extend((inner, f"{where}[{i}]") for i, inner in enumerate(item))
    return None


class YamlLimitError(yaml.YAMLError):
    """A YAML document that expands past the node limit or holds a recursive alias."""

    def __init__(self, message: str, mark: object) -> None:
        super().__init__(message)
        self.problem = message
        self.problem_mark = mark


# libyaml's parser when present: ~4x faster
_Loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The safe loaders' own resolver: which tag a plain scalar gets (typed here: PyYAML's stubs leave it untyped).
_RESOLVE: Callable[[type[yaml.Node], str, tuple[bool, bool]], str] = yaml.resolver.Resolver().resolve
INT_TAG = "tag:yaml.org,2002:int"
_SCALAR = yaml.constructor.SafeConstructor()  # its construct_yaml_int reads a lone node
TOO_BIG = (
    f"whole numbers of 64 bits, from {-MAX_YAML_INT - 1:,} to {MAX_YAML_INT:,}; quote a longer run of "
    f"digits to make it text"
)


def _int_in_bounds(value: str) -> bool:
    """Whether the YAML 1.1 integer ``value`` (``9_000``, ``0x1F``, ``017``, ``0b101``, ``1:30``: the forms the safe
    loaders read) lies within :data:`MAX_YAML_INT`, found without turning a long run of digits into a number
    (Python refuses decimal text past 4,300 digits with an exception, and any length of hex is allowed)."""
    digits = value.replace("_", "").lstrip("+-")
    if len(digits) > 80:  # 64 binary digits and a prefix: no longer form of a 64-bit number exists
        return False
    try:
        number = yaml.constructor.SafeConstructor.construct_yaml_int(_SCALAR, yaml.ScalarNode(INT_TAG, value))
    except (ValueError, IndexError):
        return True  # not a number at all: the constructor's own refusal, with its line, comes in load_yaml
    return -MAX_YAML_INT - 1 <= number <= MAX_YAML_INT


def _check_events(text: str, max_nodes: int = MAX_YAML_NODES) -> None:
    """Count the document's values as if every alias were a copy, from the parser's events, before anything is
    built; refuse more than ``max_nodes``, deeper nesting than :data:`MAX_YAML_DEPTH`, an alias inside the
    collection it names (a recursive structure), or a lone surrogate in a value or key."""
    sizes: dict[str, int] = {}
    anchors: list[str | None] = [None]  # the open collections' anchors
    counts: list[int] = [0]  # and their sizes so far, aliases expanded
    for event in yaml.parse(text, Loader=_Loader):
        size = 0
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            anchors.append(event.anchor)
            counts.append(1)
            if len(anchors) > MAX_YAML_DEPTH:
                raise YamlLimitError(f"at most {MAX_YAML_DEPTH} levels of nesting", event.start_mark)
            continue
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, size = anchors.pop(), counts.pop()
            if anchor is not None:
                sizes[anchor] = size
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if has_surrogate(event.value):
                raise YamlLimitError(LONE_SURROGATE, event.start_mark)
            if len(event.value) > 17 and _tag(event) == INT_TAG and not _int_in_bounds(event.value):
                raise YamlLimitError(TOO_BIG, event.start_mark)  # 17 characters hold no number past 64 bits
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if any(open_anchor == event.anchor for open_anchor in anchors):
                raise YamlLimitError("an alias that contains itself (a recursive structure)", event.start_mark)
            size = sizes.get(event.anchor or "", 1)  # an undefined alias is the composer's error, with its line
        else:
            continue
        counts[-1] += size
        if counts[-1] > max_nodes or sum(counts) > max_nodes:
            raise YamlLimitError(f"at most {max_nodes:,} values once aliases are expanded", event.start_mark)


def _tag(event: yaml.ScalarEvent) -> str:
    """The tag the loader builds ``event``'s value with: its own, or the one a plain scalar resolves to."""
    if event.tag not in (None, "!"):
        return str(event.tag)
    return str(_RESOLVE(yaml.ScalarNode, event.value, event.implicit))


_BRACKETS = re.compile(r"[\[\]{}]")


def _flow_depth_ok(text: str) -> None:
    """Refuse deep ``[[[[...`` before PyYAML's scanner, which is slow in the nesting depth, sees them."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        depth += 1 if m[0] in "[{" else -1
        if depth > MAX_YAML_DEPTH:
            line = text.count("\n", 0, m.start()) + 1
            raise YamlLimitError(f"at most {MAX_YAML_DEPTH} levels of nesting (line {line})", None)


def load_yaml(text: str) -> object:
    """Parse one YAML document safely within the limits (raises ``yaml.YAMLError``, with a mark if it can)."""
    _flow_depth_ok(text)
    _check_events(text)
    try:
        return yaml.load(text, Loader=_Loader)  # a safe loader: libyaml's or the Python one
    except (ValueError, KeyError, TypeError, OverflowError) as exc:
        # A scalar its tag cannot hold (a date that does not exist, "!!int abc", "!!bool maybe"): the safe
        # constructors raise plain exceptions there, without the line, which the scalar's event gives.
        raise YamlLimitError(f"a value its type can hold ({_unreadable(exc)})", _unbuilt_mark(text)) from None


def _unreadable(exc: Exception) -> str:
    return f"no value called {exc}" if isinstance(exc, KeyError) else str(exc)


def _unbuilt_mark(text: str) -> object:
    """The mark of the first scalar of ``text`` that the safe constructor cannot build on its own (None: none
    found; only called once loading failed)."""
    constructor = yaml.constructor.SafeConstructor()
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.ScalarEvent):
            tag = _tag(event)
            build = constructor.yaml_constructors.get(tag)
            if build is None:
                continue
            try:
                build(constructor, yaml.ScalarNode(tag, event.value))
            except (ValueError, KeyError, TypeError, OverflowError, yaml.YAMLError):
                return event.start_mark
    return None


def load_json(path: str | Path, limit: int = MAX_JSON_BYTES) -> Json:
    """Read and parse a JSON file; a problem is a :class:`FileProblem` with the line."""
    text = read_text(path, limit)
    try:
        data: Json = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise FileProblem(path, f"valid JSON (it is not JSON at {where}: {exc.msg})") from None
    except RecursionError:
        raise FileProblem(path, "JSON nested at most a few hundred levels deep") from None
    found = lone_surrogate(data) if may_escape_surrogate(text) else None
    if found is not None:
        raise FileProblem(path, f"{LONE_SURROGATE}; found at {found}")
    return data


def check_output_path(path: str | Path, suffixes: Iterable[str], what: str) -> Path:
    """Refuse now an output path that cannot be written later: a wrong extension, a folder, a missing or
    unwritable folder. ``what`` names the option (``--log``) for the message. Returns the path."""
    p = Path(path)
    allowed = tuple(s.lower() for s in suffixes)
    if allowed and p.suffix.lower() not in allowed:
        raise FileProblem(p, f"{what} expects a {' or '.join(allowed)} file name (got '{p.suffix or 'no extension'}')")
    if p.is_dir():
        raise FileProblem(p, f"{what} expects a file name, but this is a folder")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise FileProblem(p, f"{what} expects a file in an existing folder (there is no folder {folder})")
    if not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise FileProblem(p, f"{what} expects a place this user may write (permission denied)")
    return p


def write_text(path: str | Path, text: str, *, private: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (never half a file).

    ``private``: owner-only permissions (0600) from the first byte, for files that hold secrets.
    """
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp{os.getpid()}")
    mode = 0o600 if private else 0o644
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        if private:
            os.chmod(tmp, mode)  # an existing temporary file keeps its old mode through O_CREAT
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
