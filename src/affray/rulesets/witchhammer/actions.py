"""Every WitchHammer action type, declared once with its fields (:mod:`affray.core.actions`).

Card ids depend on the content, so they are strings here; ``step`` checks them against the hand. A commit's
``cards`` is a free parameter: a client may send any one or two cards of the hand in order (``legal`` lists every
ordered pair too). A ``withdraw`` takes back the last card placed, still face down.
Rules: WH-02, WH-03, WH-B8, WH-B18, WH-B20.
"""

from __future__ import annotations

from affray.core.actions import ActionType, Field

SLOTS = 2  # Rule: WH-03

ACTION_TYPES: tuple[ActionType, ...] = (
    ActionType(
        "psych",
        "play a Psych card face down",
        (Field("card", "string", "a Psych card id from the hand"),),
        ("WH-02",),
        "At most one a vignette, in the Psych phase; a sealed commit until the reveal.",
    ),
    ActionType(
        "place",
        "place an Action card face down",
        (Field("card", "string", "an Action card id from the hand"),),
        ("WH-03", "WH-B18"),
        "Fills the next empty slot (slot 1, then slot 2) in the Planning phase.",
    ),
    ActionType(
        "ready",
        "be ready",
        (),
        ("WH-02", "WH-03", "WH-B18"),
        "Done with this phase; in Planning, empty slots get the default card.",
    ),
    ActionType(
        "commit",
        "place cards in order, then be ready",
        (Field("cards", "list", "card ids from the hand, in slot order", minimum=0, maximum=SLOTS, free=True),),
        ("WH-02", "WH-03", "WH-B18"),
        "The same as placing each card and then ready (in the Psych phase, at most one Psych card).",
    ),
    ActionType(
        "withdraw",
        "take back the last card placed face down",
        (Field("slot", "integer", "the last slot filled (1 or 2)", minimum=1, maximum=SLOTS),),
        ("WH-03",),
        "In the Planning phase, before being ready (option planning_withdraw): the card returns to the hand; never "
        "on offer in the legal list, so no policy picks it.",
    ),
    ActionType(
        "timeout",
        "call time",
        (),
        ("WH-B20",),
        "The GM's, when the Drama Timer runs out: everyone still planning locks in as they are.",
    ),
    ActionType(
        "fate",
        "rule on a failed death's-door save",
        (
            Field("actor", "actor", "the PC awaiting the ruling"),
            Field("fate", "choice", "dies or survives", choices=("dies", "survives")),
        ),
        ("WH-29", "WH-B8"),
        "The GM's, with deaths_door_failure 'gm_decides'.",
    ),
)
