"""SC-28's warnings as codes: each warning note of a listed action has its code in
``ActionSpec.warnings`` (``provokes``, ``check``; core/actions.py ``WARNING_CODES``), in the wire JSON too, and the
Python side (the policy's move table, ``choices.move_ends``) decides on the code, never on the sentence."""

from __future__ import annotations

import orjson

from affray.core.actions import WARNING_CODES
from affray.core.engine import ActionSpec
from affray.core.match import Match
from affray.core.policy import Choices
from affray.rulesets.spellchrome.choices import move_ends

from .support import build, fighter

OPEN = "\n".join(["." * 10] * 5)
CORRIDOR = "##########\n#........#\n##########"


def _pair(a: dict[str, object], b: dict[str, object]) -> Match:
    return build(OPEN, {"left": [a], "right": [b]}, dice=[20, 1])


def _spec(match: Match, actor: str, action: dict[str, object]) -> ActionSpec:
    return next(s for s in match.legal(actor) if s.action == action)


def test_sc28_a_provoking_move_carries_the_code_provokes_in_the_legal_list_and_on_the_wire() -> None:
    """SC-28: fleeing a melee-armed foe is listed with the warning code ``provokes`` beside its sentence (the first
    note); the alternative's note carries no code; the JSON a seat receives has ``"warnings": ["provokes"]``."""
    match = _pair(fighter("a", (4, 2)), fighter("b", (5, 2)))
    flee = _spec(match, "a", {"type": "move", "to": [0, 2]})
    assert flee.warnings == ("provokes",)
    assert flee.notes == (
        "provokes an attack of opportunity from B",
        "withdraw (10 ft) or a 5-foot step does not provoke",
    )
    assert flee.to_dict()["warnings"] == ["provokes"]
    assert orjson.loads(flee.written(orjson.dumps))["warnings"] == ["provokes"]


def test_sc28_what_does_not_provoke_carries_no_code() -> None:
    """SC-19, SC-21: withdrawing and the 5-foot step never provoke: no warning code, and no ``warnings`` key on the
    wire (a spec without warnings is written as before)."""
    match = _pair(fighter("a", (4, 2)), fighter("b", (5, 2)))
    legal = match.legal("a")
    calm = [s for s in legal if s.action["type"] in ("withdraw", "step")]
    # withdraw: the 5 x 5 squares within 10 ft but A's own and B's; step: the 8 around but B's
    assert len(calm) == 23 + 7
    assert all(s.warnings == () and "warnings" not in s.to_dict() for s in calm)
    step = next(s for s in calm if s.action["type"] == "step")
    assert step.notes == ("never provokes",)  # a note, but no warning


def test_sc27_a_shot_and_a_cast_in_melee_carry_the_code_provokes() -> None:
    """SC-27 (d), (e): a ranged attack and a spell cast in a melee foe's reach warn with the code ``provokes``."""
    match = _pair(fighter("a", (4, 2), weapons=["hand_crossbow"], spells={"steal_life": 1}), fighter("b", (5, 2)))
    shot = _spec(match, "a", {"type": "attack", "target": "b", "weapon": "hand_crossbow"})
    cast = _spec(match, "a", {"type": "cast", "spell": "steal_life", "target": "b"})
    assert shot.warnings == cast.warnings == ("provokes",)
    assert cast.notes[0] == "casting in melee: Concentration DC 15, or it provokes an attack of opportunity from B"


def test_sc24_a_tumble_warns_of_its_check_then_of_the_attack() -> None:
    """SC-24, ruling SC-R1: a tumble through an opponent first notes its check (code ``check``), then the attack of
    opportunity its leaving the foe's reach provokes (code ``provokes``), each code at its note's place."""
    match = build(
        CORRIDOR,
        {"left": [fighter("a", (2, 1), speed_ft=60, skills={"tumble": 10})], "right": [fighter("b", (3, 1))]},
        dice=[20, 1],
    )
    tumble = _spec(match, "a", {"type": "move", "to": [5, 1], "tumble": True})
    assert tumble.warnings == ("check", "provokes")
    assert tumble.notes[:2] == (
        "tumbles through an opponent: Acrobatics and Tumbling DC 25",
        "provokes an attack of opportunity from B",
    )


def test_every_listed_code_is_declared_and_names_a_note() -> None:
    """The contract of ``ActionSpec.warnings``: each code is one of ``WARNING_CODES`` and ``warnings[i]`` is said by
    ``notes[i]``: over a whole turn's listing of a shooter and caster in melee."""
    match = _pair(fighter("a", (4, 2), weapons=["hand_crossbow"], spells={"steal_life": 1}), fighter("b", (5, 2)))
    legal = match.legal("a")
    warned = [s for s in legal if s.warnings]
    assert len(warned) > 10
    assert all(set(s.warnings) <= set(WARNING_CODES) and len(s.warnings) <= len(s.notes) for s in legal)


def test_sc28_the_python_side_decides_on_the_code_not_the_words() -> None:
    """SC-28: ``move_ends`` (what the heuristic scores moves by) marks a move as provoking by its code: a listing
    whose sentence is reworded still provokes, and one whose words say "provokes" but carries no code does not."""
    reworded = ActionSpec({"type": "move", "to": [1, 2]}, "move to [1, 2]", ("B gets a free swing",), (), ("provokes",))
    worded = ActionSpec({"type": "move", "to": [2, 2]}, "move to [2, 2]", ("provokes an attack of opportunity",))
    choices = Choices("a", lambda: [reworded, worded])
    assert move_ends(choices, "move") == ((1, 2, True), (2, 2, False))
    # the turn's own listing (TurnChoices, the memo's move table): of A's 33 move ends only the one past B at
    # (6, 2) has no path around B's reach, and that one carries the code
    match = _pair(fighter("a", (0, 0)), fighter("b", (5, 2)))
    ends = move_ends(match.choices("a"), "move")
    assert len(ends) == 33 and [end for end in ends if end[2]] == [(6, 2, True)]
    assert _spec(match, "a", {"type": "move", "to": [6, 2]}).warnings == ("provokes",)
