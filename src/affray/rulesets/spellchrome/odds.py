"""Exact odds for Spellchrome, mapped through the ruleset's own mechanic functions over the d20 and the
damage dice.

- :func:`attack_odds`: an attack roll (the SRD-standard assumption of ruling SC-B1: d20 + bonus >= Defense,
  a natural 1 misses and a natural 20 hits) and its damage: the weapon's notation, at least 0, times the
  critical multiplier on a natural 20 (1 by default), less damage reduction
  (:func:`~affray.rulesets.spellchrome.mechanics.damage_after_reduction`, SC-B6); against a target with HP
  (and EX-HP) the HP-loss distribution (:func:`~affray.rulesets.spellchrome.mechanics.apply_damage`, SC-07)
  and the chance it drops (HP below 1, SC-02..SC-05).
- :func:`dying_odds`: a dying character left alone: dead or stable, in how many rounds, having lost how many HP
  (SC-04..SC-06, SC-B3..SC-B5).
- :func:`save_odds`: a saving throw, natural 1 fails and natural 20 succeeds (SC-12, SC-13), such as the
  dying character's DC 22 Fortitude save (SC-06, SC-B5).

The engine's ``combat.strike`` and ``health.deal_damage`` do these steps on rolled numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from affray.core.actions import Field, FieldKind
from affray.core.checks import BadParameters, Check, CheckResult, Params, checks, need
from affray.core.notation import NotationError
from affray.odds.dist import counted, die, map_dists, probability
from affray.odds.notation import notation_dist
from affray.rulesets.spellchrome.mechanics import (
    D20,
    DEAD_AT,
    DYING_LOSS_DIE,
    apply_damage,
    attack_hits,
    damage_after_reduction,
    dying_step,
    save_succeeds,
    stabilise_succeeds,
)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    p_hit: Fraction
    p_crit: Fraction  # a natural 20 (the critical multiplier applies)
    p_fumble: Fraction  # a natural 1
    damage: dict[int, Fraction]  # after damage reduction, over the whole attack (a miss is 0)
    hp_loss: dict[int, Fraction] | None = None  # with a target: what gets past EX-HP to HP
    p_down: Fraction | None = None


@lru_cache(maxsize=1024)
def strike_dist(
    bonus: int, defense: int, damage: str, multiplier: int = 1, naturals: bool = True
) -> dict[int, Fraction]:
    """Rolled damage of one attack before damage reduction, a miss counting as 0 (SC-B1).

    Counted in whole numbers (each face of the d20 times the damage's throws) and divided once at the end: a
    Fraction per cell made the check slower than icepool's (docs/performance.md, "Named checks against icepool")."""
    den, rolled = counted(map_dists(lambda x: max(0, x), notation_dist(damage)))
    out: dict[int, int] = {}
    for natural in range(1, D20 + 1):
        if not attack_hits(natural, bonus, defense, naturals):
            out[0] = out.get(0, 0) + den
            continue
        times = multiplier if natural == D20 else 1
        for k, n in rolled:
            out[k * times] = out.get(k * times, 0) + n
    return {k: Fraction(n, D20 * den) for k, n in out.items()}


def attack_odds(
    bonus: int,
    defense: int,
    damage: str,
    *,
    damage_reduction: int = 0,
    multiplier: int = 1,
    naturals: bool = True,
    target: tuple[int, int] | None = None,
    reduction_first: bool = True,
) -> AttackOdds:
    """One attack at ``bonus`` against ``defense`` dealing ``damage`` (dice notation). Rules: SC-B1, SC-B6.

    ``target`` is ``(hp, ex_hp)``: then the HP-loss distribution through EX-HP (SC-07) and the chance the
    target ends below 1 HP (out of the fight: SC-03, SC-04).
    """
    hits = map_dists(lambda n: attack_hits(n, bonus, defense, naturals), die(D20))
    rolled = strike_dist(bonus, defense, damage, multiplier, naturals)
    dealt = map_dists(lambda k: damage_after_reduction(k, damage_reduction), rolled)
    odds = AttackOdds(hits.get(True, Fraction(0)), Fraction(1, D20), Fraction(1, D20), dealt)
    if target is None:
        return odds
    hp, ex_hp = target
    after = map_dists(lambda k: apply_damage(hp, ex_hp, k, damage_reduction, False, reduction_first), rolled)
    loss = map_dists(lambda r: r.to_hp, after)
    return AttackOdds(odds.p_hit, odds.p_crit, odds.p_fumble, dealt, loss, probability(after, lambda r: r.hp < 1))


@dataclass(frozen=True, slots=True)
class SaveOdds:
    p_success: Fraction


def save_odds(bonus: int, dc: int, naturals: bool = True) -> SaveOdds:
    """A saving throw: d20 + bonus >= DC; natural 1 fails, natural 20 succeeds. Rules: SC-12, SC-13, SC-B5."""
    if naturals:
        dist = map_dists(lambda n: save_succeeds(n, bonus, dc), die(D20))
    else:
        dist = map_dists(lambda n: n + bonus >= dc, die(D20))
    return SaveOdds(dist.get(True, Fraction(0)))


@dataclass(frozen=True, slots=True)
class DyingOdds:
    """How a dying character left alone ends (SC-04..SC-06): dead or stable, after how many more rounds, and
    how many HP it loses on the way (means beside the distributions)."""

    p_dead: Fraction
    p_stable: Fraction
    rounds: dict[int, Fraction]  # rounds until dead or stable, counting the round it dropped as 1
    hp_loss: dict[int, Fraction]  # HP bled away in all
    expected_rounds: Fraction
    expected_loss: Fraction


def dying_odds(
    hp: int,
    fort_bonus: int,
    *,
    as_save: bool = True,
    loss_in_first_round: bool = True,
    check_in_first_round: bool = False,
) -> DyingOdds:
    """A character dropped to ``hp`` (−1..−29) with nobody to help: it loses 1d4 at the end of every round
    (SC-04; also the round it dropped, ruling SC-B3, ``loss_in_first_round``) and rolls the DC 22 Fortitude
    save at the start of its turn from the next round on (SC-06, SC-B3; ``check_in_first_round``: option
    ``first_stabilise_check: next_turn`` for a drop before its turn), stable on a success (SC-B5: natural 1
    and 20 with ``as_save``), dead at −30 (SC-05). Exact, through ``stabilise_succeeds`` and ``dying_step``."""
    if not DEAD_AT < hp < 0:
        raise ValueError(f"a dying character has HP −1..−29, not {hp} (SC-04)")
    stable_p = probability(map_dists(lambda n: stabilise_succeeds(n, fort_bonus, as_save), die(D20)), bool)
    ends: dict[tuple[str, int, int], Fraction] = {}
    # (hp now, rounds so far, HP lost so far) -> probability, at the start of a round's check
    living: dict[tuple[int, int, int], Fraction] = {(hp, 1, 0): Fraction(1)}
    first = True
    while living:
        nxt: dict[tuple[int, int, int], Fraction] = {}
        for (now, rounds, lost), p in living.items():
            if not first or check_in_first_round:
                _add(ends, ("stable", rounds, lost), p * stable_p)
                p = p * (1 - stable_p)
            if first and not loss_in_first_round:
                _add(nxt, (now, rounds + 1, lost), p)
                continue
            for loss, q in die(DYING_LOSS_DIE).items():
                after, state = dying_step(now, loss)
                key = (after, rounds + 1, lost + loss)
                if state == "dead":
                    _add(ends, ("dead", rounds, lost + loss), p * q)
                else:
                    _add(nxt, key, p * q)
        living, first = nxt, False
    rounds_dist: dict[int, Fraction] = {}
    loss_dist: dict[int, Fraction] = {}
    for (_, r, lost), p in ends.items():
        _add(rounds_dist, r, p)
        _add(loss_dist, lost, p)
    dead = sum((p for (kind, _, _), p in ends.items() if kind == "dead"), Fraction(0))
    return DyingOdds(
        dead,
        1 - dead,
        dict(sorted(rounds_dist.items())),
        dict(sorted(loss_dist.items())),
        sum((r * p for r, p in rounds_dist.items()), Fraction(0)),
        sum((k * p for k, p in loss_dist.items()), Fraction(0)),
    )


def _add(out: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    out[key] = out.get(key, Fraction(0)) + p


def _attack_valid(p: Params) -> None:
    need(p["dr"] >= 0 and p["ex_hp"] >= 0, "--dr and --ex-hp cannot be negative.")
    need(p["crit_multiplier"] >= 1, "--crit-multiplier is at least 1.")
    need(p["hp"] is None or p["hp"] >= 1, "--hp must be at least 1 (the target is still fighting).")


def _attack(p: Params) -> CheckResult:
    try:
        odds = attack_odds(
            p["bonus"],
            p["defense"],
            p["damage"],
            damage_reduction=p["dr"],
            multiplier=p["crit_multiplier"],
            target=None if p["hp"] is None else (p["hp"], p["ex_hp"]),
        )
    except NotationError as exc:
        raise BadParameters(str(exc)) from None
    except ValueError as exc:
        raise BadParameters(f"--damage: {exc}") from None
    probs = {"p_hit": odds.p_hit, "p_crit": odds.p_crit, "p_fumble": odds.p_fumble}
    dists: dict[str, Mapping[int, Fraction]] = {"damage": odds.damage}
    if odds.hp_loss is not None and odds.p_down is not None:
        probs["p_down"] = odds.p_down
        dists["hp_loss"] = odds.hp_loss
    return CheckResult(
        f"Spellchrome attack: d20 {p['bonus']:+d} against Defense {p['defense']}, {p['damage']}", probs, dists
    )


def _save(p: Params) -> CheckResult:
    return CheckResult(
        f"Spellchrome save: d20 {p['bonus']:+d} against DC {p['dc']}",
        {"p_success": save_odds(p["bonus"], p["dc"]).p_success},
    )


def _dying_valid(p: Params) -> None:
    need(-30 < p["hp"] < 0, "--hp is the HP of a dying character: −1 to −29 (SC-04).")


def _dying(p: Params) -> CheckResult:
    odds = dying_odds(p["hp"], p["fort"], check_in_first_round=p["check_first"])
    return CheckResult(
        f"Spellchrome: dying at {p['hp']} HP, Fortitude {p['fort']:+d} against DC 22",
        {"p_dead": odds.p_dead, "p_stable": odds.p_stable},
        {"rounds": odds.rounds, "hp_loss": odds.hp_loss},
    )


def _opt(name: str, kind: FieldKind, description: str, default: Any = 0) -> Field:
    return Field(name, kind, description, required=False, default=default)


#: The exact single checks (``affray odds spellchrome CHECK``), declared with their parameters.
CHECKS = checks(
    Check(
        "attack",
        "One attack: the chance of a hit and its damage after damage reduction (SC-B1, SC-B6, SC-07).",
        ("SC-B1", "SC-B6", "SC-07"),
        (
            Field("bonus", "integer", "the attack bonus (BAB + ability + weapon, SC-B1)"),
            Field("defense", "integer", "the target's Defense (SC-B1)"),
            Field("damage", "string", "the damage dice, e.g. 1d8+2"),
            _opt("dr", "integer", "the target's armour damage reduction (SC-B6)"),
            _opt("crit_multiplier", "integer", "on a natural 20 (SC-B1: 1)", 1),
            _opt("hp", "integer", "the target's HP: adds hp_loss and p_down", None),
            _opt("ex_hp", "integer", "the target's EX-HP, absorbed first (SC-07)"),
        ),
        _attack,
        _attack_valid,
    ),
    Check(
        "save",
        "A saving throw: d20 + bonus >= DC; a natural 1 fails and a natural 20 succeeds (SC-12, SC-13).",
        ("SC-12", "SC-13"),
        (
            Field("bonus", "integer", "base save + ability modifier (SC-12)"),
            Field("dc", "integer", "the difficulty class"),
        ),
        _save,
    ),
    Check(
        "dying",
        "A dying character left alone: the chance it bleeds out or stabilises, in how many rounds, having "
        "lost how many HP (SC-04..SC-06, SC-B3..SC-B5): 1d4 at the end of every round, the DC 22 "
        "Fortitude save at the start of its turns from the next round, dead at −30.",
        ("SC-04", "SC-05", "SC-06", "SC-B3", "SC-B4", "SC-B5"),
        (
            Field("hp", "integer", "the HP it dropped to (−1..−29, SC-04)"),
            Field("fort", "integer", "base Fortitude + Con modifier (SC-12)"),
            _opt(
                "check_first",
                "boolean",
                "its first DC 22 save comes before the first loss (a character dying "
                "since before its turn; option first_stabilise_check: next_turn)",
                False,
            ),
        ),
        _dying,
        _dying_valid,
    ),
)
