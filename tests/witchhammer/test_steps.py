"""WitchHammer's choices in steps and in words (rulesets/witchhammer/steps.py), following the planning (WH-02,
WH-03): place a card, or fill the slots in order then be ready, or be ready; the Psych phase's card; cards by their
printed names from the seat's own hand, with the hint's odds of their first attack (WH-11..WH-16)."""

from __future__ import annotations

from affray.core.steps import Step, find, leaves, problems
from tests.core.steps_at import labels, tree_at


def test_wh03_planning_is_a_card_for_the_next_slot_or_the_slots_in_order() -> None:
    match, actor, tree = tree_at("witchhammer/yard_duel", 1, "place")
    assert actor == "bruna" and problems(tree) == []
    assert tree.prompt == "What does Bruna Halloway do?"
    assert labels(tree) == [
        ("Ready", "Ready (empty slots: default card)"),
        ("Place a card", "Place an Action card face down in the next slot"),
        ("Fill slots, ready", "Place cards in the slots in order, then be ready"),
    ]
    place = find(tree, "2")
    assert isinstance(place, Step) and place.prompt == "Which card face down?"
    assert labels(place) == [
        ("HayMaker", "Place HayMaker face down — HayMaker hit 60% · solid 15% (vs Tomas Reedwater)"),
        ("Sword Swing", "Place Sword Swing face down — Sword Swing hit 85% · solid 40% (vs Tomas Reedwater)"),
    ]
    second = find(tree, "3.1")
    assert isinstance(second, Step) and second.prompt == "HayMaker: the second slot's card?"
    assert labels(second) == [
        ("Then ready", "HayMaker, then ready — HayMaker hit 60% · solid 15% (vs Tomas Reedwater)"),
        (
            "Sword Swing",
            "HayMaker, then Sword Swing, then ready — HayMaker hit 60% · solid 15%; Sword Swing hit 85% · solid 40% "
            "(vs Tomas Reedwater)",
        ),
    ]
    assert find(tree, "3.1.1") == {"type": "commit", "cards": ["haymaker"]}
    assert find(tree, "3.1.2") == {"type": "commit", "cards": ["haymaker", "sword_swing"]}
    assert sorted(map(repr, leaves(tree))) == sorted(repr(s.action) for s in match.legal(actor))


def test_wh03_the_psych_phase_offers_the_psych_cards_by_name() -> None:
    _, actor, tree = tree_at("witchhammer/mill_ambush", 1, "psych")
    assert actor == "ilse" and problems(tree) == []
    assert labels(tree) == [
        ("Ready", "Ready"),
        ("Play a Psych card", "Play a Psych card face down"),
        ("Play one, ready", "Play a Psych card face down, then be ready"),
    ]
    psych = find(tree, "2")
    assert isinstance(psych, Step) and psych.prompt == "Which Psych card?"
    assert labels(psych) == [
        ("Hunter's Glare", "Play Hunter's Glare face down"),
        ("Quiet the Mind", "Play Quiet the Mind face down"),
        ("Steel Yourself", "Play Steel Yourself face down"),
    ]
    assert find(tree, "3.2") == {"type": "commit", "cards": ["quiet_the_mind"]}
