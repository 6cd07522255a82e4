"""One layout for every ruleset (docs/architecture.md, "Adding a ruleset"): every part of a record loads through
its deferred module and reading the record imports no part."""

from __future__ import annotations

import importlib
import subprocess
import sys
from dataclasses import dataclass, fields
from pathlib import Path

import pytest
from pydantic import BaseModel

import affray
from affray.core.engine import FightersDefaults, Outcome
from affray.core.events import to_jsonable
from affray.core.plugin import Deferred, Plugin, deferred, plugin

EXAMPLES = Path(__file__).parents[2] / "examples"

BUILTIN = ["hud", "spellchrome", "warp", "witchhammer"]


@pytest.mark.parametrize("name", BUILTIN)
def test_every_loader_of_a_record_loads_its_part(name: str) -> None:
    """Each loader a built-in record names returns its part, so no deferred module is missing from a plugin.py's
    run-time list (mypy reads only the TYPE_CHECKING imports)."""
    record = plugin(name)
    loaded = {
        f.name: loader()
        for f in fields(Plugin)
        if not f.name.startswith("_") and callable(loader := getattr(record, f.name))
    }
    assert loaded["rules"].name == name
    assert {"rules", "policies", "hints", "duel", "checks", "sheet", "builder", "narrator", "adjuster"} <= set(loaded)
    assert all(part is not None for part in loaded.values())


def test_reading_the_records_imports_none_of_their_parts() -> None:
    code = (
        "import sys, affray; from affray.core.plugin import plugin;"
        "[plugin(n) for n in ('hud', 'spellchrome', 'warp', 'witchhammer')];"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.count('.') == 3 and '.rulesets.' in m))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['plugin', 'plugin', 'plugin', 'plugin']"


def test_a_deferred_module_imports_on_its_first_read_only() -> None:
    """Binding a deferred module imports nothing (a missing one is not noticed); the first read imports it."""
    missing, dice = deferred("affray.core", "no_such_module", "dice")
    assert isinstance(dice, Deferred) and repr(dice) == "<deferred module affray.core.dice>"
    from affray.core.dice import roll_die

    assert dice.roll_die is roll_die
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        missing.anything  # noqa: B018


def test_deferred_modules_need_their_package() -> None:
    with pytest.raises(ValueError, match="needs the package its modules are in"):
        deferred(None, "odds")


# -- the engine's defaults for the members every ruleset wrote alike (core/engine.py) ---------------------------------


@dataclass(slots=True)
class _Fighter:
    name: str
    side: str


@dataclass(slots=True)
class _State:
    fighters: dict[str, _Fighter]
    round: int = 0
    outcome: Outcome | None = None


class _Rules(FightersDefaults[_State, dict[str, str]]):
    name = "tiny"
    content_type = BaseModel


def test_the_defaults_read_names_sides_rounds_outcome_and_snapshot_from_the_state() -> None:
    state = _State({"x": _Fighter("Xena", "Red"), "y": _Fighter("Yuri", "Blue")}, 3, Outcome("Red", "defeated"))
    rules = _Rules()
    assert rules.names(state) == {"x": "Xena", "y": "Yuri"}
    assert rules.sides(state) == {"x": "Red", "y": "Blue"}
    assert rules.rounds(state) == 3
    assert rules.outcome(state) == Outcome("Red", "defeated")
    assert rules.snapshot(state) == {
        "fighters": {"x": {"name": "Xena", "side": "Red"}, "y": {"name": "Yuri", "side": "Blue"}},
        "round": 3,
        "outcome": {"winner": "Red", "reason": "defeated", "details": {}},
    }


def test_a_ruleset_without_content_files_has_an_empty_library_of_its_own() -> None:
    first, second = _Rules().content(), _Rules().content()
    assert first.ruleset == "tiny" and first.sections == {} and first is not second  # fresh: a library is mutable


@pytest.mark.parametrize("name", BUILTIN)
def test_a_builtin_ruleset_s_content_is_its_folder_s_loaded_once(name: str) -> None:
    rules = plugin(name).ruleset()
    builtin = importlib.import_module(f"affray.rulesets.{name}.ruleset").builtin_content
    assert rules.content() is rules.content() is builtin()
    assert rules.content().ruleset == name and rules.content().sections


def test_the_hud_snapshot_is_its_fields_as_json_as_before() -> None:
    """The HuD wrote its snapshot field by field; the default (the state as JSON) gives the same object."""
    scenario = affray.load_scenario(EXAMPLES / "hud" / "nerdified_duel.yaml")
    state = scenario.start(seed=7).state
    assert scenario.ruleset.snapshot(state) == {f.name: to_jsonable(getattr(state, f.name)) for f in fields(state)}
