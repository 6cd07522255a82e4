"""Exact-odds benchmarks, each against icepool measured in the same run.

1. Single checks, each by affray's odds module and by icepool mapping the same mechanics (goal: affray no
   slower): the Sim HuD exchange's HP-loss distribution (d13 attack vs d13 defense, then d13 damage vs d13
   injury); the WitchHammer attack of the seed (8+3 against Defense 4, 2 Damage on Solid Hit) landing on
   WH-19's target (Poise 5, Health 14): the Wounds distribution; a WaRP attack (3 dice + a bonus die against
   2 dice, a sword's x3, 1 die + 1 point of armour): the damage after armour.
2. The reference duel (A and B at 20 HP; each round A deals max(0, 3d6-2d6) and B deals
   max(0, 2d6+1-3d6), at the same time), by affray and by icepool's map(..., repeat='inf') (goal: at least
   1000x faster, the same answer to 12 digits). icepool takes about a minute here.

3. Each ruleset's named checks (``affray odds hud exchange``, ``warp attack``, ``witchhammer attack|save``,
   ``spellchrome attack|save|dying``) through ``run_check``, as the command runs them, against the plain icepool
   expression of the same check (icepool's dice and operators; a d20 mapped by a function where a rule is not
   arithmetic; the dying clock as ``map(..., repeat='inf')``). Goal: every check at least as fast as icepool,
   computed from scratch (its caches cleared before every call); the warm figure is a second call's.

Run: ``.venv/bin/python bench/bench_odds.py [HP]`` (``--checks``: part 3 only, seconds instead of a minute). Prints
figures; asserts only that affray and icepool give the same distributions.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

import icepool

from affray.core.checks import Check, CheckResult
from affray.core.plugin import plugin
from affray.odds.checks import run_check
from affray.odds.reference import reference_duel
from affray.rulesets.hud.mechanics import exchange, hp_loss
from affray.rulesets.hud.odds import exchange_odds
from affray.rulesets.warp import odds as warp_odds
from affray.rulesets.warp.mechanics import armour_absorb, damage, hit
from affray.rulesets.witchhammer import odds as wh_odds
from affray.rulesets.witchhammer.mechanics import apply_damage, attack


def timed(func: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    start = time.perf_counter()
    for _ in range(repeat):
        result = func()
    return (time.perf_counter() - start) / repeat, result


def icepool_exchange() -> dict[int, Fraction]:
    def loss(a: int, d: int, g: int, i: int) -> int:
        return hp_loss(g, i) if exchange(a, d).hit else 0

    die = icepool.map(loss, icepool.d13, icepool.d13, icepool.d13, icepool.d13)
    return {int(k): Fraction(int(q), int(die.denominator())) for k, q in die.items()}


def ours_exchange() -> dict[int, Fraction]:
    exchange_odds.cache_clear()
    return exchange_odds().hp_loss


def as_fractions(die: Any) -> dict[int, Fraction]:
    return {int(k): Fraction(int(q), int(die.denominator())) for k, q in die.items()}


def icepool_wh_wounds() -> dict[int, Fraction]:
    """The same mechanics mapped over icepool's d20: attack(), the Solid-Hit bonus, apply_damage(), the Crit's
    Wound (WH-15..WH-19, WH-B4, WH-B5)."""

    def wounds(natural: int) -> int:
        r = attack(natural, 11, 4)
        total = r.damage + (2 if r.solid else 0)
        return (apply_damage(5, 14, total)[2] if total else 0) + r.bonus_wounds

    return as_fractions(icepool.d20.map(wounds))


def ours_wh_wounds() -> dict[int, Fraction]:
    wh_odds.blow_counts.cache_clear()
    odds = wh_odds.attack_odds(11, 4, solid_bonus=2, target=(5, 14))
    assert odds.wounds is not None
    return odds.wounds


def icepool_warp_damage() -> dict[int, Fraction]:
    """3d6 + a bonus die (the best 3 of 4) against 2d6; hit(), damage() x3 and armour_absorb() over 1d6 + 1."""

    def through(a: int, d: int, rolled: int) -> int:
        return armour_absorb(damage(a, d, 3), rolled, 1) if hit(a, d) else 0

    attack_roll = icepool.d6.pool(4).highest(3).sum()
    return as_fractions(icepool.map(through, attack_roll, 2 @ icepool.d6, icepool.d6))


def ours_warp_damage() -> dict[int, Fraction]:
    for cached in (warp_odds.roll_counts, warp_odds.faces_counts, warp_odds.armour_counts, warp_odds.exchange_dist):
        cached.cache_clear()
    return warp_odds.attack_odds(3, 2, attack_bonus=1, factor=3, armour=warp_odds.Armour(1, 1)).damage


def best_of(func: Callable[[], Any], repeat: int = 7, number: int = 3) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs of ``number`` calls (per call): the machine's noise only adds time."""
    result = func()
    return min(timed(func, number)[0] for _ in range(repeat)), result


def single_check(name: str, ours: Callable[[], Any], theirs: Callable[[], Any]) -> None:
    """Both sides computed from scratch on every call (affray's caches cleared), best of 7."""
    t_ours, a = best_of(ours)
    t_ice, b = best_of(theirs)
    assert a == b, f"{name}: affray and icepool disagree"
    print(
        f"single check ({name}): affray {t_ours * 1e3:8.2f} ms   icepool {t_ice * 1e3:8.2f} ms"
        f"   ratio {t_ice / t_ours:6.1f}x  (same distribution)"
    )


# -- 3. each ruleset's named checks against the plain icepool expression of the same check --------------------------


def _marginal(die: Any, i: int) -> Any:
    return die.marginals[i]


def _p(die: Any, outcome: Any = True) -> Fraction:
    """P(``outcome``) of an icepool die, exactly."""
    return Fraction(int(die.quantity(outcome)), int(die.denominator()))


def ice_hud_exchange(am: int, dm: int, gm: int, im: int, margin: int) -> dict[str, Any]:
    """WL-11..WL-13 in icepool's operators: d13 + mods, a hit on Attack > Defense, a riposte on Defense - Attack
    >= the margin, max(0, Damage - Injury) on a hit."""
    attack, defense = icepool.d13 + am, icepool.d13 + dm
    hit = attack > defense
    loss = hit.if_else(((icepool.d13 + gm) - (icepool.d13 + im)).clip(0), 0)
    return {"p_hit": _p(hit), "p_riposte": _p(defense - attack >= margin), "hp_loss": as_fractions(loss)}


def ice_hud_simplified(am: int, dm: int) -> dict[str, Any]:
    """WL-06: the attacker's d13 + modifier beats the defender's."""
    return {"p_hit": _p(icepool.d13 + am > icepool.d13 + dm)}


def ice_warp_attack(dice: int, bonus: int, defense: int, factor: int, armour_dice: int, points: int) -> dict[str, Any]:
    """WR-02 (a bonus die: the best ``dice`` of ``dice + bonus``), WR-10 (a tie misses), WR-11 (margin x factor),
    WR-19 (armour dice + points, never below 0)."""
    attack = icepool.d6.pool(dice + bonus).highest(dice).sum()
    defense = defense @ icepool.d6
    hit = attack > defense
    raw = (attack - defense).clip(0) * factor
    through = (raw - armour_dice @ icepool.d6 - points).clip(0)
    return {"p_hit": _p(hit), "damage": as_fractions(through)}


def ice_wh_attack(bonus: int, defense: int, solid_bonus: int, poise: int, health: int) -> dict[str, Any]:
    """A d20 mapped to (hit, solid, crit, fumble, damage, wounds, down): WH-15..WH-19, WH-B4, WH-B5 (the damage
    through Poise by the ruleset's ``apply_damage``, the Crit's Wound added)."""

    def blow(n: int) -> tuple[bool, bool, bool, bool, int, int, bool]:
        value = n + bonus - defense + (10 if n == 20 else -10 if n == 1 else 0)
        damage = value - 10 if value > 10 and n != 1 else 0
        solid = damage >= 10
        damage += solid_bonus if solid else 0
        crit = n == 20
        wounds = (apply_damage(poise, health, damage)[2] if damage else 0) + crit
        return damage >= 1, solid, crit, n == 1, damage, wounds, health - wounds <= 0

    die = icepool.d20.map(blow)
    names = ("p_hit", "p_solid_hit", "p_crit", "p_fumble")
    out: dict[str, Any] = {k: _p(_marginal(die, i)) for i, k in enumerate(names)}
    out.update(
        damage=as_fractions(_marginal(die, 4)), wounds=as_fractions(_marginal(die, 5)), p_down=_p(_marginal(die, 6))
    )
    return out


def ice_wh_save(bonus: int, difficulty: int, malus: int) -> dict[str, Any]:
    """WH-27, WH-B7: d20 + bonus + Malus, +-10 on a natural 20/1, against the difficulty."""
    total = icepool.d20.map(lambda n: n + bonus + malus + (10 if n == 20 else -10 if n == 1 else 0))
    return {"p_success": _p(total >= difficulty), "p_crit": _p(icepool.d20 == 20), "p_fumble": _p(icepool.d20 == 1)}


def ice_sc_attack(bonus: int, defense: int, damage: str, hp: int, ex_hp: int) -> dict[str, Any]:
    """SC-B1 (natural 1 misses, 20 hits, else d20 + bonus >= Defense), the damage dice at least 0, SC-07 (EX-HP
    first: the HP lost and below 1 HP) — the damage ``XdY+Z``."""
    count, rest = damage.split("d")
    sides, plus = (int(x) for x in rest.split("+"))
    hit = icepool.d20.map(lambda n: n == 20 or (n != 1 and n + bonus >= defense))
    dealt = hit.if_else((int(count) @ icepool.d(sides) + plus).clip(0), 0)
    lost = (dealt - ex_hp).clip(0)
    return {
        "p_hit": _p(hit),
        "p_crit": _p(icepool.d20 == 20),
        "p_fumble": _p(icepool.d20 == 1),
        "damage": as_fractions(dealt),
        "hp_loss": as_fractions(lost),
        "p_down": _p(hp - lost < 1),
    }


def ice_sc_save(bonus: int, dc: int) -> dict[str, Any]:
    """SC-12, SC-13: a natural 1 fails, a natural 20 succeeds, else d20 + bonus >= DC."""
    return {"p_success": _p(icepool.d20.map(lambda n: n == 20 or (n != 1 and n + bonus >= dc)))}


def ice_sc_dying(hp: int, fort: int) -> dict[str, Any]:
    """SC-04..SC-06, SC-B3..SC-B5 as icepool's absorbing chain (``map(..., repeat='inf')``) over (state, HP, rounds,
    HP lost, first round): 1d4 lost at the end of every round, the DC 22 save from the second round, dead at -30."""

    def step(st: tuple[str, int, int, int, bool], n: int, loss: int) -> tuple[str, int, int, int, bool]:
        kind, now, rounds, lost, first = st
        if kind != "dying":
            return st
        if not first and (n == 20 or (n != 1 and n + fort >= 22)):
            return "stable", now, rounds, lost, False
        if now - loss <= -30:
            return "dead", now - loss, rounds, lost + loss, False
        return "dying", now - loss, rounds + 1, lost + loss, False

    end = icepool.map(step, icepool.Die([("dying", hp, 1, 0, True)]), icepool.d20, icepool.d4, repeat="inf")
    return {
        "p_dead": _p(_marginal(end, 0), "dead"),
        "p_stable": _p(_marginal(end, 0), "stable"),
        "rounds": as_fractions(_marginal(end, 2)),
        "hp_loss": as_fractions(_marginal(end, 3)),
    }


#: (command, the check's parameters, the plain icepool expression of the same check)
NAMED: tuple[tuple[str, dict[str, Any], Callable[[], dict[str, Any]]], ...] = (
    ("hud exchange", {}, lambda: ice_hud_exchange(0, 0, 0, 0, 6)),
    (
        "hud exchange",
        {"attack_mod": 1, "defense_mod": 2, "damage_mod": 1, "injury_mod": 2},
        lambda: ice_hud_exchange(1, 2, 1, 2, 6),
    ),
    ("hud simplified-hit", {"attack_mod": 2, "defense_mod": 1}, lambda: ice_hud_simplified(2, 1)),
    (
        "warp attack",
        {"attack": 3, "defense": 2, "attack_bonus": 1, "factor": 3, "armour_dice": 1, "armour_points": 1},
        lambda: ice_warp_attack(3, 1, 2, 3, 1, 1),
    ),
    (
        "witchhammer attack",
        {"attack": 11, "defense": 4, "solid_bonus": 2, "target_poise": 5, "target_health": 14},
        lambda: ice_wh_attack(11, 4, 2, 5, 14),
    ),
    ("witchhammer save", {"bonus": 2, "difficulty": 15, "malus": -1}, lambda: ice_wh_save(2, 15, -1)),
    (
        "spellchrome attack",
        {"bonus": 5, "defense": 15, "damage": "1d8+2", "hp": 8, "ex_hp": 3},
        lambda: ice_sc_attack(5, 15, "1d8+2", 8, 3),
    ),
    ("spellchrome save", {"bonus": 3, "dc": 22}, lambda: ice_sc_save(3, 22)),
    ("spellchrome dying", {"hp": -5, "fort": 5}, lambda: ice_sc_dying(-5, 5)),
)


@cache
def caches(ruleset: str) -> tuple[Callable[[], None], ...]:
    """The ``cache_clear`` of every memoised function of ``ruleset``'s odds and mechanics and of affray's odds
    helpers (looked up once, outside the timed calls)."""
    found = []
    for name in (
        f"affray.rulesets.{ruleset}.odds",
        f"affray.rulesets.{ruleset}.mechanics",
        "affray.odds.dist",
        "affray.odds.notation",
    ):
        found += [
            value.cache_clear
            for value in vars(importlib.import_module(name)).values()
            if callable(getattr(value, "cache_clear", None))
        ]
    return tuple(found)


def clear_caches(ruleset: str) -> None:
    """Forget every memoised odds function of ``ruleset``, so that a timed call computes its check from scratch."""
    for clear in caches(ruleset):
        clear()


def flat(result: CheckResult) -> dict[str, Any]:
    return {**result.probabilities, **{k: dict(v) for k, v in result.distributions.items()}}


def named_checks() -> list[tuple[str, float, float, float]]:
    """Each named check through ``run_check`` (cold: its caches cleared before every call; warm: as a second call
    finds it), against its plain icepool expression, best of 7; both must give the same fractions."""
    rows = []
    for command, params, theirs in NAMED:
        ruleset, name = command.split()
        declared = plugin(ruleset).checks
        assert declared is not None
        check = declared()[name]

        def cold(check: Check = check, params: dict[str, Any] = params, ruleset: str = ruleset) -> dict[str, Any]:
            clear_caches(ruleset)
            return flat(run_check(check, params))

        t_cold, ours = best_of(cold)
        t_warm, _ = best_of(lambda check=check, params=params: run_check(check, params))  # type: ignore[misc]
        t_ice, ice = best_of(theirs)
        assert {k: v for k, v in ours.items() if k in ice} == ice, f"{command} {params}: affray and icepool disagree"
        label = f"{command} {' '.join(f'{k}={v}' for k, v in params.items())}".strip()
        rows.append((label, t_cold, t_warm, t_ice))
        print(
            f"{label:<86} affray {t_cold * 1e3:7.3f} ms (warm {t_warm * 1e3:6.3f})   icepool {t_ice * 1e3:7.3f} ms"
            f"   icepool/affray {t_ice / t_cold:5.1f}x",
            flush=True,
        )
    return rows


def icepool_duel(hp: int) -> float:
    d6 = icepool.d6
    to_b = (3 @ d6 - 2 @ d6).map(lambda x: max(0, x))
    to_a = (2 @ d6 + 1 - 3 @ d6).map(lambda x: max(0, x))

    def round_(state: tuple[int, int], da: int, db: int) -> tuple[int, int]:
        a, b = state
        return state if a <= 0 or b <= 0 else (a - db, b - da)

    end = icepool.map(round_, icepool.Die([(hp, hp)]), to_b, to_a, repeat="inf")
    return sum(q for (a, b), q in end.items() if b <= 0 < a) / end.denominator()  # type: ignore[no-any-return]


def main() -> None:
    args = sys.argv[1:]
    named_checks()
    if "--checks" in args:
        return
    hp = int(args[0]) if args else 20
    single_check("HuD exchange HP loss", ours_exchange, icepool_exchange)
    single_check("WitchHammer attack, Wounds", ours_wh_wounds, icepool_wh_wounds)
    single_check("WaRP attack, damage after armour", ours_warp_damage, icepool_warp_damage)
    reference_duel(3)
    t_fast, fast = timed(lambda: reference_duel(hp), 20)
    t_general, general = timed(lambda: reference_duel(hp, general=True), 3)
    t_ice, p_ice = timed(lambda: icepool_duel(hp))
    print(
        f"reference duel {hp} HP: affray fast path {t_fast * 1e3:8.2f} ms, general solver {t_general * 1e3:8.2f} ms,"
        f" icepool {t_ice:8.2f} s"
    )
    print(f"  P(A wins): affray {fast.outcomes['A']:.15f}  general {general.outcomes['A']:.15f}  icepool {p_ice:.15f}")
    print(
        f"  agreement: {abs(fast.outcomes['A'] - p_ice):.1e}   speed-up: {t_ice / t_fast:,.0f}x (fast path),"
        f" {t_ice / t_general:,.0f}x (general)"
    )


if __name__ == "__main__":
    main()
