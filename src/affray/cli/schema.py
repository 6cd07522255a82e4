"""``affray schema``: the JSON Schemas a client or an editor reads (core/view.py, core/actions.py).

- ``affray schema view RULESET``: every view of that ruleset (the one envelope, the combatants, the ruleset's part);
- ``affray schema actions RULESET``: every action it accepts, field by field, free parameters marked ``x-free``;
- ``affray schema scenario RULESET``: its scenario files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated

import typer

from affray.cli.declared import RULESETS
from affray.cli.render import CliError
from affray.core.actions import actions_schema
from affray.core.engine import AnyRuleset
from affray.core.plugin import get_ruleset
from affray.core.view import view_schema

schema_app = typer.Typer(no_args_is_help=True, help="Print the JSON Schema of a ruleset's views, actions or scenarios.")
RulesetArg = Annotated[str, typer.Argument(help=f"the ruleset: {RULESETS}")]


def _ruleset(name: str) -> AnyRuleset:
    try:
        return get_ruleset(name)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


def _print(schema: Mapping[str, object]) -> None:
    print(json.dumps(schema, indent=1, sort_keys=True))


@schema_app.command("view")
def view_cmd(ruleset: RulesetArg) -> None:
    """The JSON Schema of the ruleset's views."""
    rs = _ruleset(ruleset)
    if len(rs.view_types) != 2:
        raise CliError(f"{ruleset} does not declare its view types")
    _print(view_schema(*rs.view_types))


@schema_app.command("actions")
def actions_cmd(ruleset: RulesetArg) -> None:
    """The JSON Schema of the ruleset's actions (one object schema per action type)."""
    rs = _ruleset(ruleset)
    _print(actions_schema(rs.name, rs.action_types()))


@schema_app.command("scenario")
def scenario_cmd(ruleset: RulesetArg) -> None:
    """The JSON Schema of the ruleset's scenario files."""
    _print(_ruleset(ruleset).scenario_type.model_json_schema())
