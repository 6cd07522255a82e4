"""``--policy``'s help names every policy a scenario may be given: the union of every registered ruleset's
policies (:func:`affray.ai.base.policy_names`), so no policy is missing from what ``affray CMD --help`` says."""

from __future__ import annotations

import pytest

from affray.ai.base import policy_names
from affray.core.plugin import plugin_names
from tests.cli_run import affray


@pytest.mark.parametrize("command", ["fight", "sim", "sweep", "balance"])
def test_policy_help_names_every_policy(command: str) -> None:
    done = affray(command, "--help", env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    every = sorted({name for ruleset in plugin_names() for name in policy_names(ruleset)})
    assert every == ["heuristic", "random", "search", "steady"]
    assert [name for name in every if name not in said] == []
    assert ("human" in said) == (command == "fight")  # only a fight seats a person at the terminal
