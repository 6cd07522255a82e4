"""Spellchrome's choices in steps and in words (rulesets/spellchrome/steps.py): the action, then the target and the
weapon (SC-11), the squares of a move (SC-18, SC-21) by compass direction, then how far, then the square, so that no
step offers more than twelve; squares as the board's (x, y), fighters and weapons by name, an attack with its hint."""

from __future__ import annotations

from affray.core.steps import MAX_CHOICES, Step, find, leaves, paths, problems
from tests.core.steps_at import labels, tree_at


def test_sc11_an_attack_is_the_action_then_the_weapon_with_the_target_s_defense() -> None:
    match, actor, tree = tree_at("spellchrome/ford_duel", 1, "attack")
    assert actor == "vell" and problems(tree) == []
    assert tree.prompt == "What does Bandit Cutthroat do?"
    assert [short for short, _ in labels(tree)] == [
        "Attack",
        "5-foot step",
        "Move",
        "Withdraw",
        "Run",
        "Take up a weapon",
        "Give up the fight",  # no rule ID on a button (SC-02 is the listing's help)
        "End the turn",
    ]
    attack = find(tree, "1")
    assert isinstance(attack, Step) and attack.prompt == "Tamsin Rook: with which weapon?"  # one foe: said
    # the hint: the target's Defense and the weapon's damage (SC-11, SC-13)
    assert labels(attack) == [
        ("Short sword", "Attack Tamsin Rook with Short sword — vs Defense 13 · 1d6 + Str (avg 3.5 + Str)"),
        ("Unarmed strike", "Attack Tamsin Rook with Unarmed strike — vs Defense 13 · 1d3 + Str (avg 2.0 + Str)"),
    ]
    assert find(tree, "1.1") == {"type": "attack", "target": "tamsin", "weapon": "short_sword"}
    assert sorted(map(repr, leaves(tree))) == sorted(repr(s.action) for s in match.legal(actor))


def test_sc18_moves_by_direction_then_square_and_runs_along_compass_lines() -> None:
    _, _, tree = tree_at("spellchrome/ford_duel", 1, "attack")
    moves = find(tree, "3")
    assert isinstance(moves, Step) and moves.prompt == "Which way?"
    assert labels(moves) == [
        ("East (2)", "East: 2 squares"),
        ("South-east (4)", "South-east: 4 squares"),
        ("South (2)", "South: 2 squares"),
        ("South-west (5)", "South-west: 5 squares"),
        ("West (3)", "West: 3 squares"),
    ]
    south_west = find(tree, "3.4")
    assert isinstance(south_west, Step) and labels(south_west)[-1] == (
        "(0, 2), 3 away",
        "Move to (0, 2), 3 squares south-west",
    )
    assert find(tree, "3.4.5") == {"type": "move", "to": [0, 2]}
    runs = find(tree, "5")
    assert isinstance(runs, Step)
    assert labels(runs) == [
        ("E to (5, 0)", "Run to (5, 0), 2 squares east"),
        ("SE to (5, 2)", "Run to (5, 2), 2 squares south-east"),
        ("S to (3, 2)", "Run to (3, 2), 2 squares south"),
        ("SW to (1, 2)", "Run to (1, 2), 2 squares south-west"),
    ]


def test_sc18_a_direction_of_many_squares_is_split_by_how_far() -> None:
    match, actor, tree = tree_at("spellchrome/crossroads_2v2", 1, "move")
    assert len(match.legal(actor)) == 73 and problems(tree) == []
    assert max(len(c.step.choices) for _, c in paths(tree) if c.step is not None) <= MAX_CHOICES
    moves = find(tree, "3")
    assert isinstance(moves, Step)
    assert [short for short, _ in labels(moves)] == ["North (15)", "North-east (27)", "East (14)"]
    far = find(tree, "3.2")
    assert isinstance(far, Step) and far.prompt == "How far?"
    assert labels(far) == [
        ("2-4 squares", "2-4 squares away"),
        ("5-6 squares", "5-6 squares away"),
        ("7 squares", "7 squares away"),
    ]
    near = find(tree, "3.2.1")
    assert isinstance(near, Step) and len(near.choices) == 11
    assert labels(near)[0] == ("(1, 9), 2 away", "Move to (1, 9), 2 squares north-east")
