"""Exact WitchHammer odds against the rules' numbers and the live mechanics, by enumerating the d20.
Rules: WH-13..WH-20, WH-22, WH-27, WH-B3..WH-B5, WH-B7."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from affray.rulesets.witchhammer.mechanics import apply_damage, attack, defense_against, save
from affray.rulesets.witchhammer.odds import attack_odds, blows, land, save_odds
from affray.rulesets.witchhammer.state import AttackNode


def test_wh16_wh17_seed_attack_example_hit_and_solid_hit() -> None:
    """WH-16's seed example: Attack 8+3 against Defense 4 gives 7 + d20. A hit needs a value over 10 (d20 of 4
    or more: 17/20, the natural 1 being a Fumble anyway); a Solid Hit needs damage 10 or more, a value of 20
    (d20 of 13 or more: 8/20); a natural 20 is a Crit (+10, 1/20), a natural 1 a Fumble (1/20). WH-17."""
    odds = attack_odds(8 + 3, 4)
    assert odds.p_hit == Fraction(17, 20)
    assert odds.p_solid_hit == Fraction(2, 5)
    assert (odds.p_crit, odds.p_fumble) == (Fraction(1, 20), Fraction(1, 20))
    # the seed's roll of 15: value 22, damage 12; the Crit's 20: 7 + 20 + 10 = 37, damage 27
    assert odds.damage[12] == Fraction(1, 20) and odds.damage[27] == Fraction(1, 20)
    assert odds.damage[0] == Fraction(3, 20)  # faces 1, 2 and 3
    assert sum(odds.damage.values()) == 1


def test_wh19_wounds_against_the_seed_target() -> None:
    """WH-19's test target (Poise 5, Health 14): the seed's 12 damage gives 7 Wounds; the Crit's 27 damage
    gives 2 + (25 - 5) = 22 Wounds plus its own Wound (WH-B4); it goes down only on the Crit."""
    odds = attack_odds(11, 4, target=(5, 14))
    assert odds.wounds is not None and odds.p_down == Fraction(1, 20)
    assert odds.wounds[7] == Fraction(1, 20) and odds.wounds[23] == Fraction(1, 20)
    assert odds.wounds[0] == Fraction(3, 20) + Fraction(5, 20)  # misses, and 1..5 damage that Poise absorbs


def test_wh13_non_melee_halves_the_normal_defense() -> None:
    """WH-13: against a crossbow the target uses floor(Defense / 2) + Ranged Defense."""
    assert attack_odds(6, 9, melee=False, aspect_defense=2).p_hit == attack_odds(6, 4 + 2).p_hit
    assert attack_odds(0, -3, melee=False).p_hit == attack_odds(0, -2).p_hit  # WH-B16: floor toward -inf


@pytest.mark.parametrize(
    ("bonus", "defense", "on_hit", "solid", "crit_wound", "solid_on"),
    [
        (11, 4, 0, 0, "always", "base"),
        (3, 9, 2, 8, "on_hit", "base"),
        (-4, 2, 5, 1, "always", "total"),
        (20, 0, 0, 3, "on_hit", "total"),
    ],
)
def test_wh15_wh18_attack_odds_agree_with_the_live_mechanic_by_enumeration(
    bonus: int, defense: int, on_hit: int, solid: int, crit_wound: str, solid_on: str
) -> None:
    """Every face of the d20 through ``attack()`` and ``apply_damage()`` one by one, counted, against the odds."""
    hits = solids = crits = fumbles = downs = 0
    damage: dict[int, int] = {}
    wounds: dict[int, int] = {}
    for natural in range(1, 21):
        r = attack(natural, bonus, defense)
        hits += r.hit
        crits += r.crit
        fumbles += r.fumble
        total = r.damage + (on_hit if r.hit else 0)
        is_solid = r.hit and (total >= 10 if solid_on == "total" else r.solid)
        solids += is_solid
        total += solid if is_solid else 0
        damage[total] = damage.get(total, 0) + 1
        owed = r.bonus_wounds if crit_wound == "always" or r.hit else 0
        _, health, w = apply_damage(6, 9, total) if total else (6, 9, 0)
        w += owed
        wounds[w] = wounds.get(w, 0) + 1
        downs += health - owed <= 0
    odds = attack_odds(
        bonus, defense, on_hit=on_hit, solid_bonus=solid, target=(6, 9), crit_wound=crit_wound, solid_on=solid_on
    )
    assert (odds.p_hit, odds.p_solid_hit) == (Fraction(hits, 20), Fraction(solids, 20))
    assert (odds.p_crit, odds.p_fumble, odds.p_down) == (
        Fraction(crits, 20),
        Fraction(fumbles, 20),
        Fraction(downs, 20),
    )
    assert odds.damage == {k: Fraction(v, 20) for k, v in damage.items()}
    assert odds.wounds == {k: Fraction(v, 20) for k, v in wounds.items()}


def test_wh17_fumble_deals_nothing_even_above_10() -> None:
    """WH-17, WH-B4: a natural 1 at a margin of 30 still has a value over 10 but deals no damage."""
    dist = blows(30, 0)
    fumble = next(b for b in dist if b.fumble)
    assert fumble.damage == 0 and not fumble.hit
    assert land(5, 5, fumble) == (5, 5, 0)


def test_wh12_defense_uses_the_live_defense_against() -> None:
    for normal, aspect, melee in [(7, 2, True), (7, 2, False), (-5, 0, False)]:
        expected = defense_against(normal, aspect, melee)
        assert attack_odds(10, normal, melee=melee, aspect_defense=aspect).p_hit == attack_odds(10, expected).p_hit


@pytest.mark.parametrize(
    ("bonus", "malus", "difficulty", "crits"),
    [(2, 0, 15, True), (0, -3, 10, True), (5, 0, 20, False), (-8, -2, 1, True)],
)
def test_wh27_save_odds_against_the_live_save(bonus: int, malus: int, difficulty: int, crits: bool) -> None:
    wins = sum(save(n, bonus, malus, difficulty, crits=crits).success for n in range(1, 21))
    assert save_odds(bonus, difficulty, malus, crits).p_success == Fraction(wins, 20)


def test_wh27_wh_b7_crits_on_saves() -> None:
    """WH-B7: +10 on a natural 20 lets a +0 save reach Extremely Hard (20) on 20 alone... and 10 more; a
    natural 1 at +15 against Medium fails (1 + 15 - 10 = 6)."""
    assert save_odds(0, 20).p_success == Fraction(1, 20)
    assert save_odds(0, 30).p_success == Fraction(1, 20)
    assert save_odds(15, 10).p_success == Fraction(19, 20)
    assert save_odds(15, 10, crits=False).p_success == 1


ON_HIT = {"type": "damage", "amount": 2, "to": "target", "poise_only": False}
ON_SOLID = {"type": "damage", "amount": 8, "to": "target", "poise_only": False}


@pytest.mark.parametrize("node_extra", [{}, {"on_hit": [ON_HIT], "on_solid_hit": [ON_SOLID]}])
def test_wh15_wh19_blows_agree_with_the_engine_strike_face_by_face(node_extra: dict[str, Any]) -> None:
    """The engine's own ``attack.strike`` on each scripted d20 face lands exactly the odds' outcome."""
    from affray.core.journal import Journal
    from affray.rulesets.witchhammer.attack import strike
    from affray.rulesets.witchhammer.effects import Turn
    from tests.witchhammer.helpers import DiceRNG, fighter, give_card, new_state

    node = cast(
        AttackNode,
        {
            "type": "attack",
            "attack": 4,
            "aspects": ["melee"],
            "range": "close",
            "target": "nearest_enemy",
            "poise_only": False,
            "on_hit": [],
            "on_solid_hit": [],
            **node_extra,
        },
    )  # the content's attack node, with the parameter's on-hit lists
    expected: dict[tuple[int, int], Fraction] = {}
    for face in range(1, 21):
        state = new_state([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy")])
        a, b = state.fighters["a"], state.fighters["b"]
        give_card(state, b, "guard")
        a.solid_damage = 1
        strike(state, Turn(a, "test", DiceRNG([face]), Journal()), b, node)
        expected[(b.poise, b.health)] = expected.get((b.poise, b.health), Fraction(0)) + Fraction(1, 20)
        defense = defense_against(b.defense + 6, 0, True)
    bonus_hit = sum(n["amount"] for n in node["on_hit"] if n["type"] == "damage")
    bonus_solid = 1 + sum(n["amount"] for n in node["on_solid_hit"] if n["type"] == "damage")
    ours: dict[tuple[int, int], Fraction] = {}
    for blow, p in blows(4, defense, bonus_hit, bonus_solid).items():
        poise, health, _ = land(10, 10, blow)
        ours[(poise, health)] = ours.get((poise, health), Fraction(0)) + p
    assert ours == expected


def test_wh12_wh_b16_target_malus_lowers_defense_once_and_is_not_halved() -> None:
    """WH-12: Defense - the target's Malus; WH-B16: a non-melee attack halves the normal Defense, then the aspect
    Defenses are added and the Malus subtracted once. Normal Defense 9, Malus -3, crossbow (Ranged Defense 2):
    floor(9 / 2) + 2 - 3 = 3 (not floor((9 - 3) / 2) + 2 = 5). Attack 6 then hits on a d20 of 8 or more (13/20)."""
    odds = attack_odds(6, 9, melee=False, aspect_defense=2, target_malus=-3)
    assert odds.p_hit == Fraction(13, 20) == attack_odds(6, 3).p_hit
    assert odds.p_hit != attack_odds(6, 5).p_hit
    assert attack_odds(6, 9, target_malus=-3).p_hit == attack_odds(6, 6).p_hit  # melee: 9 - 3


def test_wh12_odds_cli_takes_the_target_malus() -> None:
    """``affray odds witchhammer attack --target-malus``: WH-12 and WH-B16's numbers from the command line; a
    positive Malus is refused with a sentence and exit 2."""
    import json
    import subprocess

    from tests.cli_run import affray

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return affray("odds", "witchhammer", "attack", *args)

    done = run(
        "--attack", "6", "--defense", "9", "--non-melee", "--aspect-defense", "2", "--target-malus", "-3", "--json"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["p_hit"]["exact"] == "13/20"
    refused = run("--attack", "6", "--defense", "9", "--target-malus", "2")
    assert refused.returncode == 2 and "--target-malus is 0 or negative" in refused.stderr
    assert "Traceback" not in refused.stderr
