"""Single checks, declared by the ruleset that answers them (``affray odds RULESET CHECK`` is built from these).

A :class:`Check` has a name, a one-line help (more in ``description``), the rule IDs it answers, its parameters as
typed :class:`~affray.core.actions.Field` s (integer, boolean, string or choice; bounds, a default or required,
help), a ``validate`` that refuses a bad combination with :class:`BadParameters` (one sentence that names the flag)
and a ``run`` that answers with a :class:`CheckResult`. A ruleset's ``odds.py`` exports its declarations as
``CHECKS`` and its plug-in record names them (``Plugin.checks``); that is why the declaration lives in core, which
imports nothing above it. Running a check (defaults, types, bounds, then ``validate`` and ``run``) and its JSON are
in :mod:`affray.odds.checks`.

A parameter ``attack_mod`` is the flag ``--attack-mod`` (:func:`flag`); sentences name it so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from affray.core.actions import Field

#: The values of a check's parameters, by field name (every declared field present, defaults filled in).
Params = Mapping[str, Any]


class BadParameters(ValueError):
    """Parameters that cannot be answered for (a bad combination, a value out of range): one sentence, naming the
    flag (``--target-health must be at least 1``). Sheet operations raise it too."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A check's answer: a title, the probabilities (``p_hit``...) and the distributions over the whole check
    (``damage``: a miss counts as 0), in the order they are shown."""

    title: str
    probabilities: Mapping[str, Fraction]
    distributions: Mapping[str, Mapping[int, Fraction]] = field(default_factory=dict)


def accept(params: Params) -> None:
    """The validation of a check whose fields' own types and bounds are all it needs."""


@dataclass(frozen=True, slots=True)
class Check:
    """One single check (see the module docstring). ``help`` is the first line of ``--help``; ``description`` the
    rest of it (it may be empty)."""

    name: str
    help: str
    rules: tuple[str, ...]
    params: tuple[Field, ...]
    run: Callable[[Params], CheckResult]
    validate: Callable[[Params], None] = accept
    description: str = ""


def flag(f: Field) -> str:
    """The command-line flag of a parameter: ``attack_mod`` is ``--attack-mod``."""
    return "--" + f.name.replace("_", "-")


def need(ok: bool, sentence: str) -> None:
    """Refuse a combination of parameters with a sentence (a check's ``validate`` is a list of these)."""
    if not ok:
        raise BadParameters(sentence)


def checks(*declared: Check) -> dict[str, Check]:
    """The ``CHECKS`` of a ruleset: its declarations by name, in the order given."""
    return {c.name: c for c in declared}
