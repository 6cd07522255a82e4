"""WaRP's choices in steps and in words (rulesets/warp/steps.py): an attack (WR-08..WR-11) by whom, then the weapon,
then the trait, a special maneuver (WR-30) or an experience die (WR-09); a defense by its trait's name, never its id
(the flat list read "defend with good_with_a_bat"); the odds of the seat's hints."""

from __future__ import annotations

from affray.core.steps import Step, find, leaves, problems
from tests.core.steps_at import labels, tree_at


def test_wr08_an_attack_is_whom_then_the_weapon_then_the_trait_or_maneuver() -> None:
    match, actor, tree = tree_at("warp/knight_duel", 1, "attack")
    assert actor == "theo" and problems(tree) == []
    assert labels(tree) == [
        ("Attack", "Attack Sir Reginald of Nowhere"),  # one foe: no step to choose him
        ("Move", "Move along the line"),
        ("Hold the action", "Hold the action to interrupt later"),  # WR-06, without its ID in the words
        ("Intimidate", "Intimidate Sir Reginald of Nowhere"),
        ("Do something else", "Do something else"),
    ]
    weapons = find(tree, "1")
    assert isinstance(weapons, Step) and weapons.prompt == "With which weapon?"
    assert [short for short, _ in labels(weapons)] == ["Baseball bat", "Baseball", "Bare hands"]
    how = find(tree, "1.1")
    assert isinstance(how, Step) and how.prompt == "With which trait, or which maneuver?"
    # hit odds and mean damage (WR-10, WR-11; a special maneuver halves damage, WR-30; an experience die, WR-09)
    assert labels(how) == [
        (
            "Good with a Baseball Bat",
            "Melee attack on Sir Reginald of Nowhere with the baseball bat (Good with a Baseball Bat) — hit 59% · avg "
            "5.4 if it defends with 3 dice, before armour",
        ),
        (
            "Strong as an Ox",
            "Melee attack on Sir Reginald of Nowhere with the baseball bat (Strong as an Ox) — hit 29% · avg 1.9 if "
            "it defends with 3 dice, before armour",
        ),
        ("Disarm", "Disarm on Sir Reginald of Nowhere — hit 59% · avg 2.7 if it defends with 3 dice, before armour"),
        (
            "Headlock",
            "Headlock on Sir Reginald of Nowhere — hit 59% · avg 2.7 if it defends with 3 dice, before armour",
        ),
        ("Tackle", "Tackle on Sir Reginald of Nowhere — hit 59% · avg 2.7 if it defends with 3 dice, before armour"),
        (
            "Spend experience die",
            "Plain attack on Sir Reginald of Nowhere, spending an experience die — hit 74% · avg 8.1 if it defends "
            "with 3 dice, before armour",
        ),
    ]
    assert find(tree, "1.1.3") == {
        "type": "attack",
        "target": "reginald",
        "weapon": "baseball_bat",
        "mode": "melee",
        "trait": "good_with_a_bat",
        "maneuver": "disarm",
    }
    assert sorted(map(repr, leaves(tree))) == sorted(repr(s.action) for s in match.legal(actor))


def test_wr11_a_defense_names_its_trait() -> None:
    _, actor, tree = tree_at("warp/knight_duel", 1, "defend")
    assert actor == "theo" and problems(tree) == []
    assert tree.prompt == "Defend with Good with a Baseball Bat: how?"
    assert labels(tree) == [
        ("Just defend", "Defend with Good with a Baseball Bat"),
        ("Spending 1 experience", "Defend with Good with a Baseball Bat, spending 1 experience"),
    ]
    assert [c.action for c in tree.choices] == [
        {"type": "defend", "trait": "good_with_a_bat", "dodge": True, "experience": 0},
        {"type": "defend", "trait": "good_with_a_bat", "dodge": True, "experience": 1},
    ]


def test_wr04_initiative_asks_for_experience_dice() -> None:
    _, _, tree = tree_at("warp/knight_duel", 1, "initiative")
    assert tree.prompt == "Roll initiative: spend experience dice?"
    assert labels(tree) == [
        ("No experience", "Roll, no experience"),
        ("Spend 1 experience", "Roll, spend 1 experience"),
        ("Spend 2 experience", "Roll, spend 2 experience"),
    ]
