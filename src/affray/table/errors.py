"""Refusals of the table server: a stable code, a sentence for a person, and the HTTP status it maps to.

The authority raises :class:`Refusal` for everything a caller can get wrong (a bad token, a stale version, an
action the ruleset refuses); ``web/`` turns it into ``{"code", "message"}`` with ``status``. Nothing changes when
a refusal is raised (DESIGN.md contract 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from affray.core.json import Json, JsonObject
from affray.core.words import split_rule_ids

#: HTTP statuses by the kind of refusal (the web layer uses them; the CLI prints the message).
BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, UNPROCESSABLE = 400, 401, 403, 404, 409, 422
UNAVAILABLE = 503

#: Ruleset and match codes that mean "the world moved on" rather than "this action is wrong".
CONFLICT_CODES = frozenset({"stale_version", "paused", "match_over", "table_ended"})


class Refusal(Exception):
    """A refused request: ``code`` (stable), ``message`` (a sentence), ``status`` (HTTP), ``problems``
    (for a bad scenario: ``[{"file", "field", "expected"}]``)."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = BAD_REQUEST,
        problems: Sequence[Mapping[str, str]] | None = None,
        reason: str = "",
        rules: Sequence[str] = (),
    ) -> None:
        message, cited = split_rule_ids(message)  # the sentence names no rule ID: it moves to ``rules``
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.problems = problems or []
        self.reason = reason
        #: the rule IDs the refusal rests on, beside the sentence (which names none)
        self.rules = list(dict.fromkeys((*rules, *cited)))

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"code": self.code, "message": self.message}
        if self.reason:
            out["reason"] = self.reason
        if self.rules:
            out["rules"] = list[Json](self.rules)
        if self.problems:
            out["problems"] = [dict[str, Json](problem) for problem in self.problems]
        return out


def refused_step(code: str, message: str, reason: str = "", rules: Sequence[str] = ()) -> Refusal:
    """The refusal for a step the match refused: 409 when the table moved on, 403 for another seat's actor,
    otherwise 422 with the ruleset's own code and sentence. ``reason``: the cause where one code has several
    (``stale_version``: ``moved_on``, ``acted_since``, ``taken_back``); ``rules``: the rule IDs it rests on."""
    if code in CONFLICT_CODES:
        return Refusal(code, message, CONFLICT, reason=reason, rules=rules)
    if code == "not_your_seat":
        return Refusal(code, message, FORBIDDEN, reason=reason, rules=rules)
    return Refusal(code, message, UNPROCESSABLE, reason=reason, rules=rules)
