"""The check that a page script decides on codes, not on a ruleset's wording (tests/page_words.py): what it
catches and what it lets be, on small scripts."""

from __future__ import annotations

import pytest

from tests.page_words import js_literals, ruleset_prose, wording_matches

#: The page's warning decisions before the codes (board.js and table.js), and the ways the same could come back.
CAUGHT = [
    "export const provokes = (s) => (s.spec.notes || []).some((n) => /provokes an attack/i.test(n));",
    'const notes = xs.map((n) => plainHtml(n, "span", `note${/provokes an attack/i.test(n) ? " warn" : ""}`));',
    "const warn = (s) => s.spec.notes.some((n) => /\\bprovokes\\b/.test(n));",
    'const warn = (s) => s.spec.notes.some((n) => n.startsWith("provokes"));',
    'const warn = (s) => s.spec.notes.some((n) => n.includes("attack of opportunity"));',
    'const warn = (s) => s.spec.notes[0] === "never provokes (SC-21)";',
    'const re = new RegExp("provokes an attack", "i");',
    "if (note.match('tumbles')) warn();",
]
#: What the page does with codes, formats and its own text.
LET_BE = [
    'export const provokes = (s) => (s.spec.warnings || []).includes("provokes");',
    "export const warnsOf = (s, i, code) => s.spec.warnings?.[i] === code;",
    "const half = width / 2 / scale; // provokes an attack: a comment is no decision",
    "const n = Number(x) / 3; const t = `this path provokes an attack of opportunity`;",
    "if (/^\\d+$/.test(v)) n = 1; const m = text.match(/^ruleset:\\s*([a-z_]+)/m);",
    'if (token.startsWith("player:")) seat(); if (c.status === "dying") down();',
    'const title = "this path provokes an attack of opportunity";',
]


@pytest.mark.parametrize("script", CAUGHT)
def test_a_decision_on_a_ruleset_s_words_is_caught(script: str) -> None:
    assert len(wording_matches(script)) == 1, script


@pytest.mark.parametrize("script", LET_BE)
def test_codes_formats_and_the_page_s_own_text_are_let_be(script: str) -> None:
    assert wording_matches(script) == [], script


def test_the_scanner_reads_templates_comments_and_regexes() -> None:
    script = 'a = `x${ {k: 1}["k"] / 2 }y${`in${"s"}`}z`; // "no"\n/* "no" */ b = c / d / e; f = /g\\/h[/]/i;'
    found = [(lit.kind, lit.text) for lit in js_literals(script)]
    assert found == [
        ("template", "x"),
        ("string", "k"),
        ("template", "y"),
        ("template", "in"),
        ("string", "s"),
        ("template", ""),
        ("template", "z"),
        ("regex", "g\\/h[/]"),
    ]


def test_the_prose_holds_the_warning_words() -> None:
    """The wording the check compares with comes from the rulesets' source: Spellchrome's warning (SC-28) among it,
    docstrings aside."""
    words, pairs = ruleset_prose()
    assert {"provokes", "attack", "opportunity"} <= words
    assert ("provokes", "an") in pairs and ("attack", "of") in pairs
