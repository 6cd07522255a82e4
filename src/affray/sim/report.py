"""A simulation's report as typed data (:func:`affray.simulate`), and what makes it reproducible from itself.

:class:`SimReport` holds the numbers (each side's wins, the draws and the escapes as :class:`Rate` with 95% Wilson
intervals, the rounds' mean and distribution, each combatant's :class:`CombatantRisk`) and the run's stamp: the
scenario (:class:`ScenarioStamp`: its path, the SHA-256 of its file and of what was simulated), the seed, the policy
of every seat that acted, the engine (``fast``, ``full`` or ``batch``), affray's version and the ruleset's rules
version. :meth:`SimReport.to_json` is exactly what ``affray sim --json`` prints (the command adds its ``chunks`` and
``sample``), so a report from Python and one from the command line compare equal for the same seed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from affray.sim.stats import rounds_tail


def affray_version() -> str:
    """The installed affray's version (``unknown`` when it runs from a source tree that was never installed)."""
    try:
        return version("affray")
    except PackageNotFoundError:
        return "unknown"


def setup_digest(ruleset: str, rules_version: str, setup: Mapping[str, object], options: Mapping[str, object]) -> str:
    """SHA-256 of what a run simulates: the ruleset, its rules version, the resolved setup (content included) and
    the options, as canonical JSON. Two scenario files that differ only in comments or layout have the same one."""
    text = json.dumps(
        {"ruleset": ruleset, "rules_version": rules_version, "setup": setup, "options": options},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Rate:
    """A share of the fights: ``count`` of them, the ``rate`` and its 95% Wilson interval ``low``..``high``."""

    count: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, row: Mapping[str, Any], count: str, rate: str, ci: str) -> Rate:
        return cls(int(row[count]), float(row[rate]), float(row[ci][0]), float(row[ci][1]))


@dataclass(frozen=True, slots=True)
class CombatantRisk:
    """How one combatant ended over the run: the chance of going down and of dying (by its ruleset's death rule)
    with their intervals, the mean Health left (of ``hp_max``), damage dealt and taken, the share of fights ending
    with each lasting condition, and the means of its ruleset's extra numbers."""

    id: str
    name: str
    side: str
    down: Rate
    dead: Rate
    hp_left_mean: float
    hp_max: int
    damage_dealt_mean: float
    damage_taken_mean: float
    conditions: Mapping[str, float]
    extra_means: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class ScenarioStamp:
    """Which scenario was simulated: its ``name``, its ``path``, ``sha256`` of the file's text (what ``sha256sum``
    prints for it; ``None`` when the scenario was not read from a file) and ``setup_sha256``, the digest of what was
    simulated (:func:`setup_digest`: its content files resolved, so it also changes when they change)."""

    name: str
    path: str
    sha256: str | None
    setup_sha256: str


@dataclass(frozen=True, slots=True)
class SimReport:
    """The report of ``fights`` simulated fights (see the module docstring). ``wins`` maps each side to its
    :class:`Rate`; ``rounds`` maps a fight's length to how many fights lasted that long (``round_word`` is what the
    ruleset calls a round, e.g. ``vignette``); ``combatants`` maps each combatant's id to its risks;
    ``policies`` maps each seat that acted to its policy; ``engine`` is ``fast``, ``full`` or ``batch``, ``path``
    its label; ``notes`` say what a reader could not guess (a person's combatant played by a policy)."""

    fights: int
    wins: Mapping[str, Rate]
    draws: Rate
    escapes: Rate
    rounds_mean: float
    rounds: Mapping[int, int]
    round_word: str
    combatants: Mapping[str, CombatantRisk]
    scenario: ScenarioStamp
    ruleset: str
    rules_version: str
    seed: int
    policies: Mapping[str, str]
    engine: str
    path: str
    version: str
    notes: tuple[str, ...]
    interrupted: bool = False

    def rounds_at_least(self, k: int) -> float:
        """P(rounds >= k)."""
        return sum(v for r, v in self.rounds.items() if r >= k) / self.fights if self.fights else 0.0

    @classmethod
    def from_summary(cls, summary: Mapping[str, Any], **stamp: Any) -> SimReport:
        """From :func:`affray.sim.stats.summary`'s plain data and the run's stamp (the other fields)."""
        risks = {
            actor: CombatantRisk(
                actor,
                c["name"],
                c["side"],
                _risk(c, "down", summary["fights"]),
                _risk(c, "dead", summary["fights"]),
                c["hp_left_mean"],
                c["hp_max"],
                c["damage_dealt_mean"],
                c["damage_taken_mean"],
                dict(c["conditions"]),
                dict(c["extra_means"]),
            )
            for actor, c in summary["combatants"].items()
        }
        return cls(
            fights=summary["fights"],
            wins={side: Rate.of(row, "wins", "win_rate", "ci95") for side, row in summary["sides"].items()},
            draws=Rate.of(summary["draws"], "count", "rate", "ci95"),
            escapes=Rate.of(summary["escapes"], "count", "rate", "ci95"),
            rounds_mean=summary["rounds"]["mean"],
            rounds={int(k): v for k, v in summary["rounds"]["distribution"].items()},
            combatants=risks,
            **stamp,
        )

    def to_json(self) -> dict[str, Any]:
        """The report as ``affray sim --json`` prints it (plain data, JSON-ready)."""
        n = self.fights
        return {
            "fights": n,
            "sides": {
                side: {"wins": r.count, "win_rate": r.rate, "ci95": [r.low, r.high]} for side, r in self.wins.items()
            },
            "draws": _rate_json(self.draws),
            "escapes": _rate_json(self.escapes),
            "rounds": {
                "mean": self.rounds_mean,
                "distribution": {str(k): v for k, v in sorted(self.rounds.items())},
                "tail": [{"k": k, "p_at_least": p} for k, p in rounds_tail(self.rounds, n)],
                "word": self.round_word,
            },
            "combatants": {
                actor: {
                    "name": c.name,
                    "side": c.side,
                    "p_down": c.down.rate,
                    "p_down_ci95": [c.down.low, c.down.high],
                    "p_dead": c.dead.rate,
                    "p_dead_ci95": [c.dead.low, c.dead.high],
                    "hp_left_mean": c.hp_left_mean,
                    "hp_max": c.hp_max,
                    "damage_dealt_mean": c.damage_dealt_mean,
                    "damage_taken_mean": c.damage_taken_mean,
                    "conditions": dict(c.conditions),
                    "extra_means": dict(c.extra_means),
                }
                for actor, c in self.combatants.items()
            },
            "scenario": {
                "name": self.scenario.name,
                "path": self.scenario.path,
                "sha256": self.scenario.sha256,
                "setup_sha256": self.scenario.setup_sha256,
            },
            "ruleset": self.ruleset,
            "rules_version": self.rules_version,
            "seed": self.seed,
            "policies": dict(self.policies),
            "engine": self.engine,
            "path": self.path,
            "version": self.version,
            "notes": list(self.notes),
            "interrupted": self.interrupted,
        }

    def stamp_line(self) -> str:
        """The run in one line, as the text report and the plots print it: scenario, digest, fights, seed,
        policies, engine, version."""
        return stamp_line(
            self.scenario,
            self.seed,
            self.policies,
            self.engine,
            self.version,
            self.ruleset,
            self.rules_version,
            f"{self.fights:,} fights",
        )


def stamp_line(
    scenario: ScenarioStamp,
    seed: int,
    policies: Mapping[str, str],
    engine: str,
    version: str,
    ruleset: str,
    rules_version: str,
    fights: str,
) -> str:
    digest = scenario.sha256 or scenario.setup_sha256
    played = ", ".join(f"{actor}={name}" for actor, name in policies.items()) or "the duel model's"
    return (
        f"{scenario.path} (sha256 {digest[:12]}) · {fights} · seed {seed} · policies {played} · "
        f"engine {engine} · affray {version}, {ruleset} rules {rules_version}"
    )


def _risk(c: Mapping[str, Any], what: str, n: int) -> Rate:
    rate = float(c[f"p_{what}"])
    low, high = c[f"p_{what}_ci95"]
    return Rate(round(rate * n), rate, float(low), float(high))


def _rate_json(r: Rate) -> dict[str, Any]:
    return {"count": r.count, "rate": r.rate, "ci95": [r.low, r.high]}
