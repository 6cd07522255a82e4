"""Spellchrome content and scenario files: the built-in packs, HP and saves from them (SC-01, SC-14,
SC-B8), and broken files failing with the file, the field and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

import affray
from affray.core.content import ContentError, load_pack
from affray.core.plugin import get_ruleset
from affray.rulesets.spellchrome.content_model import SpellchromeContent
from affray.rulesets.spellchrome.mechanics import save_progression

from .support import build, fighter, who

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "spellchrome").glob("*.yaml"))


def test_builtin_content_has_what_the_issue_asks_for() -> None:
    """SC-14, SC-27, 4c: six signs, the three named feats and spells, 3+ characters and 4+ monsters."""
    lib = get_ruleset("spellchrome").content()
    assert set(lib.sections["signs"]) == {"armoes", "burgon", "calmen", "danar", "etherami", "feylore"}
    assert {"toughness", "guarded_unarmed_attack", "guarded_ranged_attack"} <= set(lib.sections["feats"])
    assert {"swift_healing", "precise_healing", "steal_life"} <= set(lib.sections["spells"])
    assert len(lib.sections["characters"]) >= 3 and len(lib.sections["monsters"]) >= 4
    assert any(a.ex_hp and a.ex_hp_refill_per_hour for a in lib.sections["armour"].values())


def test_sc14_armoes_follows_the_public_table_and_every_sign_has_good_middling_poor() -> None:
    """SC-14: Armoes +2/+0/+0, +3/+1/+0, +3/+1/+1 … +12/+9/+6; each sign a permutation of the three."""
    signs = get_ruleset("spellchrome").content().sections["signs"]
    armoes = signs["armoes"].saves
    assert [armoes[i] for i in (0, 1, 2, 19)] == [(2, 0, 0), (3, 1, 0), (3, 1, 1), (12, 9, 6)]
    shapes = set()
    for sign in signs.values():
        assert sorted(sign.saves[19]) == [6, 9, 12]
        for level in range(1, 21):
            assert sorted(sign.saves[level - 1]) == sorted(
                save_progression(k, level) for k in ("good", "middling", "poor")
            )
        shapes.add(tuple(sign.saves[19]))
    assert len(shapes) == 6


def test_sc01_sc_b8_max_hp_from_sign_level_con_and_toughness() -> None:
    """SC-01/SC-B8: Armoes gains 7 a level (the seed's 14 → 21 from level 2 to 3); Toughness adds 3 once."""
    sides = {
        "l": [
            fighter("two", (0, 0), use="oriel", level=2, abilities={"constitution": 10}, feats=[]),
            fighter("three", (1, 0), use="oriel", abilities={"constitution": 10}, feats=[]),
            fighter("tough", (2, 0), use="oriel", abilities={"constitution": 10}),
        ],
        "r": [fighter("b", (5, 2))],
    }
    match = build("......\n......\n......", sides)
    assert [who(match, c).max_hp for c in ("two", "three", "tough")] == [14, 21, 24]
    assert who(match, "three").saves == (3, 1, 1)


def test_every_example_loads(tmp_path: Path) -> None:
    assert len(EXAMPLES) >= 3
    for path in EXAMPLES:
        scenario = affray.load_scenario(path)
        assert scenario.setup["map"] and len(scenario.setup["combatants"]) >= 2


@pytest.mark.parametrize(
    ("text", "field", "expected"),
    [
        ("weapons:\n  bad: {name: Bad, kind: melee, damage: 1x8}\n", "weapons.bad.damage", "not dice notation"),
        ("signs:\n  odd: {name: Odd, hp_per_level: 5, saves: [[1, 0, 0]]}\n", "signs.odd.saves", "exactly 20 rows"),
        ("armour:\n  a: {name: A, deflection: 40}\n", "armour.a.deflection", "less than or equal to 15"),
        (
            "spells:\n  s: {name: S, effect: heal, casting: standard, range_squares: 1, dice: 1d8, save: will}\n",
            "spells.s",
            "needs a dc",
        ),
        ("monsters:\n  m: {name: M, max_hp: 5}\n", "monsters.m", "Ancient Sign"),
        ("weapons:\n  bow: {name: Bow, kind: ranged, damage: 1d6}\n", "weapons.bow", "range_increment_ft"),
    ],
)
def test_broken_content_names_file_field_and_expectation(tmp_path: Path, text: str, field: str, expected: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: spellchrome\n" + text, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_pack(SpellchromeContent, "spellchrome", [bad])
    message = str(err.value)
    assert str(bad) in message and field in message and expected in message


SCENARIO = """ruleset: spellchrome
map: |
  .....
  .#...
sides:
  - name: l
    combatants:
      - {{id: a, use: oriel, position: {a}}}
  - name: r
    combatants:
      - {{id: b, use: {b_use}, position: [4, 1]}}
"""


@pytest.mark.parametrize(
    ("a_pos", "b_use", "field", "expected"),
    [
        ("[9, 0]", "cutthroat", "sides[0].combatants[0].position", "inside the 5×2 map"),
        ("[1, 1]", "cutthroat", "sides[0].combatants[0].position", "not a wall"),
        ("[4, 1]", "cutthroat", "sides[1].combatants[0].position", "a square of its own"),
        ("[0, 0]", "nobody", "sides[1].combatants[0].use", "no monsters called 'nobody'"),
    ],
)
def test_broken_scenarios_name_the_field(tmp_path: Path, a_pos: str, b_use: str, field: str, expected: str) -> None:
    """SC-24: nobody starts in a wall, off the map, or in another's square."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(a=a_pos, b_use=b_use), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        affray.load_scenario(path)
    assert field in str(err.value) and expected in str(err.value)


def test_a_bad_map_character_is_named(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(a="[0, 0]", b_use="cutthroat").replace(".#...", ".#.x."), encoding="utf-8")
    with pytest.raises(ContentError, match=r"map: .*row 1, column 3: 'x'"):
        affray.load_scenario(path)
