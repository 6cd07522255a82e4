"""Every Spellchrome action type with its fields (:mod:`affray.core.actions`).

A move's destination and path are free parameters: ``legal()`` lists one spec per reachable end square (with the
path the engine would take), but a client may send any square and any path, which ``step`` then checks against
SC-17..SC-24. Everything else is picked from the listing.
"""

from __future__ import annotations

from affray.core.actions import ActionType, Field

_TO = Field("to", "square", "the end square [x, y]", free=True)
_PATH = Field(
    "path",
    "squares",
    "the squares walked through, in order, ending on 'to' (default: the engine's "
    "path, one that provokes nobody if there is one)",
    required=False,
    free=True,
)
_TARGET = Field("target", "actor", "the combatant acted on")

ACTION_TYPES: tuple[ActionType, ...] = (
    ActionType(
        "move",
        "move",
        (
            _TO,
            _PATH,
            Field("tumble", "boolean", "tumble through opponents' squares (trained only, SC-24)", required=False),
        ),
        ("SC-15", "SC-17", "SC-20", "SC-22", "SC-23", "SC-24", "SC-27"),
        "A move action (or the standard action as a second move); leaving a threatened square provokes.",
    ),
    ActionType(
        "withdraw",
        "withdraw",
        (_TO, _PATH),
        ("SC-19",),
        "A move action at max(5, 5·⌊speed/15⌋) ft that never provokes.",
    ),
    ActionType(
        "run", "run", (_TO, _PATH), ("SC-18",), "Both actions on a fairly straight path: 2 moves + ⌊Run/5⌋ squares."
    ),
    ActionType(
        "step",
        "5-foot step",
        (Field("to", "square", "one of the eight squares around", free=True),),
        ("SC-21",),
        "Never provokes.",
    ),
    ActionType(
        "attack",
        "attack",
        (_TARGET, Field("weapon", "string", "the weapon in hand or 'unarmed'", required=False)),
        ("SC-B1", "SC-27"),
        "A standard action: d20 + bonus against Defense.",
    ),
    ActionType(
        "full_attack",
        "full attack",
        (_TARGET,),
        ("SC-15", "SC-B1"),
        "A full-round action: attacks at BAB, BAB − 5, ... against one target.",
    ),
    ActionType(
        "cast",
        "cast a spell",
        (Field("spell", "string", "a spell on the sheet"), _TARGET),
        ("SC-06", "SC-07", "SC-27"),
        "A standard action; in melee a Concentration DC 15 check or it provokes.",
    ),
    ActionType("first_aid", "first aid", (_TARGET,), ("SC-06",), "Heal DC 15 stabilises an adjacent dying character."),
    ActionType(
        "draw",
        "take up a weapon",
        (Field("weapon", "string", "a carried weapon"),),
        ("SC-15", "SC-21"),
        "A move action spent without moving.",
    ),
    ActionType("give_up", "give up", (), ("SC-02",), "NPCs and monsters only."),
    ActionType("end_turn", "end the turn"),
    ActionType("attack_of_opportunity", "take the attack of opportunity", (), ("SC-26", "SC-27")),
    ActionType("decline", "let the provoker go", (), ("SC-26",)),
)
