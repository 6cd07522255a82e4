"""Every WaRP action type, declared once with its fields, kinds and static ranges (core/actions.py).

``legal()`` lists concrete actions; each is an instance of one of these (:func:`affray.core.actions.check_action`),
and names in ``ActionSpec.free`` the fields a client may change itself: a distance on the line, a pace, Experience
Pool dice, a maneuver, a claim of advantage or a reason to live. ``step`` validates whatever comes back.
"""

from __future__ import annotations

from affray.core.actions import ActionType, Field
from affray.core.engine import Action
from affray.core.json import Json
from affray.rulesets.warp.mechanics import COVER, DARKNESS, MAX_GM_DICE, PACES

MAX_EXPERIENCE = 30  # the sheet's cap (content_model.Character.experience)


def _experience(what: str) -> Field:
    return Field(
        "experience",
        "integer",
        f"Experience Pool dice to spend as bonus dice on {what} (WR-04)",
        required=False,
        minimum=0,
        maximum=MAX_EXPERIENCE,
        free=True,
    )


def _trait(what: str) -> Field:
    return Field(
        "trait",
        "string",
        f"the trait rolled for {what}; absent: the best suitable one; null: 2 dice (WR-03)",
        required=False,
    )


PACE = Field("pace", "choice", "a pace of WR-07 within the GM's cap", choices=tuple(PACES), free=True)


#: The weapon an attack uses, declared once: a weapon id the attacker carries; absent, the one in hand (WR-12). The
#: attack's check and its trusted twin read it with :func:`weapon_of`, the legal listing writes it with every attack.
WEAPON = Field("weapon", "string", "a weapon carried (default: the one in hand)", required=False)

#: An attack (WR-08..WR-11, WR-14, WR-17, WR-30, WR-31): its fields are the only ones an attack may carry.
ATTACK = ActionType(
    "attack",
    "attack",
    (
        Field("target", "actor", "a foe still in the fight"),
        WEAPON,
        Field(
            "mode",
            "choice",
            "hand to hand or as a missile (default: what the distance allows)",
            required=False,
            choices=("melee", "ranged"),
        ),
        _trait("the attack"),
        Field(
            "maneuver",
            "string",
            "a maneuver id (default 'attack'); a special one halves damage (WR-30)",
            required=False,
            free=True,
        ),
        _experience("the attack"),
        Field(
            "claim",
            "string",
            "a claim of advantage for the GM (gm_decisions: table; WR-31)",
            required=False,
            maximum=500,
            free=True,
        ),
        Field(
            "move",
            "object",
            'a missile attacker moving as it shoots: {"pace": ..., "dir": "toward" or "away"} (WR-14)',
            required=False,
            free=True,
        ),
    ),
    ("WR-08", "WR-09", "WR-10", "WR-11", "WR-14", "WR-17", "WR-30", "WR-31"),
)


def weapon_of(action: Action, wielding: str) -> Json:
    """The attack's :data:`WEAPON`: the weapon named, else ``wielding`` (the one in hand)."""
    return action.get(WEAPON.name, wielding)


def _turn_types() -> tuple[ActionType, ...]:
    return (
        ATTACK,
        ActionType(
            "move",
            "move along the line",
            (
                PACE,
                Field("toward", "actor", "move toward this character, stopping within reach", required=False),
                Field("away", "actor", "move away from this character", required=False),
                Field(
                    "to",
                    "number",
                    "a position on the line in metres, within the pace",
                    required=False,
                    minimum=-10000,
                    maximum=10000,
                    free=True,
                ),
            ),
            ("WR-07", "WR-X2", "WR-X4"),
        ),
        ActionType("hold", "hold the action", (), ("WR-06",)),
        ActionType("wait", "keep waiting", (), ("WR-06",)),
        ActionType(
            "pass",
            "do something else",
            (Field("text", "string", "what the character does instead", required=False, maximum=500, free=True),),
            ("WR-05",),
        ),
        ActionType("take_cover", "take cover", (), ("WR-14",)),
        ActionType("desperate_defense", "desperate defense", (), ("WR-32",)),
        ActionType(
            "intimidate",
            "intimidate",
            (
                Field("target", "actor", "a foe still in the fight"),
                _trait("intimidation"),
                _experience("the intimidation"),
            ),
            ("WR-31", "WR-X11"),
        ),
        ActionType("break_free", "break free of a hold", (), ("WR-30", "WR-X6")),
        ActionType("pick_up", "pick up a weapon", (Field("weapon", "string", "a weapon lying within reach"),)),
    )


def _decision_types() -> tuple[ActionType, ...]:
    return (
        ActionType("initiative", "roll initiative", (_experience("initiative"),), ("WR-04", "WR-05")),
        ActionType(
            "defend",
            "defend",
            (
                _trait("the defense"),
                Field("dodge", "boolean", "dodge a missile (default true, WR-14)", required=False),
                _experience("the defense"),
                Field(
                    "normal",
                    "list",
                    "outnumbered, under gang_up_choice: kept: the attackers defended against normally (WR-31, WR-B17)",
                    required=False,
                ),
            ),
            ("WR-08", "WR-09", "WR-14", "WR-31"),
        ),
        ActionType(
            "rule",
            "GM: rule on an attack",
            (
                Field(
                    "bonus", "integer", "bonus dice for the attacker", required=False, minimum=0, maximum=MAX_GM_DICE
                ),
                Field(
                    "penalty",
                    "integer",
                    "penalty dice for the attacker",
                    required=False,
                    minimum=0,
                    maximum=MAX_GM_DICE,
                ),
                Field("predictable", "boolean", "a predictable attack: a penalty die (WR-17)", required=False),
                Field(
                    "margin",
                    "integer",
                    "the margin a special effect needs (WR-30)",
                    required=False,
                    minimum=0,
                    maximum=MAX_GM_DICE * 4,
                    free=True,
                ),
                Field("cover", "choice", "the target's cover", required=False, choices=tuple(COVER)),
                Field("darkness", "choice", "darkness or fog", required=False, choices=tuple(DARKNESS)),
            ),
            ("WR-14", "WR-17", "WR-30", "WR-31"),
        ),
        ActionType(
            "plea",
            "give a reason to live",
            (Field("reason", "string", "the reason, in the player's words", minimum=1, maximum=500, free=True),),
            ("WR-26",),
        ),
        ActionType("let_go", "let go", (), ("WR-26",)),
        ActionType(
            "verdict",
            "GM: answer a reason to live",
            (
                Field("lives", "boolean", "accept (true) or refuse (false)", required=False),
                Field("roll", "boolean", "roll for it instead", required=False),
            ),
            ("WR-26", "WR-X7"),
        ),
        ActionType(
            "serious",
            "GM: the kind of a serious wound",
            (
                Field(
                    "wound", "choice", "mis-heals, fatal, or no serious wound", choices=("mis_heal", "fatal", "none")
                ),
                Field(
                    "daily_loss",
                    "integer",
                    "HP a day a fatal wound costs",
                    required=False,
                    minimum=1,
                    maximum=15,
                    free=True,
                ),
            ),
            ("WR-34",),
        ),
        ActionType(
            "gestalt_roll",
            "roll for the gestalt fight",
            (_trait("the gestalt roll"), _experience("the gestalt roll")),
            ("WR-35",),
        ),
        ActionType(
            "gestalt_verdict",
            "GM: let a close gestalt result stand or overturn it",
            (Field("overturn", "boolean", "overturn the close result", required=False),),
            ("WR-35", "WR-X10"),
        ),
    )


#: Every action WaRP's ``step`` accepts (constants, built at import).
ACTION_TYPES: tuple[ActionType, ...] = _turn_types() + _decision_types()
