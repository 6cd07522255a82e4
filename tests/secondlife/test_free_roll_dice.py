"""What the in-world HuD's five die buttons roll in a Free Form scene (WL-00, WL-02): the HuD ruleset's
``Plugin.buttons`` (rulesets/hud/buttons.py), each die (WL-01, WL-B1) with the character's modifier (WL-B2), from the
seat's view. The answer that carries them: test_protocol.py; the script that rolls them: test_hud_fights.py."""

from __future__ import annotations

import pytest

from affray.core.match import Match
from affray.core.plugin import plugin
from affray.rulesets.hud.buttons import notation
from tests.hud.helpers import combatant, hud_match


def dice(match: Match, actor: str) -> dict[str, str]:
    """The buttons' dice of ``actor`` as the GM's view shows it (the HuD hides nothing, WL-09)."""
    record = plugin("hud")
    assert record.buttons is not None
    return dict(record.buttons()(match.view("gm"), actor))


def test_wl_b2_each_button_s_die_with_the_character_s_modifier() -> None:
    """WL-01/WL-B1: Chance d11, the rest d13. WL-B2 with WL-03: Ilka holds her hunting bow (attack +1, defense +0,
    damage +1; no melee weapon in hand, so the bow strikes) in a light gambeson (attack penalty 0, injury +1); Hald
    his halberd (attack +1, defense +1, damage +3) in heavy plate (attack penalty 2, injury +4). Chance adds nothing
    (a stat only in pursuit, WL-22)."""
    m = hud_match("free_form", combatant("ilka", "ilka"), combatant("hald", "sergeant"), [], first="ilka")
    assert dice(m, "ilka") == {
        "chance": "1d11",
        "attack": "1d13+1",
        "defense": "1d13",
        "damage": "1d13+1",
        "injury": "1d13+1",
    }
    assert dice(m, "hald") == {
        "chance": "1d11",
        "attack": "1d13-1",
        "defense": "1d13+1",
        "damage": "1d13+3",
        "injury": "1d13+4",
    }
    assert dice(m, "nobody") == {}


def test_wl17_the_additional_action_penalty_is_on_every_roll_but_chance() -> None:
    """WL-17/WL-B11: a -2 additional-action penalty lowers Attack, Defense, Damage and Injury (scope ``all``), never
    Chance. Bors: arming sword (attack +1, defense +1, damage +0), round shield (defense +2), gambeson (injury +1)."""
    m = hud_match("free_form", combatant("bors", "bors"), combatant("hald", "sergeant"), [], first="bors")
    m.state.fighters["bors"].penalty = -2
    assert dice(m, "bors") == {
        "chance": "1d11",
        "attack": "1d13-1",
        "defense": "1d13+1",
        "damage": "1d13-2",
        "injury": "1d13-1",
    }


def test_wl_b1_zero_based_dice_read_one_lower() -> None:
    """WL-B1's option ``zero_based_dice``: each die reads 0..N-1, so each free roll is one lower, as the fight's."""
    m = hud_match(
        "free_form",
        combatant("bors", "bors"),
        combatant("hald", "sergeant"),
        [],
        options={"zero_based_dice": True},
        first="bors",
    )
    assert dice(m, "bors") == {
        "chance": "1d11-1",
        "attack": "1d13",
        "defense": "1d13+2",
        "damage": "1d13-1",
        "injury": "1d13",
    }


def test_wl_b2_bare_hands_and_no_armour_add_nothing() -> None:
    """WL-B2: no weapon in hand strikes bare-handed (nothing added), no armour penalises nothing."""
    a = combatant("a", name="A", endurance=10)
    m = hud_match("free_form", a, combatant("b", name="B", endurance=10), [], first="a")
    assert dice(m, "a") == {"chance": "1d11", "attack": "1d13", "defense": "1d13", "damage": "1d13", "injury": "1d13"}


@pytest.mark.parametrize("name", ["spellchrome", "warp", "witchhammer"])
def test_other_rulesets_name_no_button_dice(name: str) -> None:
    assert plugin(name).buttons is None


def test_notation_is_affray_roll_s() -> None:
    assert [notation(13, 2), notation(13, -1), notation(11, 0)] == ["1d13+2", "1d13-1", "1d11"]
