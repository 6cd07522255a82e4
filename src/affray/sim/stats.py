"""Counting fights: an aggregate that merges exactly (integer counts, sums merged in chunk order), and the
statistics a balance report needs (Wilson intervals, tails of the rounds distribution)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from affray.core.engine import ESCAPED, CombatantReport, Outcome

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(slots=True)
class CombatantTally:
    side: str
    down: int = 0
    dead: int = 0
    hp_left: int = 0
    hp_max: int = 0
    dealt: int = 0
    taken: int = 0
    conditions: dict[str, int] = field(default_factory=dict)
    extra: dict[str, float] = field(default_factory=dict)

    def add(self, r: CombatantReport) -> None:
        self.down += r.down
        self.dead += r.dead
        self.hp_left += r.hp
        self.hp_max = r.hp_max
        self.dealt += r.damage_dealt
        self.taken += r.damage_taken
        for c in r.conditions:
            self.conditions[c] = self.conditions.get(c, 0) + 1
        for k, v in r.extra.items():
            self.extra[k] = self.extra.get(k, 0.0) + v

    def merge(self, other: CombatantTally) -> None:
        self.down += other.down
        self.dead += other.dead
        self.hp_left += other.hp_left
        self.hp_max = other.hp_max or self.hp_max
        self.dealt += other.dealt
        self.taken += other.taken
        for c, v in other.conditions.items():
            self.conditions[c] = self.conditions.get(c, 0) + v
        for k, x in other.extra.items():
            self.extra[k] = self.extra.get(k, 0.0) + x


@dataclass(frozen=True, slots=True)
class FightRecord:
    """One fight of a run as ``affray sim --records`` writes it: its place in the run, its seed, how it ended
    (the outcome's label: a side, ``draw`` or ``escaped``, and its reason), its rounds and each combatant's end state
    as the ruleset reports it."""

    index: int
    seed: int
    winner: str
    reason: str
    rounds: int
    combatants: Mapping[str, CombatantReport]


@dataclass(slots=True)
class Tally:
    """Everything counted over some fights. Merging tallies in a fixed order gives identical results.

    ``records``: the chunk's fights one by one, when the run keeps them (``SimSpec.records``); a run hands each
    chunk's records to its sink in index order and never merges them, so memory does not grow with the run."""

    fights: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    escapes: int = 0  # fights that ended because a side got away: neither a win nor a draw (WL-B14)
    rounds: dict[int, int] = field(default_factory=dict)
    combatants: dict[str, CombatantTally] = field(default_factory=dict)
    records: list[FightRecord] = field(default_factory=list)

    def add(self, outcome: Outcome | None, rounds: int, reports: Mapping[str, CombatantReport]) -> None:
        self.fights += 1
        if outcome is not None and outcome.reason == ESCAPED:
            self.escapes += 1
        elif outcome is None or outcome.winner is None:
            self.draws += 1
        else:
            self.wins[outcome.winner] = self.wins.get(outcome.winner, 0) + 1
        self.rounds[rounds] = self.rounds.get(rounds, 0) + 1
        for actor, r in reports.items():
            tally = self.combatants.get(actor)
            if tally is None:
                tally = self.combatants[actor] = CombatantTally(r.side)
            tally.add(r)

    def merge(self, other: Tally) -> None:
        self.fights += other.fights
        self.draws += other.draws
        self.escapes += other.escapes
        for side, v in other.wins.items():
            self.wins[side] = self.wins.get(side, 0) + v
        for k, v in other.rounds.items():
            self.rounds[k] = self.rounds.get(k, 0) + v
        for actor, t in other.combatants.items():
            mine = self.combatants.get(actor)
            if mine is None:
                self.combatants[actor] = CombatantTally(t.side)
                mine = self.combatants[actor]
            mine.merge(t)


def rounds_tail(rounds: Mapping[int, int], n: int) -> list[tuple[int, float]]:
    """P(rounds >= k) for every k from 1 to the longest fight."""
    out, remaining = [], n
    for k in range(1, max(rounds, default=0) + 1):
        out.append((k, remaining / n if n else 0.0))
        remaining -= rounds.get(k, 0)
    return out


def summary(tally: Tally, sides: list[str], names: Mapping[str, str]) -> dict[str, Any]:
    """The report as plain data (the ``--json`` output)."""
    n = tally.fights
    side_rows = {}
    for side in sides:
        k = tally.wins.get(side, 0)
        lo, hi = wilson(k, n)
        side_rows[side] = {"wins": k, "win_rate": k / n if n else 0.0, "ci95": [lo, hi]}
    lo, hi = wilson(tally.draws, n)
    elo, ehi = wilson(tally.escapes, n)
    mean_rounds = sum(k * v for k, v in tally.rounds.items()) / n if n else 0.0
    combatants = {}
    for actor, t in tally.combatants.items():
        combatants[actor] = {
            "name": names.get(actor, actor),
            "side": t.side,
            "p_down": t.down / n if n else 0.0,
            "p_down_ci95": list(wilson(t.down, n)),
            "p_dead": t.dead / n if n else 0.0,
            "p_dead_ci95": list(wilson(t.dead, n)),
            "hp_left_mean": t.hp_left / n if n else 0.0,
            "hp_max": t.hp_max,
            "damage_dealt_mean": t.dealt / n if n else 0.0,
            "damage_taken_mean": t.taken / n if n else 0.0,
            "conditions": {c: v / n for c, v in sorted(t.conditions.items())},
            "extra_means": {k: v / n for k, v in sorted(t.extra.items())},
        }
    return {
        "fights": n,
        "sides": side_rows,
        "draws": {"count": tally.draws, "rate": tally.draws / n if n else 0.0, "ci95": [lo, hi]},
        "escapes": {"count": tally.escapes, "rate": tally.escapes / n if n else 0.0, "ci95": [elo, ehi]},
        "rounds": {
            "mean": mean_rounds,
            "distribution": {str(k): v for k, v in sorted(tally.rounds.items())},
            "tail": [{"k": k, "p_at_least": p} for k, p in rounds_tail(tally.rounds, n)],
        },
        "combatants": combatants,
    }


@dataclass(frozen=True, slots=True)
class OutcomeRow:
    """One outcome of a report: a side's wins, the draws or the escapes, as a count, a rate and its 95% interval."""

    label: str
    count: int
    rate: float
    ci95: tuple[float, float]
    side: bool  # a side's wins (the others are "draw" and "escaped")


def outcome_rows(report: Mapping[str, Any]) -> list[OutcomeRow]:
    """Every outcome a :func:`summary` report counts, in the order every report shows them: each side's wins, the
    draws, the escapes (WL-B14). The table, the plots and the sweep all list these, so none drops one."""
    rows = [
        OutcomeRow(side, row["wins"], row["win_rate"], (row["ci95"][0], row["ci95"][1]), True)
        for side, row in report["sides"].items()
    ]
    for label, key in (("draw", "draws"), (ESCAPED, "escapes")):
        row = report[key]
        rows.append(OutcomeRow(label, row["count"], row["rate"], (row["ci95"][0], row["ci95"][1]), False))
    return rows
