"""Content and scenarios as data (DESIGN.md contract 7): broken files name the file, field and expectation."""

from __future__ import annotations

from pathlib import Path

import pytest

import affray
from affray.core.content import ContentError, load_pack
from affray.core.options import OptionError, describe, options_to_dict, parse_options
from affray.rulesets.hud.content_model import HudContent
from affray.rulesets.hud.options import HudOptions


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_bad_field_names_file_field_and_expectation(tmp_path: Path) -> None:
    path = write(tmp_path, "w.yaml", "ruleset: hud\nweapons:\n  axe: {name: Axe, hands: 3}\n")
    with pytest.raises(ContentError) as err:
        load_pack(HudContent, "hud", [path])
    assert str(err.value).startswith(f"{path}: weapons.axe.hands: ")
    assert "(got 3)" in str(err.value)


def test_missing_and_unknown_fields(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "ruleset: hud\ncharacters:\n  x: {name: X, endurace: 5}\n")
    with pytest.raises(ContentError) as err:
        load_pack(HudContent, "hud", [path])
    fields = {p.field for p in err.value.problems}
    assert fields == {"characters.x.endurance", "characters.x.endurace"}


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "ruleset: hud\nweapons: [\n")
    with pytest.raises(ContentError, match=r"bad.yaml: line \d+: valid YAML"):
        load_pack(HudContent, "hud", [path])


def test_duplicate_ids_name_both_files(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "ruleset: hud\narmour:\n  tin: {name: Tin, weight: light}\n")
    write(tmp_path, "b.yaml", "ruleset: hud\narmour:\n  tin: {name: Tin2, weight: heavy}\n")
    with pytest.raises(ContentError, match=r"b.yaml: armour.tin: a unique id \(already defined in .*a.yaml\)"):
        load_pack(HudContent, "hud", [tmp_path])


def test_scenario_errors_carry_the_field_path(tmp_path: Path) -> None:
    text = (
        "ruleset: hud\nsides:\n  - name: a\n    combatants: [{id: x, use: vesna}]\n"
        "  - name: b\n    combatants: [{id: y, use: nobody}]\n"
    )
    with pytest.raises(ContentError, match=r"sides\[1\].combatants\[0\].use: no characters called 'nobody'"):
        affray.load_scenario(write(tmp_path, "s.yaml", text))
    text2 = text.replace("use: nobody", "use: vesna, controller: wizard")
    with pytest.raises(ContentError, match=r"sides\[1\].combatants\[0\].controller: one of heuristic, human, random"):
        affray.load_scenario(write(tmp_path, "s2.yaml", text2))
    text3 = text.replace("use: nobody", "use: vesna") + "options: {riposte_margin: high}\n"
    with pytest.raises(ContentError, match="options: option 'riposte_margin' expects a whole number"):
        affray.load_scenario(write(tmp_path, "s3.yaml", text3))
    with pytest.raises(ContentError, match="ruleset: unknown ruleset 'chess'"):
        affray.load_scenario(write(tmp_path, "s4.yaml", "ruleset: chess\n"))


def test_options_are_named_with_rule_ids_and_defaults() -> None:
    """Contract 8: every ruling is a named option with its documented default."""
    infos = {i.name: i for i in describe(HudOptions)}
    assert infos["riposte_margin"].default == 6 and infos["riposte_margin"].rule == "WL-B3"
    assert all(i.rule and i.doc for i in infos.values())
    options = parse_options(HudOptions, {"riposte_margin": 5})
    assert options.riposte_margin == 5 and options_to_dict(options)["charge_bonus_to"] == "damage"
    with pytest.raises(OptionError, match="unknown option"):
        parse_options(HudOptions, {"ripost_margin": 5})
    with pytest.raises(OptionError, match="must be one of"):
        parse_options(HudOptions, {"action_order": "random"})
