"""Where a page script decides on a ruleset's wording (tests/test_layers.py).

The page decides on codes (a listed action's ``warnings``, a view's fields), never on the sentences a ruleset writes
for people: a sentence may be reworded, translated or shortened at any time, and a page that matched it would stop
warning without a sound. :func:`wording_matches` finds, in a page script's text, the literals that match such words:

- a regular-expression literal (``/provokes an attack/i``) holding a word of the rulesets' prose: a pattern is how
  text is matched (codes are compared whole), so one word is enough;
- a string given to a method that searches text (``startsWith``, ``endsWith``, ``search``, ``match``, ``replace``,
  ``split``, ``new RegExp``) that is a word of the prose or holds two of its words in a row;
- a string given to a method or operator that also compares codes (``includes``, ``indexOf``, ``===``...) that holds
  two words of the prose in a row: one word there is a code's form (``warnings.includes("provokes")``), a phrase is
  wording.

The rulesets' prose (:func:`ruleset_prose`) is every string literal with a space in ``src/affray/rulesets`` other than
a docstring: the notes, labels, narration and messages they write (a warning's ``provokes an attack of opportunity
from ...`` among them). The scanner (:func:`js_literals`) reads strings, template literals with their ``${...}``
expressions, comments and regular-expression literals (told from a division by what precedes the slash).
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULESETS = Path(__file__).parents[1] / "src" / "affray" / "rulesets"
#: What may stand before a regular-expression literal's slash (else the slash divides); and the keywords that may.
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^")
_REGEX_KEYWORDS = ("return", "typeof", "case", "of", "in", "void", "delete", "yield", "await")
_TEXT_SEARCH = re.compile(
    r"(?:\.(?:startsWith|endsWith|search|match|matchAll|replace|replaceAll|split)|"
    r"\bRegExp)\(\s*$"
)
_CODE_COMPARE = re.compile(r"(?:\.(?:includes|indexOf|lastIndexOf)\(|[!=]==?)\s*$")
_COMPARED_AFTER = re.compile(r"^\s*[!=]==?")


@dataclass(frozen=True, slots=True)
class Literal:
    """A literal of a script: ``kind`` is ``string``, ``template`` (a template literal's text between its
    expressions) or ``regex`` (the pattern, without slashes and flags); ``start``/``end`` its place in the text."""

    kind: str
    text: str
    start: int
    end: int


def _skip_string(text: str, i: int) -> int:
    """The index after the string literal opening at ``i``."""
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _skip_regex(text: str, i: int) -> int:
    """The index after the regular-expression literal opening at ``i`` (its flags included)."""
    i += 1
    in_class = False
    while i < len(text) and (in_class or text[i] != "/"):
        if text[i] == "\\":
            i += 1
        elif text[i] == "[":
            in_class = True
        elif text[i] == "]":
            in_class = False
        i += 1
    i += 1
    while i < len(text) and text[i].isalpha():
        i += 1
    return i


def _regex_may_start(text: str, i: int, last: str) -> bool:
    """Whether a slash at ``i`` opens a regular expression: after an operator or punctuation (``last``, the code's
    last character before it), at the start, or after a keyword such as ``return``."""
    if last == "" or last in _BEFORE_REGEX:
        return True
    word = re.search(r"([A-Za-z_$][\w$]*)\s*$", text[:i])
    return word is not None and word.group(1) in _REGEX_KEYWORDS and last.isalpha()


def js_literals(text: str) -> Iterator[Literal]:
    """Every string, template text and regular-expression literal of the script ``text``, in order; comments are
    skipped. ``depths`` holds, per template whose ``${...}`` is open, the braces opened inside it since."""
    i, last = 0, ""
    depths: list[int] = []
    while i < len(text):
        c, nxt = text[i], text[i + 1 : i + 2]
        if c == "/" and nxt == "/":
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
        elif c == "/" and nxt == "*":
            i = text.find("*/", i + 2)
            i = len(text) if i < 0 else i + 2
        elif c in "\"'":
            end = _skip_string(text, i)
            yield Literal("string", text[i + 1 : end - 1], i, end)
            i, last = end, "a"
        elif c == "`" or (c == "}" and depths and depths[-1] == 0):
            if c == "}":
                depths.pop()
            found: list[Literal] = []
            i = _template(text, i + 1, depths, found)
            last = "{" if text[i - 2 : i] == "${" else "a"  # an expression opens: code, where a regex may start
            yield from found
        elif c == "/" and _regex_may_start(text, i, last):
            end = _skip_regex(text, i)
            yield Literal("regex", text[i + 1 : text.rindex("/", i + 1, end)], i, end)
            i, last = end, "a"
        else:
            if depths and c in "{}":
                depths[-1] += 1 if c == "{" else -1
            if not c.isspace():
                last = c
            i += 1


def _template(text: str, i: int, depths: list[int], found: list[Literal]) -> int:
    """Read a template literal's text from ``i`` to its closing backtick or its next ``${`` (then opening an
    expression in ``depths``); put the text in ``found`` and return where the code goes on."""
    start = i
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "`":
            found.append(Literal("template", text[start:i], start, i + 1))
            return i + 1
        if text.startswith("${", i):
            found.append(Literal("template", text[start:i], start, i + 2))
            depths.append(0)
            return i + 2
        i += 1
    found.append(Literal("template", text[start:], start, len(text)))
    return len(text)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


@cache
def ruleset_prose() -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """The words (three letters or more) and the pairs of words in a row of every string literal with a space in
    ``src/affray/rulesets``, docstrings aside: the rulesets' wording for people."""
    words: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for path in sorted(RULESETS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
                and " " in node.value.strip()
            ):
                found = _words(node.value)
                words |= {w for w in found if len(w) >= 3}
                pairs |= set(itertools.pairwise(found))
    return frozenset(words), frozenset(pairs)


def _is_phrase(text: str) -> bool:
    found = _words(text)
    return any(pair in ruleset_prose()[1] for pair in itertools.pairwise(found))


def _is_word(text: str) -> bool:
    return text.isalpha() and text.lower() in ruleset_prose()[0]


def wording_matches(text: str) -> list[str]:
    """Where the script ``text`` matches a ruleset's wording (see the module docstring): ``line N: literal`` each."""
    out = []
    for lit in js_literals(text):
        if lit.kind == "regex":
            plain = re.sub(r"\\[A-Za-z]", " ", lit.text)  # \b, \s, \d, \p...: escapes, not words
            hit = any(w in ruleset_prose()[0] for w in re.findall(r"[a-z]{3,}", plain.lower()))
        elif lit.kind == "string":
            before, after = text[max(0, lit.start - 40) : lit.start], text[lit.end : lit.end + 8]
            if _TEXT_SEARCH.search(before):
                hit = _is_word(lit.text) or _is_phrase(lit.text)
            else:
                hit = bool(_CODE_COMPARE.search(before) or _COMPARED_AFTER.match(after)) and _is_phrase(lit.text)
        else:
            hit = False
        if hit:
            out.append(f"line {text.count(chr(10), 0, lit.start) + 1}: {text[lit.start : lit.end]}")
    return out
