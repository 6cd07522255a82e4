"""Running a declared single check (:class:`~affray.core.checks.Check`) and its answer as JSON.

:func:`run_check` takes the values given (by field name; absent ones take their defaults), checks them against the
declaration (known names, required ones, types), then the check's own ``validate``, then the declared choices and
bounds, then runs it. Every refusal is :class:`~affray.core.checks.BadParameters` with one sentence.
:func:`result_json` is the documented JSON shape of ``affray odds RULESET CHECK --json`` (docs/odds.md): each
probability as ``{"exact", "value"}``, each distribution as rows, and ``means: {name: {exact, value}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from affray.core.actions import Field
from affray.core.checks import BadParameters, Check, CheckResult, flag
from affray.core.json import JsonObject
from affray.odds.dist import as_json, mean, prob_json

_TYPES: dict[str, type | tuple[type, ...]] = {
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "string": str,
    "choice": (str, int),
}


def params_of(check: Check, given: Mapping[str, object]) -> dict[str, object]:
    """Every parameter of ``check``: the values given, the defaults for the rest; a sentence for what is wrong."""
    unknown = sorted(set(given) - {f.name for f in check.params})
    if unknown:
        raise BadParameters(f"{check.name} takes no {', '.join(unknown)}.")
    values: dict[str, object] = {}
    for f in check.params:
        value = given.get(f.name, f.default)
        if value is None and f.required:
            raise BadParameters(f"{flag(f)} is required.")
        want = _TYPES.get(f.kind)
        if (
            value is not None
            and want is not None
            and (not isinstance(value, want) or (f.kind != "boolean" and isinstance(value, bool)))
        ):
            raise BadParameters(f"{flag(f)} is {value!r}, not a{'n' if f.kind[0] in 'aeiou' else ''} {f.kind}.")
        values[f.name] = value
    return values


def _in_bounds(f: Field, value: object) -> None:
    if value is None:
        return
    if f.kind == "choice" and value not in f.choices:
        raise BadParameters(f"{flag(f)} is one of {', '.join(map(str, f.choices))} (got {value!r}).")
    if not isinstance(value, int | float):  # bounds are a number's (params_of checked the kinds)
        return
    if f.minimum is not None and value < f.minimum:
        raise BadParameters(f"{flag(f)} is at least {f.minimum:g} (got {value}).")
    if f.maximum is not None and value > f.maximum:
        raise BadParameters(f"{flag(f)} is at most {f.maximum:g} (got {value}).")


def run_check(check: Check, given: Mapping[str, object]) -> CheckResult:
    """The answer of ``check`` for the values ``given`` (see the module docstring)."""
    params = params_of(check, given)
    check.validate(params)  # first: its sentences are the ones the rules' text gives
    for f in check.params:
        _in_bounds(f, params[f.name])
    return check.run(params)


def means(result: CheckResult) -> dict[str, Fraction]:
    """The mean of each distribution (expected damage, expected HP loss...)."""
    return {name: mean(dist) for name, dist in result.distributions.items()}


def result_json(result: CheckResult) -> JsonObject:
    """The answer in the documented JSON shape (see the module docstring)."""
    data: JsonObject = {k: prob_json(v) for k, v in result.probabilities.items()}
    data.update({k: as_json(v) for k, v in result.distributions.items()})
    data["means"] = {k: prob_json(v) for k, v in means(result).items()}
    return data
