"""JSON values as types: what a log, a setup or an action holds at runtime (plain ``json`` data)."""

from __future__ import annotations

from typing import TypeAlias

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
JsonObject: TypeAlias = "dict[str, Json]"
