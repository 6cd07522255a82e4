"""A ruleset is one plug-in (docs/architecture.md): every part reachable from the record its folder exports, one
registry, rules loaded only on demand, and a toy ruleset registered through the same record."""

from __future__ import annotations

import subprocess
import sys

import pytest

import affray
from affray.ai.base import policy_names
from affray.core.plugin import Plugin, plugin, plugin_names, register, unregister
from tests.core.toy import PLUGIN as TOY

BUILTIN = ["hud", "spellchrome", "warp", "witchhammer"]


@pytest.mark.parametrize("name", BUILTIN)
def test_every_part_of_a_builtin_ruleset_is_reachable_from_its_record(name: str) -> None:
    record = plugin(name)
    assert record.name == name and record.ruleset().name == name and record.ruleset() is record.ruleset()
    assert {"heuristic", "steady"} <= set(record.policies()) and "random" in policy_names(name)
    assert record.hints is not None and callable(record.hints())
    assert record.duel is not None and record.duel().assumes
    assert record.checks is not None and record.checks()
    assert record.sheet is not None and record.sheet().ruleset == name
    assert record.builder is not None and callable(record.builder())
    package = __import__(f"affray.rulesets.{name}", fromlist=["PLUGIN"])
    assert package.PLUGIN is record


def test_a_fifth_ruleset_is_one_record_registered_without_touching_core() -> None:
    register(TOY)
    try:
        assert "toy" in plugin_names() and affray.get_ruleset("toy").name == "toy"
        assert policy_names("toy") == ["random"]
    finally:
        unregister("toy")
    assert "toy" not in plugin_names()


def test_an_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known rulesets: hud, spellchrome, warp, witchhammer"):
        plugin("nope")


def test_importing_core_or_the_package_loads_no_ruleset() -> None:
    code = (
        "import sys, affray, affray.core.match, affray.core.view;"
        "print(sorted(m for m in sys.modules if m.startswith('affray.rulesets.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_record_is_a_plugin() -> None:
    assert all(isinstance(plugin(n), Plugin) for n in BUILTIN)
