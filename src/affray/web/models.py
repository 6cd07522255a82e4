"""Request bodies of the API: strict (no coercion of "3" to 3) and closed (an unknown field is refused)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

SUBMISSION_ID = r"^[A-Za-z0-9_.:-]{1,60}$"


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewTableBody(Body):
    """``POST /api/tables``: an example name or scenario YAML text, rule options, controllers, a public seed."""

    scenario: str = Field(
        min_length=1,
        max_length=128 * 1024,
        description="an example's path under examples/ without .yaml, or scenario YAML text",
    )
    options: dict[str, Any] = Field(default_factory=dict, description="rule options over the scenario's")
    controllers: dict[str, str] = Field(
        default_factory=dict, description="ACTOR: human (a player), gm (the GM's seat) or a policy name"
    )
    seats: dict[str, str] = Field(
        default_factory=dict, description="ACTOR: the player seat that plays it (actors may share a seat)"
    )
    seed: int | None = Field(default=None, description="null: a secret seed; an integer: a public one")
    spectator: bool = Field(default=True, description="make a spectator link")


class ScenarioText(Body):
    """``POST /api/scenarios/check``: scenario YAML text, as a table would be opened from it."""

    scenario: str = Field(min_length=1, max_length=128 * 1024)


class ActionBody(Body):
    """``POST /api/tables/ID/actions``."""

    actor: str = Field(min_length=1, max_length=64)
    action: dict[str, Any]
    version: int = Field(ge=0, description="the version the action was chosen at")
    id: str | None = Field(
        default=None,
        pattern=SUBMISSION_ID,
        description="a submission id: a retry with the same id returns the first answer",
    )


class TakeBackBody(Body):
    """``POST /api/tables/ID/take_back``: a player's own last action."""

    version: int = Field(ge=0)


class RewindBody(Body):
    """``POST /api/tables/ID/gm/take_back``: back to version ``to``; ``confirm`` must be true."""

    to: int = Field(ge=0)
    version: int = Field(ge=0)
    confirm: bool = False


class TimerBody(Body):
    """``POST /api/tables/ID/gm/timer``: start the ruleset's countdown for ``seconds`` (null stops it)."""

    seconds: float | None = None


class AdjustBody(Body):
    """``POST /api/tables/ID/gm/adjust``: a GM ruling (``docs/table.md``, "GM rulings")."""

    version: int = Field(ge=0, description="the version the ruling was made at")
    id: str | None = Field(default=None, pattern=SUBMISSION_ID, description="a submission id (retries act once)")
    reason: str = Field(default="", max_length=300, description="why, in the GM's words (every seat reads it)")
    changes: list[dict[str, Any]] = Field(
        min_length=1,
        max_length=20,
        description=(
            "each {combatant, bar, value}, {combatant, status, rounds}, {combatant, remove_status}, "
            "{combatant, position} or {combatant, out}"
        ),
    )


class ChatBody(Body):
    """``POST /api/tables/ID/chat``: a line to everyone (``to`` null), to the GM (``"gm"``) or to a seat."""

    text: str = Field(max_length=2000)
    to: str | None = Field(default=None, max_length=64)


class RollBody(Body):
    """``POST /api/tables/ID/roll``: a free roll in the notation of ``affray roll``, to everyone or whispered."""

    notation: str = Field(min_length=1, max_length=200)
    to: str | None = Field(default=None, max_length=64)
