"""The rule IDs a sentence cites, kept out of the words a person reads.

Rules code cites the rules it follows ("(SC-24)", "(WL-04, WL-08)", "ruling WR-X2") in its docstrings and, for
years of habit, in the sentences it writes. A sentence a player or the GM reads names things in the table's words;
the IDs belong in the help text and in a machine field beside the sentence (a refusal's ``rules``:
:class:`affray.core.engine.Rejected`). :func:`split_rule_ids` takes a sentence apart into the two.
"""

from __future__ import annotations

import re

# One ID as the specifications write them: SC-24, WL-B13, WR-X2, SC-R11, "SC-27 (e)"; "ruling"/"rule" before it
# belongs to it.
_ID = r"(?:(?:ruling|rule|rules)\s+)?\b(?:SC|WR|WH|WL)-[A-Z]?\d+(?:\s*\([a-e]\))?"
#: Any rule ID of the four rulesets (what a test scans every sentence for).
RULE_ID = re.compile(r"\b(?:SC|WR|WH|WL)-[A-Z]?\d+")
_FIND = re.compile(_ID)
# A run of IDs with their separators: "WL-04, WL-08", "WH-23 and WH-B23", "WR-24..WR-26".
_RUN = rf"{_ID}(?:\s*(?:,|and|\.\.|/|;)\s*{_ID})*"
# A parenthesis holding only IDs: "(SC-21, SC-23)", "(ruling SC-R11)".
_ONLY = re.compile(rf"\s*\(\s*{_RUN}\s*\)")
# IDs at the end of a parenthesis after words: "(down, WL-04, WL-08)", "(...: WR-09)".
_TAIL = re.compile(rf"\s*[,:;]\s*{_RUN}\s*(?=\))")
# IDs at the start of a parenthesis before words: "(SC-21: a step goes...)", "(death, WR-26)" is a tail.
_HEAD = re.compile(rf"(?<=\()\s*{_RUN}\s*[,:;]\s*")
# What is left anywhere else: "see WR-31", "per SC-24".
_BARE = re.compile(rf"\s*(?:\b(?:see|per|under)\s+)?{_RUN}")


def rule_ids(text: str) -> tuple[str, ...]:
    """The rule IDs ``text`` cites, in order, each once ("SC-21", "WL-B13")."""
    return tuple(dict.fromkeys(m.group(0) for m in RULE_ID.finditer(text)))


def without_rule_ids(text: str) -> str:
    """``text`` with its rule IDs and the punctuation that only held them taken out:
    "A step goes to one of the eight squares around (SC-21, SC-23)." -> "... squares around."."""
    if RULE_ID.search(text) is None:
        return text
    out = _ONLY.sub("", text)
    out = _TAIL.sub("", out)
    out = _HEAD.sub("", out)
    out = _BARE.sub("", out)
    out = re.sub(r"\(\s*\)", "", out)
    out = re.sub(r"\s+([.,;:!?)])", r"\1", out)
    return re.sub(r"\s{2,}", " ", out).strip()


def split_rule_ids(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` without its rule IDs, and the IDs it cited."""
    ids = rule_ids(text)
    return (without_rule_ids(text), ids) if ids else (text, ())
