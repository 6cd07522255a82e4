"""Bad input is refused with a stable code and one sentence, and changes nothing: not the state, not the
RNG, not the log (DESIGN.md, contract 2). Rules: WR-04, WR-08, WR-09, WR-15, WR-B7."""

from __future__ import annotations

from pathlib import Path

import pytest

import affray
from affray.core.content import ContentError, load_pack
from affray.core.rng import ScriptedRNG
from affray.rulesets.warp.content_model import WarpContent
from tests.warp.helpers import RULESET, attack, brawler, fighter, rejected, state, thug, warp_match


def duel() -> affray.Match:
    pc = fighter("a", experience=2, position=0, traits={"street_brawler": 3, "good_with_a_bat": 3})
    return warp_match([pc], [thug("b", position=1), thug("far", position=30)], [6] * 12)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (attack("b", trait="kung_fu"), "unknown_trait"),
        (attack("b", trait="watchful"), "unknown_trait"),
        (attack("b", trait="good_with_a_bat", weapon="unarmed"), "unsuitable_trait"),
        (attack("b", experience=-1), "bad_count"),
        (attack("b", experience=1.5), "bad_count"),
        (attack("b", experience=3), "not_enough_experience"),
        (attack("far"), "out_of_range"),
        (attack("a"), "bad_target"),
        (attack("nobody"), "bad_target"),
        (attack("b", weapon="bazooka"), "unknown_weapon"),
        (attack("b", mode="ranged"), "bad_mode"),
        (attack("b", maneuver="moonwalk"), "unknown_maneuver"),
        (attack("b", maneuver="snap_shot"), "bad_maneuver"),
        (attack("b", claim="they slipped"), "no_gm"),
        (attack("b", sparkle=True), "bad_field"),
        ({"type": "move", "pace": "teleport", "toward": "b"}, "bad_pace"),
        ({"type": "move", "pace": "walk"}, "bad_move"),
        ({"type": "move", "pace": "walk", "toward": "b"}, "bad_move"),
        ({"type": "intimidate", "target": "b", "trait": "nonsense"}, "unknown_trait"),
        ({"type": "take_cover"}, "no_cover"),
        ({"type": "break_free"}, "not_held"),
        ({"type": "pick_up", "weapon": "knife"}, "nothing_there"),
        ({"type": "wait"}, "not_allowed_now"),
        ({"type": "defend"}, "not_allowed_now"),
        ({"type": "fly"}, "not_allowed_now"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action: dict[str, object], code: str) -> None:
    """Each refusal has its stable code; the snapshot, the RNG index and the log are untouched."""
    m = duel()
    assert rejected(m, "a", action).code == code


def test_an_action_out_of_turn_is_refused() -> None:
    """WR-05: b cannot act on a's turn; the ruleset itself refuses too (not only the match)."""
    m = duel()
    assert rejected(m, "b", attack("a")).code == "not_your_turn"
    before, draws = RULESET.snapshot(m.state), m.rng.index
    result = RULESET.step(state(m), "b", attack("a"), m.rng)
    assert not result.ok and result.code == "not_your_turn"  # type: ignore[union-attr]
    assert RULESET.snapshot(m.state) == before and m.rng.index == draws


def test_defense_answers_are_checked_too() -> None:
    """WR-08, WR-04: a defender's answer with a negative experience count or an unknown trait is refused."""
    m = warp_match([brawler("a", experience=1)], [thug("b")], [6] * 10, {"initiative": "seating_gm_first"})
    assert m.act("b", attack("a")).ok
    assert m.pending().phase == "defend"  # type: ignore[union-attr]
    assert rejected(m, "a", {"type": "defend", "experience": -2}).code == "bad_count"
    assert rejected(m, "a", {"type": "defend", "trait": "lasers"}).code == "unknown_trait"
    assert rejected(m, "a", {"type": "defend", "dodge": "maybe"}).code == "bad_field"
    assert rejected(m, "a", attack("b")).code == "not_allowed_now"


def test_negative_trait_dice_in_content_fail_with_file_field_and_expectation(tmp_path: Path) -> None:
    """WR-01: a character with -1 dice in a trait is a content error naming the file, the field and
    what was expected."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: warp\ncharacters:\n  oops:\n    name: Oops\n    traits: {agile: -1}\n")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "ruleset: warp\ncontent: [bad.yaml]\nsides:\n"
        "  - name: a\n    combatants: [{id: x, use: oops}]\n"
        "  - name: b\n    combatants: [{id: y, use: thug}]\n"
    )
    with pytest.raises(ContentError) as err:
        affray.load_scenario(scenario)
    text = str(err.value)
    assert "bad.yaml" in text and "characters.oops.traits" in text and "1 to 10" in text


def test_unknown_trait_in_a_scenario_names_the_field(tmp_path: Path) -> None:
    """An unknown trait on an inline sheet is reported with the scenario file and the combatant's field."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "ruleset: warp\nsides:\n"
        "  - name: a\n    combatants: [{id: x, stats: {name: X, traits: {kung_fu: 3}}}]\n"
        "  - name: b\n    combatants: [{id: y, use: thug}]\n"
    )
    with pytest.raises(ContentError) as err:
        affray.load_scenario(scenario)
    assert "s.yaml" in str(err.value) and "sides[0].combatants[0]" in str(err.value) and "kung_fu" in str(err.value)


def test_broken_armour_and_weapon_rows_fail_clearly(tmp_path: Path) -> None:
    """WR-B1, WR-15: an armour rating that is neither dice, points nor bullet-proof, and an unknown range row."""
    bad = tmp_path / "gear.yaml"
    bad.write_text(
        "ruleset: warp\narmour:\n  foil: {name: tin foil, rating: lots}\nweapons:\n"
        "  spud: {name: spud gun, ranged: {factor: 1, row: orbital}}\n"
    )
    with pytest.raises(ContentError) as err:
        load_pack(WarpContent, "warp", [bad])
    text = str(err.value)
    assert "gear.yaml" in text and "armour.foil.rating" in text and "weapons.spud.ranged.row" in text


def test_scripted_dice_are_untouched_by_a_refusal() -> None:
    """Contract 2: after a refusal the next legal attack rolls the very first scripted dice."""
    m = warp_match([brawler("a")], [thug("b")], [6, 6, 6, 1, 1, 1])
    rejected(m, "a", attack("b", trait="kung_fu"))
    assert isinstance(m.rng, ScriptedRNG) and m.rng.index == 0
    assert m.act("a", attack("b")).ok and m.rng.index == 6
