"""Hit points: Messed Up, down for the count, death and the reason to live, recovery, daily healing,
serious wounds, and advancing a character through days.

Rules: WR-24..WR-29, WR-34, WR-B9, WR-B10 (and the rulings WR-X7, WR-X8).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from affray.core.engine import GM
from affray.core.match import Match
from affray.rulesets.warp.aftermath import (
    MIS_HEAL_DISABILITY,
    Patient,
    Wound,
    advance_days,
    from_state,
    heal_day,
    recover_all,
    recover_patient,
)
from affray.rulesets.warp.events import Condition, SeriousWound, Verdict
from affray.rulesets.warp.mechanics import (
    DOWN_STATES,
    condition_of,
    daily_healing,
    is_dead,
    is_down,
    messed_up,
    recover,
    serious_wound,
)
from affray.rulesets.warp.ruleset import builtin_content
from tests.warp.helpers import attack, brawler, fighter, ok, rejected, rolls, state, thug, warp_match, who


def test_wr_b9_sample_pcs_have_21_hit_points_by_default() -> None:
    """WR-B9: HP come from the sheet, 21 when it gives none; at least three sample PCs use the default."""
    chars = builtin_content().sections["characters"]
    pcs = [c for c in chars.values() if c.pc]
    assert len(pcs) >= 3 and all(c.hp is None for c in pcs)
    m = warp_match([fighter("dana", "dana")], [fighter("e", "enforcer")], [])
    assert who(m, "dana").max_hp == 21 and who(m, "e").max_hp == 24
    m2 = warp_match([fighter("dana", "dana")], [thug("b")], [], {"default_hp": 15})
    assert who(m2, "dana").max_hp == 15


def test_wr24_wr_b10_messed_up_at_half_or_less() -> None:
    """WR-24, WR-B10: with 21 max, 10 HP is Messed Up and 11 is not; with 20 max exactly 10 is (2 x HP <= max);
    the alternative reading needs below half."""
    assert messed_up(10, 21) and not messed_up(11, 21)
    assert messed_up(10, 20) and not messed_up(10, 20, at_half=False) and messed_up(9, 20, at_half=False)


def test_wr24_messed_up_puts_a_penalty_die_on_every_roll() -> None:
    """WR-24: a fighter at 10/21 HP attacks with a penalty die."""
    m = warp_match([brawler("a", hp=10)], [thug("b")], [6, 6, 6, 1, 1, 1, 1])
    events = ok(m.act("a", attack("b")))
    assert rolls(events, "melee attack")[0].penalty == ["messed up"]


def test_wr24_becoming_messed_up_is_announced() -> None:
    """WR-24: a blow taking 21 to 10 makes the target Messed Up."""
    m = warp_match([brawler("a")], [thug("b")], [6, 6, 5, 2, 2, 2])
    events = ok(m.act("a", attack("b")))
    assert any(isinstance(e, Condition) and e.condition == "messed up" for e in events)
    assert who(m, "b").hp == 10 and who(m, "b").messed


def test_wr25_down_for_the_count_at_zero_with_the_weapon_state() -> None:
    """WR-25: 0 HP is out of the fight; bare hands leave it hurt, a club broken but stable."""
    assert is_down(0) and not is_down(1)
    m = warp_match([brawler("a")], [thug("b", hp=3)], [6, 6, 6, 5, 5, 5, 5])  # b, Messed Up, throws 4
    ok(m.act("a", attack("b")))
    b = who(m, "b")
    assert (b.hp, b.status, b.down_state) == (0, "down", DOWN_STATES["fists"])
    assert m.outcome() is not None and m.outcome().winner == "A"  # type: ignore[union-attr]
    assert set(DOWN_STATES) == {"fists", "clubs", "blades", "guns", "stun"}


def test_wr26_death_at_exactly_minus_21_for_21_hp() -> None:
    """WR-26, WR-B10: -21 is dead for 21 max HP, -20 is not; the alternative needs below -21."""
    assert is_dead(-21, 21) and not is_dead(-20, 21)
    assert not is_dead(-21, 21, at_minus_max=False) and is_dead(-22, 21, at_minus_max=False)


def gunned(target: dict[str, Any], dice: list[int], options: dict[str, Any] | None = None) -> Match:
    """A heavy rifle (x7) shot from 10 m at a target: attack 4 dice, defense 2 distance dice + 2 dodging."""
    rifle = fighter("sniper", pc=False, traits={"good_shot": 4}, weapons=["heavy_rifle"], position=10)
    return warp_match([target], [rifle], dice, {"initiative": "seating_gm_first", **(options or {})})


def test_wr26_a_dying_pc_pleads_and_the_gm_standing_answer_accepts() -> None:
    """WR-26 (ruling WR-X7): a PC driven to exactly -21 gives a reason to live; with no GM at the table
    the standing answer 'accept' keeps it alive, down and needing care. 14 - 8 = 6, x 7 = 42 from 21 HP."""
    m = gunned(fighter("pc", traits={"street_brawler": 3}), [2, 4, 4, 4, 4, 4, 1, 1])
    ok(m.act("sniper", attack("pc")))
    assert who(m, "pc").hp == -21 and who(m, "pc").status == "dying"
    assert m.pending().phase == "plea" and m.outcome() is None  # type: ignore[union-attr]
    events = ok(m.act("pc", {"type": "plea", "reason": "my sister is still in that building"}))
    verdict = next(e for e in events if isinstance(e, Verdict))
    assert verdict.lives and who(m, "pc").status == "down"
    assert m.outcome() is not None


def test_wr26_letting_go_and_gmcs_die_outright() -> None:
    """WR-26: a PC may let go; a GM character at -max is simply dead."""
    m = gunned(fighter("pc", traits={"street_brawler": 3}), [2, 4, 4, 4, 4, 4, 1, 1])
    ok(m.act("sniper", attack("pc")))
    ok(m.act("pc", {"type": "let_go"}))
    assert who(m, "pc").status == "dead"
    m2 = gunned(fighter("pc", pc=False, traits={"street_brawler": 3}), [2, 4, 4, 4, 4, 4, 1, 1])
    ok(m2.act("pc", {"type": "pass"}))  # two GM characters: seating order puts it first
    ok(m2.act("sniper", attack("pc")))
    assert who(m2, "pc").status == "dead" and m2.outcome() is not None


def test_wr26_the_gm_decides_at_the_table_or_rolls() -> None:
    """WR-26, WR-X1, WR-X7: at the table the plea goes to the GM seat, who may refuse, or roll (4+ lives)."""
    m = gunned(fighter("pc", traits={"street_brawler": 3}), [2, 4, 4, 4, 4, 4, 1, 1], {"gm_decisions": "table"})
    ok(m.act("sniper", attack("pc")))
    ok(m.act(GM, {"type": "rule"}))  # the GM rules on the shot before the dice
    ok(m.act("pc", {"type": "plea", "reason": "unfinished business"}))
    assert m.pending().actors == (GM,)  # type: ignore[union-attr]
    ok(m.act(GM, {"type": "verdict", "lives": False}))
    assert who(m, "pc").status == "dead"
    m2 = gunned(fighter("pc", traits={"street_brawler": 3}), [2, 4, 4, 4, 4, 4, 1, 1, 3], {"reason_to_live": "roll"})
    ok(m2.act("sniper", attack("pc")))
    events = ok(m2.act("pc", {"type": "plea", "reason": "revenge"}))
    assert not next(e for e in events if isinstance(e, Verdict)).lives  # rolled 3, needs 4
    assert rejected(m2, "pc", {"type": "plea"}).code in ("match_over", "not_your_turn")


def test_wr27_recovery_22_12_17_7_12() -> None:
    """WR-27: 22 -> 12 (10 damage) -> 17 (recovery) -> 7 (10 more) -> 12 (halfway to 17, not to 22)."""
    ceiling = 22
    hp = 22 - 10
    assert hp == 12
    hp = ceiling = recover(hp, ceiling)
    assert hp == 17
    hp -= 10
    assert hp == 7
    assert recover(hp, ceiling) == 12


def test_wr27_two_small_wounds_heal_better_than_one_big_one() -> None:
    """WR-27, WR-B5: two 7-point wounds (each recovered) leave 6 down; one 14-point wound leaves 7 down."""
    p = Patient("x", "X", 21, 21, 21)
    for _ in range(2):
        p.hp -= 7
        p = recover_patient(p)
    assert 21 - p.hp == 6
    q = Patient("y", "Y", 21, 21 - 14, 21)
    assert 21 - recover_patient(q).hp == 7
    assert recover(14, 21, round_up=False) == 17  # the WR-B5 alternative rounds down


def test_wr27_gm_ratios_and_first_aid() -> None:
    """WR-27: 2/3 for fists (9 lost -> 6 back), 1/3 for gunshots (9 lost -> 3 back); a failed first-aid
    roll recovers nothing."""
    p = Patient("x", "X", 21, 12, 21)
    assert recover_patient(p, Fraction(2, 3)).hp == 18 and recover_patient(p, Fraction(1, 3)).hp == 15
    assert recover_patient(p, first_aid=False).hp == 12
    with pytest.raises(ValueError):
        recover(1, 10, Fraction(3, 2))


def test_wr27_recover_all_uses_the_tables_ratio() -> None:
    """WR-27: after a fight everyone recovers with the table's ratio (option recovery_ratio): a thug who
    began unwounded and was cut down to 0 by a sword (margin 7 x 3) recovers to 11 at 1/2 and 14 at 2/3;
    one who began the fight at 3 HP recovers towards 3, not 21."""
    for ratio, expected in (("1/2", 11), ("2/3", 14)):
        m = warp_match([brawler("a", weapons=["sword"])], [thug("b")], [6, 6, 6, 1, 3, 4, 4], {"recovery_ratio": ratio})
        ok(m.act("a", attack("b")))
        assert who(m, "b").hp == 0 and recover_all(state(m))["b"].hp == expected
    m = warp_match([brawler("a")], [thug("b", hp=3)], [6, 6, 6, 5, 5, 5, 5])
    ok(m.act("a", attack("b")))
    assert recover_all(state(m))["b"].hp == 2


def test_wr29_taser_damage_comes_back_in_full_at_recovery() -> None:
    """WR-29: 15 temporary damage is gone after recovery; real wounds recover halfway."""
    p = Patient("x", "X", 21, 17, 21, stun=15)
    after = recover_patient(p)
    assert (after.hp, after.stun, after.ceiling) == (19, 0, 19)


def test_wr28_daily_healing_table() -> None:
    """WR-28: active 0 / rest 1, 1 per 2 days, 0 / medical 2, 1, 1 per 2 days; a bed-ridden PC is not active."""
    assert [daily_healing("active", "mobile"), daily_healing("rest", "mobile"), daily_healing("medical", "mobile")] == [
        0,
        1,
        2,
    ]
    assert [daily_healing("rest", "bedridden"), daily_healing("medical", "bedridden")] == [Fraction(1, 2), 1]
    assert [daily_healing("rest", "critical"), daily_healing("medical", "critical")] == [0, Fraction(1, 2)]
    with pytest.raises(ValueError):
        daily_healing("active", "bedridden")
    assert condition_of(1) == "mobile" and condition_of(0) == "bedridden" and condition_of(15, True) == "critical"


def test_wr28_advancing_through_days() -> None:
    """WR-28: a bed-ridden character at -1 resting heals 1 every 2 days: -1, 0, 0, 1 over four days, then
    mobile it heals 1 a day; medical care 2 a day, never above max."""
    p = Patient("x", "X", 21, -2, 10)
    p, log = advance_days(p, 4, "rest")
    assert p.hp == 0 and p.day == 4 and len(log) == 4
    p, _ = advance_days(p, 2, "rest")
    assert p.hp == 1
    p, _ = advance_days(p, 1, "rest")
    assert p.hp == 2
    p, _ = advance_days(p, 20, "medical")
    assert p.hp == 21


def test_wr28_gm_may_take_hp_only_in_the_starred_cells() -> None:
    """WR-28: active and mobile may lose HP at the GM's option; medical care may not."""
    p = Patient("x", "X", 21, 10, 10)
    assert heal_day(p, "active", gm_loss=2)[0].hp == 8
    with pytest.raises(ValueError):
        heal_day(p, "medical", gm_loss=2)


def test_wr34_serious_wounds() -> None:
    """WR-34: a 20-point blow is serious, 19 is not. Untreated, a mis-healing wound heals at half rate and
    leaves a lasting penalty die; a fatal one costs its HP each day until medical care."""
    assert serious_wound(20) and not serious_wound(19)
    p = Patient("x", "X", 21, 19, 21, wounds=[Wound("mis_heal")])
    p, _ = advance_days(p, 2, "rest")
    assert p.hp == 20
    p, _ = advance_days(p, 2, "rest")
    assert p.hp == 21 and p.disabilities == [MIS_HEAL_DISABILITY] and p.wounds == []
    q = Patient("y", "Y", 21, 5, 21, wounds=[Wound("fatal", 4)])
    q, _ = advance_days(q, 2, "rest")
    assert q.hp == -1
    q, _ = advance_days(q, 1, "medical")
    assert q.hp == 0 and q.wounds[0].treated


def test_wr34_serious_wound_in_a_match() -> None:
    """WR-34 (ruling WR-X8): with the option on, a 21-point rifle hit (margin 3 x 7) is a serious wound,
    mis-healing by default; it follows the character into the aftermath."""
    m = gunned(fighter("pc", traits={"street_brawler": 3}), [3, 3, 3, 3, 5, 4, 1, 1], {"serious_wounds": True})
    events = ok(m.act("sniper", attack("pc")))
    assert next(e for e in events if isinstance(e, SeriousWound)).wound == "mis_heal"
    patients = from_state(state(m))
    assert patients["pc"].hp == 0 and patients["pc"].wounds == [Wound("mis_heal")]
