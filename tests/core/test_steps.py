"""The step tree's types and its constraints (core/steps.py; issue "every choice in steps and in words")."""

from __future__ import annotations

import pytest

from affray.core.actions import ActionType, Field
from affray.core.engine import Action, ActionSpec
from affray.core.steps import (
    MAX_CHOICES,
    Branch,
    Choice,
    Leaf,
    Step,
    assemble,
    cut,
    default_steps,
    find,
    leaves,
    problems,
)

HIT: Action = {"type": "hit", "target": "vesna"}
HIT_BORS: Action = {"type": "hit", "target": "bors"}
WAIT: Action = {"type": "wait"}


def small_tree() -> Step:
    return Step(
        "What does Hald do?",
        (
            Choice(
                "1",
                "Hit",
                "Hit someone",
                step=Step(
                    "Hit whom?",
                    (Choice("1", "Vesna", "Hit Vesna", action=HIT), Choice("2", "Bors", "Hit Bors", action=HIT_BORS)),
                ),
            ),
            Choice("2", "Wait", "Wait", action=WAIT),
        ),
    )


def test_a_choice_holds_an_action_or_a_step_never_both_nor_neither() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Choice("1", "x", "x")
    with pytest.raises(ValueError, match="exactly one"):
        Choice("1", "x", "x", action=WAIT, step=Step("?", ()))


def test_to_json_has_the_documented_shape() -> None:
    assert small_tree().to_json() == {
        "prompt": "What does Hald do?",
        "choices": [
            {
                "id": "1",
                "short": "Hit",
                "long": "Hit someone",
                "step": {
                    "prompt": "Hit whom?",
                    "choices": [
                        {"id": "1", "short": "Vesna", "long": "Hit Vesna", "action": HIT},
                        {"id": "2", "short": "Bors", "long": "Hit Bors", "action": HIT_BORS},
                    ],
                },
            },
            {"id": "2", "short": "Wait", "long": "Wait", "action": WAIT},
        ],
    }


def test_find_follows_a_path_of_ids() -> None:
    tree = small_tree()
    assert find(tree, "1.2") == HIT_BORS
    assert find(tree, ["2"]) == WAIT
    assert find(tree, "") is tree
    step = find(tree, "1")
    assert isinstance(step, Step) and step.prompt == "Hit whom?"
    assert find(tree, "3") is None
    assert find(tree, "2.1") is None  # past a leaf
    assert find(tree, "1.9") is None


def test_leaves_are_every_action_depth_first() -> None:
    assert leaves(small_tree()) == [HIT, HIT_BORS, WAIT]


def test_problems_finds_every_broken_constraint() -> None:
    assert problems(small_tree()) == []
    many = Step("Pick", tuple(Choice(str(i), f"n{i}", f"n{i}", action={"type": "n", "i": i}) for i in range(13)))
    assert problems(many) == ["the root step has 13 choices, more than 12"]
    long = Step("Pick", (Choice("1", "Attack Watch Sergeant Hald", "x", action=WAIT),))
    assert problems(long) == ["choice '1': short label 'Attack Watch Sergeant Hald' has 26 bytes (1 to 24)"]
    twice = Step("Pick", (Choice("a", "Wait", "x", action=WAIT), Choice("a", "Wait", "y", action=HIT)))
    assert problems(twice) == [
        "choice 'a': its id repeats within its step",
        "choice 'a': short label 'Wait' repeats within its step",
        "choice 'a': its id repeats within its step",
        "choice 'a': short label 'Wait' repeats within its step",
    ]
    dotted = Step("", (Choice("1.2", "ö" * 13, "", action=WAIT),))
    assert problems(dotted) == [
        "the root step has no prompt",
        "choice '1.2' has an id that is empty or holds a dot",
        f"choice '1.2': short label {'ö' * 13!r} has 26 bytes (1 to 24)",
        "choice '1.2' has no long label",
    ]


def test_cut_keeps_within_24_bytes_of_utf8_and_marks_the_cut() -> None:
    assert cut("Attack Vesna") == "Attack Vesna"
    assert cut("Attack Watch Sergeant Hald") == "Attack Watch Sergeant…"
    assert len(cut("ö" * 30).encode()) <= 24 and cut("ö" * 30).endswith("…")


def test_assemble_collapses_a_branch_without_a_choice_and_pages_past_twelve() -> None:
    options = [Leaf({"type": "n", "i": i}, f"Square {i}", f"Move to square {i}") for i in range(30)]
    tree = assemble(
        "What now?",
        [
            Branch("Move", "Move", "Where to?", tuple(options)),
            Branch("Hit", "Hit someone", "Hit whom?", (Leaf(HIT, "Vesna", "Hit Vesna, hit 58%"),)),
        ],
    )
    assert problems(tree) == []
    assert [c.short for c in tree.choices] == ["Move", "Hit"]
    assert tree.choices[1].action == HIT and tree.choices[1].long == "Hit Vesna, hit 58%"  # one target: no step
    moves = tree.choices[0].step
    assert moves is not None and len(moves.choices) == MAX_CHOICES
    assert moves.choices[-1].short == "More…" and moves.choices[-1].long == "More choices (19)"
    assert find(tree, "1.12.12.8") == {"type": "n", "i": 29}
    assert leaves(tree) == [*(o.action for o in options), HIT]


def test_assemble_tells_alike_short_labels_apart() -> None:
    tree = assemble(
        "Who?",
        [Leaf(HIT, "Ash Jackal of the Southern Waste", "a"), Leaf(HIT_BORS, "Ash Jackal of the Southern Wastes", "b")],
    )
    assert [c.short for c in tree.choices] == ["Ash Jackal of the S… 1", "Ash Jackal of the S… 2"]
    assert problems(tree) == []


def test_the_default_groups_by_type_then_by_each_field_in_order() -> None:
    types = (
        ActionType("strike", "strike a foe", (Field("target", "actor"), Field("weapon", "string"))),
        ActionType("wait", "wait"),
    )
    specs = [
        ActionSpec({"type": "strike", "target": "vesna", "weapon": "long_dagger"}, "strike Vesna with Long dagger"),
        ActionSpec({"type": "strike", "target": "vesna", "weapon": "fist"}, "strike Vesna with Fist"),
        ActionSpec({"type": "strike", "target": "bors", "weapon": "fist"}, "strike Bors with Fist"),
        ActionSpec({"type": "wait"}, "wait"),
    ]
    tree = default_steps(types, {"vesna": "Vesna", "bors": "Bors", "hald": "Hald"}, "hald", specs, ["", "", "", ""])
    assert problems(tree) == []
    assert tree.prompt == "What does Hald do?"
    assert [(c.short, c.long) for c in tree.choices] == [("Strike a foe", "Strike a foe"), ("Wait", "Wait")]
    strike = find(tree, "1")
    assert isinstance(strike, Step) and strike.prompt == "Which target?"
    assert [(c.short, c.long) for c in strike.choices] == [
        ("Vesna", "Strike a foe: Vesna"),
        ("Bors", "Strike Bors with Fist"),
    ]
    weapons = find(tree, "1.1")
    assert isinstance(weapons, Step) and weapons.prompt == "Which weapon?"
    assert [(c.short, c.long) for c in weapons.choices] == [
        ("Long dagger", "Strike Vesna with Long dagger"),
        ("Fist", "Strike Vesna with Fist"),
    ]
    assert leaves(tree) == [s.action for s in specs]


def test_a_long_name_has_a_nickname_for_a_button_unless_two_would_read_alike() -> None:
    from affray.core.steps import fitted, nicknames

    names = {
        "vesna": "Vesna of the Lynx",
        "hald": "Watch Sergeant Hald",
        "bors": "Bors the Ferryman's Son",
        "thug1": "Dock Thug with a Scar",
        "thug2": "Dock Thug in a Beanie",
        "widow": "Night-Widow",
    }
    assert nicknames(names) == {
        "vesna": "Vesna",
        "hald": "Hald",
        "bors": "Bors",
        "thug1": "Dock Thug with a Scar",
        "thug2": "Dock Thug in a Beanie",
        "widow": "Night-Widow",
    }
    assert fitted("Attack ", "Vesna of the Lynx", "Vesna") == "Attack Vesna of the Lynx"  # 24 bytes: it fits
    assert fitted("Attack ", "Watch Sergeant Hald", "Hald") == "Attack Hald"
