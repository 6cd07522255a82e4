"""Single checks are declarations (``core/checks.py``): every ruleset's record names typed ``Check`` records, and
running one checks the values against the declaration before the check's own sentences (``odds/checks.py``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from affray.core.checks import BadParameters, Check
from affray.core.plugin import plugin
from affray.odds.checks import params_of, result_json, run_check

BUILTIN = {
    "hud": ["exchange", "simplified-hit"],
    "spellchrome": ["attack", "save", "dying"],
    "warp": ["attack"],
    "witchhammer": ["attack", "save"],
}


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_every_ruleset_declares_its_checks_with_typed_parameters(name: str) -> None:
    loader = plugin(name).checks
    assert loader is not None
    declared = loader()
    assert list(declared) == BUILTIN[name]
    for key, check in declared.items():
        assert isinstance(check, Check) and check.name == key and check.help.endswith(".") and check.rules
        assert all(f.kind in ("integer", "boolean", "string", "choice") for f in check.params)
        assert all(
            f.required or f.kind == "boolean" or f.default is not None or f.name.startswith(("target", "hp"))
            for f in check.params
        )


def test_run_check_answers_with_the_declared_defaults() -> None:
    """WL-11/WL-12: plain d13 against d13, ties to the defender: a hit 78/169, a riposte 28/169 (docs/odds.md)."""
    exchange = plugin("hud").checks()["exchange"]  # type: ignore[misc]
    result = run_check(exchange, {})
    assert result.probabilities == {"p_hit": Fraction(78, 169), "p_riposte": Fraction(28, 169)}
    shown: Any = result_json(result)  # JSON of a known shape
    assert shown["means"]["hp_loss"]["exact"] == "168/169"
    assert params_of(exchange, {"attack_mod": 1})["riposte_margin"] == 6


@pytest.mark.parametrize(
    ("ruleset", "check", "given", "sentence"),
    [
        ("hud", "exchange", {"parry": 1}, "exchange takes no parry."),
        ("witchhammer", "save", {"difficulty": 10}, "--bonus is required."),
        ("witchhammer", "save", {"bonus": "2", "difficulty": 10}, "--bonus is '2', not an integer."),
        (
            "witchhammer",
            "attack",
            {"attack": 5, "defense": 3, "crit_wound": "x"},
            "--crit-wound is 'always' or 'on_hit' (WH-B4).",
        ),
        ("spellchrome", "dying", {"hp": 0, "fort": 1}, "--hp is the HP of a dying character: −1 to −29 (SC-04)."),
    ],
)
def test_a_bad_value_is_refused_with_one_sentence(
    ruleset: str, check: str, given: dict[str, object], sentence: str
) -> None:
    """Rules: WH-B4, SC-04 (the checks' own sentences come before the generic ones)."""
    declared = plugin(ruleset).checks()  # type: ignore[misc]
    with pytest.raises(BadParameters) as refused:
        run_check(declared[check], given)
    assert str(refused.value) == sentence
