"""Every Sim HuD action type, declared once with its fields (:mod:`affray.core.actions`).

Free parameters (``Field(free=True)``) are what a client may fill in itself: a Combat Nerdified declaration's
plan and additional action (any plan the rules allow is accepted by ``step``, not only the listed ones), a Free
Form post's text and hand-kept hit points, an emergency complex activity's text.
"""

from __future__ import annotations

from affray.core.actions import ActionType, Field
from affray.rulesets.hud.emergency import MAX_TEXT
from affray.rulesets.hud.freeform import MAX_POST
from affray.rulesets.hud.plans import MAX_ITEM_TEXT, MAX_PLAN_ITEMS
from affray.rulesets.hud.simplified import ATTACKER_DICE, DEFENDER_DICE

_TARGET = Field("target", "actor", "the foe")
_WEAPON = Field("weapon", "string", "a weapon id the combatant carries")

#: The items of a declared plan (WL-10); their costs are checked against the combatant's actions by ``step``.
PLAN_ITEMS = (
    ActionType("attack", "attack a foe (1 action)", (_TARGET,), ("WL-10", "WL-11")),
    ActionType("defense", "keep a defense (1 action)", (), ("WL-10",)),
    ActionType(
        "charge", "charge a foe at range (2 actions, -4 Attack, +2 Damage)", (_TARGET,), ("WL-18", "WL-B4", "WL-B13")
    ),
    ActionType("rearm", "sheathe and draw (1 action)", (_WEAPON,), ("WL-19",)),
    ActionType("draw", "draw into a free hand (0 or 1 action)", (_WEAPON,), ("WL-20",)),
    ActionType(
        "emergency_rearm", "drop what is in hand and draw (the draw's cost)", (_WEAPON,), ("WL-19", "WL-20", "WL-B15")
    ),
    ActionType("pick_up", "pick up a dropped weapon (1 action)", (_WEAPON,), ("WL-19", "WL-B15")),
    ActionType("close", "the free 10 m move onto a near foe (no action)", (_TARGET,), ("WL-10", "WL-B13")),
    ActionType(
        "complex",
        "a complex activity (1 action)",
        (Field("text", "string", "what it is", required=False, maximum=MAX_ITEM_TEXT),),
        ("WL-10",),
    ),
)

_REACTIONS = (
    ("defend", "spend a defense action", ("WL-11", "WL-B5")),
    ("emergency_defense", "defend with an emergency additional action (-2 all next round)", ("WL-17",)),
    ("take", "take it undefended", ("WL-14", "WL-B5")),
    ("damage", "press on to the Damage phase", ("WL-13",)),
    ("disengage", "disengage and flee (pursuit)", ("WL-21", "WL-B10")),
    ("riposte", "riposte (free attack)", ("WL-12", "WL-B3")),
    ("pass", "let it go", ("WL-12",)),
    ("chase", "chase on foot", ("WL-22",)),
    ("shoot", "shoot twice instead of chasing", ("WL-22", "WL-B9")),
    ("let_go", "let them go", ("WL-22",)),
    ("carry_on", "carry on (no emergency action)", ("WL-17",)),
)

ACTION_TYPES: tuple[ActionType, ...] = (
    ActionType(
        "declare",
        "declare the round's actions",
        (
            Field(
                "plan",
                "list",
                "the round's actions in order (WL-B7)",
                item=PLAN_ITEMS,
                maximum=MAX_PLAN_ITEMS,
                free=True,
            ),
            Field(
                "additional",
                "boolean",
                "take the additional action (-2 to every roll this round)",
                required=False,
                free=True,
            ),
        ),
        ("WL-09", "WL-10", "WL-17", "WL-B6"),
    ),
    *(ActionType(kind, label, (), rules) for kind, label, rules in _REACTIONS),
    ActionType("emergency_attack", "an emergency attack (-2 to every roll next round)", (_TARGET,), ("WL-17", "WL-B6")),
    ActionType(
        "emergency_complex",
        "an emergency complex activity (-2 to every roll next round)",
        (Field("text", "string", "what it is", required=False, maximum=MAX_TEXT, free=True),),
        ("WL-17", "WL-B6"),
    ),
    ActionType(
        "attack",
        "attack a foe, rolling Attack or Damage",
        (_TARGET, Field("die", "choice", "the attacker's die", choices=ATTACKER_DICE)),
        ("WL-06",),
    ),
    ActionType(
        "respond",
        "answer, rolling Defense or Injury",
        (Field("die", "choice", "the defender's die", choices=DEFENDER_DICE),),
        ("WL-06",),
    ),
    ActionType(
        "post",
        "post into the scene",
        (
            Field("text", "string", "the post", maximum=MAX_POST, free=True),
            Field("hp", "object", "hit points kept by hand: {combatant id: change}", required=False, free=True),
        ),
        ("WL-00",),
    ),
    ActionType(
        "settle",
        "call Dice Simplified to settle one exchange",
        (_TARGET, Field("die", "choice", "the attacker's die", choices=ATTACKER_DICE)),
        ("WL-00", "WL-06"),
    ),
    ActionType("end_scene", "end the scene", (), ("WL-00",)),
)

#: The labels of the reactions, as the legal list shows them.
REACTION_LABELS = {kind: label for kind, label, _ in _REACTIONS}
