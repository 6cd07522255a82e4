"""Sim HuD benchmarks, with their anchors measured in the same run.

1. Combat Nerdified one-on-one (Vesna against Sergeant Hald) through the full engine: Match, legal
   actions, per-seat views, the heuristic policy, events and the action log, on the fast RNG.
2. The same fight on the simulation fast path (:func:`affray.sim.fast.play_fast`: quiet journal, trusted
   actions, the typed observation and choices).
3. The same fight as a hand-written plain-Python loop: the same rules (WL-09..WL-22 as the engine runs
   them for these two) and the same decisions as the heuristic policy, no engine. The ratio engine/loop
   is the engine's overhead (goal: at least 0.2).
4. Replaying a 10,000-action log on the verifiable (HMAC) RNG (goal: under 1 s).

Run: ``.venv/bin/python bench/bench_hud.py`` (or ``make bench``). Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import affray
from affray.ai.runner import play
from affray.core.engine import Action
from affray.core.match import Match
from affray.core.rng import FastRNG, seed_from_int
from affray.rulesets.hud.mechanics import pursuit_step

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))
from bench import fastpath  # noqa: E402  (run as a script: the project root on the path)

DUEL = ROOT / "examples" / "hud" / "nerdified_duel.yaml"


def engine_fights(n: int) -> float:
    scenario = affray.load_scenario(DUEL)
    start = time.perf_counter()
    for i in range(n):
        match = Match(
            scenario.plugin,
            scenario.setup,
            scenario.options,
            rng=FastRNG(i),
            seats=scenario.seats,
            controllers=scenario.controllers,
            shared=scenario.shared,
        )
        play(match, scenario.policies(match), FastRNG(i + 1))
    return n / (time.perf_counter() - start)


def fast_fights(n: int) -> float:
    """Fights per second of ``n`` fights on the fast path (the same fights as the full engine plays)."""
    return fastpath.fast_fights(DUEL, n)


class Side:
    """One duellist of the hand-written loop, with its HuD modifiers (WL-B2) precomputed."""

    __slots__ = (
        "armour",
        "attack",
        "damage",
        "defense",
        "defenses",
        "hp",
        "injury",
        "max_hp",
        "penalty",
        "penalty_next",
        "speed",
        "used",
    )

    def __init__(self, hp: int, attack: int, defense: int, damage: int, injury: int, armour: int, speed: int):
        self.hp = self.max_hp = hp
        self.attack, self.defense, self.damage, self.injury = attack, defense, damage, injury
        self.armour, self.speed = armour, speed
        self.defenses = self.used = self.penalty = self.penalty_next = 0

    def badly_hurt_against(self, foe: Side) -> bool:
        return 4 * self.hp <= self.max_hp and foe.hp > 2 * self.hp


class LoopDuel:
    """Vesna (steel sword, brigandine) against Hald (halberd, plate): the heuristic's choices inlined.

    Each round: Chance initiative (ties re-rolled), both declare attack + defense, the higher acts first;
    a defender defends while it can, else spends its emergency action when at half HP or less; a parry by
    6 opens a riposte; the badly hurt winner of an exchange disengages into a foot chase.
    """

    def __init__(self, rnd: random.Random) -> None:
        self.below = rnd.randrange
        self.a = Side(8, 0, 1, 1, 2, 1, 3)
        self.b = Side(8, -1, 1, 3, 4, 2, 3)
        self.fled: Side | None = None

    def d(self, sides: int) -> int:
        return self.below(sides) + 1

    def fight(self) -> Side | None:
        a, b = self.a, self.b
        first: Side | None = None
        for _ in range(200):
            for s in (a, b):
                s.defenses, s.used, s.penalty, s.penalty_next = 1, 0, s.penalty_next, 0
            ra, rb = self.d(11), self.d(11)
            while ra == rb:
                ra, rb = self.d(11), self.d(11)
            order = (a, b) if ra > rb else (b, a)
            if first is not None:
                order, first = (first, b if first is a else a), None
            for att in order:
                dfn = b if att is a else a
                self.fled = None
                self.attack(att, dfn, riposte=False)
                if a.hp <= 0 or b.hp <= 0:
                    return a if b.hp <= 0 else b
                if self.fled is not None:
                    chaser = b if self.fled is a else a
                    if not self.chase(self.fled, chaser):
                        return chaser
                    first = chaser
                    break
        return None

    def attack(self, att: Side, dfn: Side, riposte: bool) -> None:
        if dfn.defenses:
            dfn.defenses -= 1
        elif dfn.used == 0 and 2 * dfn.hp <= dfn.max_hp:
            dfn.used, dfn.penalty_next = 1, -2
        else:
            self.damage(att, dfn)
            return
        at = self.d(13) + att.attack + att.penalty
        de = self.d(13) + dfn.defense + dfn.penalty
        if at > de:
            if att.badly_hurt_against(dfn):
                self.fled = att
            else:
                self.damage(att, dfn)
        elif dfn.badly_hurt_against(att):
            self.fled = dfn
        elif de - at >= 6:
            self.attack(dfn, att, riposte=True)

    def damage(self, att: Side, dfn: Side) -> None:
        loss = self.d(13) + att.damage + att.penalty - (self.d(13) + dfn.injury + dfn.penalty)
        if loss > 0:
            dfn.hp -= loss

    def chase(self, runner: Side, chaser: Side) -> bool:
        """True when the chaser catches up (back in combat), False when the runner escapes."""
        gap = 0
        while True:
            flee = self.d(11) + runner.speed - runner.armour + runner.penalty
            pursue = self.d(11) + chaser.speed - chaser.armour + chaser.penalty
            gap, state = pursuit_step(gap, flee, pursue)
            if state != "running":
                return state == "caught"


def loop_fights(n: int) -> float:
    rnd = random.Random(1)
    start = time.perf_counter()
    for _ in range(n):
        LoopDuel(rnd).fight()
    return n / (time.perf_counter() - start)


def replay_seconds(actions: int = 10_000) -> float:
    scenario = affray.load_scenario(DUEL)
    match = Match(
        scenario.plugin,
        scenario.setup,
        {"round_limit": actions},
        seed=seed_from_int(1),
        seats=scenario.seats,
        controllers=scenario.controllers,
        shared=scenario.shared,
    )
    guard: Action = {"type": "declare", "plan": [{"type": "defense"}, {"type": "defense"}], "additional": False}
    while len(match.log) < actions:
        window = match.pending()
        assert window is not None
        # WL-17: each initiative step offers an emergency action; the guard carries on
        match.act(window.actors[0], guard if window.phase == "declare" else {"type": "carry_on"})
    start = time.perf_counter()
    match.replayed()
    return time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    engine = engine_fights(n)
    fast = fast_fights(n)
    loop = loop_fights(n * 5)
    print(f"Combat Nerdified 1v1, full engine:      {engine:10,.0f} fights/s per core")
    print(f"Combat Nerdified 1v1, fast path:        {fast:10,.0f} fights/s per core  (x{fast / engine:.2f})")
    print(f"Combat Nerdified 1v1, hand-written loop: {loop:10,.0f} fights/s per core")
    print(f"ratio engine/loop:                       {engine / loop:10.3f}  (goal >= 0.2)")
    print(f"replay of a 10,000-action log:           {replay_seconds():10.3f} s  (goal < 1 s)")


if __name__ == "__main__":
    main()
