"""affray: a rules-true combat engine for tabletop role-playing games.

The same rules code runs a table, answers exact odds and simulates thousands of fights. Entry points:

- :func:`load_scenario` reads a scenario file into a :class:`Scenario`, :func:`scenario_from_data` builds one
  from a mapping in code; ``Scenario.start(seed)`` gives a :class:`Match`.
- ``Match.pending()``, ``Match.legal(actor)``, ``Match.act(actor, action)``, ``Match.view(seat)``,
  ``Match.events()`` and ``Match.outcome()`` step and read a match.
- :func:`play` lets policies play the seats they control; :func:`export_log`, :func:`import_log` and
  :func:`verify` handle the log of record.
- :func:`simulate` plays a scenario many times and returns a typed :class:`SimReport` (win rates with intervals,
  rounds, each combatant's risks, and what reproduces the run), the numbers ``affray sim`` prints.

See ``docs/library.md``.
"""

import affray.rulesets  # noqa: F401  (registers the built-in rulesets)
from affray.ai.runner import play
from affray.api import Scenario, balance, load_scenario, scenario_from_data, simulate
from affray.core.engine import ActionSpec, Outcome, Rejected, Viewer, Window
from affray.core.log import export_log, import_log, read_log, verify, write_log
from affray.core.match import Match
from affray.core.plugin import get_ruleset, ruleset_names
from affray.sim.balance import Balance, Probe
from affray.sim.report import CombatantRisk, Rate, ScenarioStamp, SimReport

__all__ = [
    "ActionSpec",
    "Balance",
    "CombatantRisk",
    "Match",
    "Outcome",
    "Probe",
    "Rate",
    "Rejected",
    "Scenario",
    "ScenarioStamp",
    "SimReport",
    "Viewer",
    "Window",
    "balance",
    "export_log",
    "get_ruleset",
    "import_log",
    "load_scenario",
    "play",
    "read_log",
    "ruleset_names",
    "scenario_from_data",
    "simulate",
    "verify",
    "write_log",
]
__version__ = "0.1.0"
