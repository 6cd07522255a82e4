"""The Sim HuD's choices in steps and in words (rulesets/hud/steps.py): a Combat Nerdified declaration chosen an
action at a time (WL-10), the additional action its own branch (WL-17), Dice Simplified's die after the target
(WL-06); fighters and weapons by name, and the odds the seat's hints give."""

from __future__ import annotations

from affray.core.steps import Step, find, leaves, problems
from tests.core.steps_at import labels, tree_at


def test_wl10_a_declaration_is_chosen_an_action_at_a_time_with_names_and_odds() -> None:
    match, actor, tree = tree_at("hud/nerdified_duel", 1, "declare")
    assert actor == "hald" and problems(tree) == []
    assert tree.prompt == "Watch Sergeant Hald's first action this round?"
    assert labels(tree) == [
        ("Attack Vesna of the Lynx", "Attack Vesna of the Lynx"),
        ("Defense", "Keep a defense"),
        ("Rearm: Arming sword", "Sheathe and draw the Arming sword"),
        ("Drop, draw Arming sword", "Drop what is in hand and draw the Arming sword"),
        ("+1 action (-2)", "Take an additional action: -2 to every roll this round"),
    ]
    second = find(tree, "1")
    assert isinstance(second, Step) and second.prompt == "Attack Vesna of the Lynx, then what?"
    # the odds of the hint: the exchange's hit and mean loss (WL-11..WL-14), as `affray odds hud` gives them
    assert labels(second) == [
        (
            "Attack Vesna of the Lynx",
            "Attack Vesna of the Lynx, then attack Vesna of the Lynx — vs Vesna of the Lynx: hit 33% · avg loss 0.9",
        ),
        (
            "Defense",
            "Attack Vesna of the Lynx, then keep a defense — vs Vesna of the Lynx: hit 33% · avg loss 0.9",
        ),
    ]
    assert find(tree, "1.2") == {
        "type": "declare",
        "plan": [{"type": "attack", "target": "vesna"}, {"type": "defense"}],
        "additional": False,
    }
    legal = [s.action for s in match.legal(actor)]
    assert sorted(map(repr, leaves(tree))) == sorted(map(repr, legal))


def test_wl17_the_additional_action_is_its_own_branch_at_minus_two() -> None:
    _, _, tree = tree_at("hud/nerdified_duel", 1, "declare")
    extra = find(tree, "5")
    assert isinstance(extra, Step) and extra.prompt == "With the additional action: first?"
    third = find(tree, "5.1.1")
    assert isinstance(third, Step)
    # the -2 of the additional action (WL-17) is in the hint's odds: 33% without it, 21% with it
    assert labels(third)[0] == (
        "Attack Vesna of the Lynx",
        "With an additional action (-2 to every roll this round): attack Vesna of the Lynx, then attack Vesna of "
        "the Lynx, then attack Vesna of the Lynx — vs Vesna of the Lynx: hit 21% · avg loss 0.4",
    )
    assert find(tree, "5.1.1.1") == {
        "type": "declare",
        "plan": [{"type": "attack", "target": "vesna"}] * 3,
        "additional": True,
    }


def test_wl06_dice_simplified_the_target_then_the_die() -> None:
    _, actor, tree = tree_at("hud/simplified_duel", 1, "attack")
    assert actor == "ilka" and problems(tree) == []
    assert tree.prompt == "Drowner: which die?"  # one foe: said, not asked
    assert labels(tree) == [
        ("Roll Attack", "Attack Drowner rolling ATTACK"),
        ("Roll Damage", "Attack Drowner rolling DAMAGE"),
    ]
    assert [c.action for c in tree.choices] == [
        {"type": "attack", "target": "drowner", "die": "attack"},
        {"type": "attack", "target": "drowner", "die": "damage"},
    ]
    _, actor, answer = tree_at("hud/simplified_duel", 1, "respond")
    assert actor == "drowner"
    assert labels(answer) == [("Roll Defense", "Roll DEFENSE"), ("Roll Injury", "Roll INJURY")]


def test_wl00_free_form_posts_say_whose_hit_points_change_by_name() -> None:
    _, actor, tree = tree_at("hud/free_form_tavern", 1, "post")
    assert actor == "bors" and problems(tree) == []
    post = find(tree, "1")
    assert isinstance(post, Step) and post.prompt == "Post, and change hit points?"
    assert labels(post) == [
        ("Just post", "Post (write your text)"),
        ("Bors -1 HP", "Post, and Bors the Ferryman's Son loses 1 HP"),
        ("Hald -1 HP", "Post, and Watch Sergeant Hald loses 1 HP"),
    ]
    assert find(tree, "1.3") == {"type": "post", "text": "...", "hp": {"hald": -1}}
