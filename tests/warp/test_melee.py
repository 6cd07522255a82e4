"""Melee: one defense per attack, combat and non-combat traits, predictable attacks, advantages,
desperate defense. Rules: WR-08, WR-09, WR-17, WR-31, WR-32, WR-B11, WR-B15 (and WR-X1, WR-X11)."""

from __future__ import annotations

from typing import Any

from affray.core.engine import GM, Action
from affray.rulesets.warp.events import Contest, GangChosen
from affray.rulesets.warp.mechanics import better_weaponry, gang_up_extra, predictable
from tests.warp.helpers import attack, brawler, fighter, ok, rejected, rolls, thug, warp_match, who

PASS: Action = {"type": "pass"}


def test_wr08_one_defense_roll_per_attack() -> None:
    """WR-08: two thugs attack the same PC in a round: the PC rolls defense twice."""
    m = warp_match(
        [brawler("a")], [thug("b"), thug("c")], [1, 1, 1, 6, 6, 6, 1, 1, 1, 5, 5, 5], {"initiative": "seating_gm_first"}
    )
    first = ok(m.act("b", attack("a")))
    second = ok(m.act("c", attack("a")))
    assert len(rolls(first, "defense")) == 1 and len(rolls(second, "defense")) == 1
    assert [rolls(e, "defense")[0].roll.total for e in (first, second)] == [18, 15]


def agile_pc(cid: str = "a", **fields: Any) -> dict[str, Any]:
    return fighter(cid, traits={"agile": 4, "quick_reflexes": 3}, **fields)


def test_wr09_a_non_combat_trait_attacks_or_defends_not_both() -> None:
    """WR-09: after attacking with Agile (4), the PC defends with Quick Reflexes (3) that round."""
    m = warp_match([agile_pc()], [thug("b")], [6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 2, 2, 2])
    ok(m.act("a", attack("b", trait="agile")))
    events = ok(m.act("b", attack("a")))
    assert rolls(events, "defense")[0].trait == "Quick Reflexes"


def test_wr09_a_combat_trait_serves_both() -> None:
    """WR-09: Knife Fighter attacks and then defends in the same round (knife in hand against a knife)."""
    m = warp_match(
        [fighter("a", traits={"knife_fighter": 4}, weapons=["knife"])],
        [thug("b", weapons=["knife"])],
        [6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1],
    )  # b, now Messed Up, attacks with 4 dice
    ok(m.act("a", attack("b")))
    events = ok(m.act("b", attack("a")))
    assert rolls(events, "defense")[0].trait == "Knife Fighter"


def test_wr_b15_a_new_round_frees_an_attack_lock() -> None:
    """WR-B15: the Agile lock from round 1 is gone in round 2: a attacks with Agile again."""
    m = warp_match([agile_pc()], [thug("b")], [1, 1, 1, 1, 6, 6, 6, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1, 6, 6, 6])
    ok(m.act("a", attack("b", trait="agile")))
    ok(m.act("b", PASS))
    events = ok(m.act("a", attack("b", trait="agile")))
    assert rolls(events, "melee attack")[0].trait == "Agile"


def test_wr_b15_holding_makes_the_defense_trait_a_real_choice() -> None:
    """WR-B15, WR-09: while holding, defending with Agile would lock it out of the held attack, so the
    defender chooses; having defended with Agile, attacking with it is refused."""
    m = warp_match([agile_pc()], [thug("b")], [6, 6, 6, 6, 6, 6, 6])
    ok(m.act("a", {"type": "hold"}))
    ok(m.act("a", {"type": "wait"}))
    ok(m.act("b", attack("a")))
    assert m.pending().phase == "defend"  # type: ignore[union-attr]
    ok(m.act("a", {"type": "defend", "trait": "agile"}))
    assert rejected(m, "a", attack("b", trait="agile")).code == "trait_locked"


def test_wr_b15_the_lock_lasts_until_the_round_ends() -> None:
    """WR-B15 (as revised, the default): locks last until the round ends, so defending with Agile before
    one's turn keeps it from attacking with Agile this round."""
    m = warp_match([agile_pc()], [thug("b")], [6, 6, 6, 6, 6, 6, 6], {"initiative": "seating_gm_first"})
    ok(m.act("b", attack("a")))
    ok(m.act("a", {"type": "defend", "trait": "agile"}))
    assert rejected(m, "a", attack("b", trait="agile")).code == "trait_locked"


def test_wr17_wr_b11_repeating_a_maneuver_on_the_same_target_is_predictable_for_pcs_only() -> None:
    """WR-17, WR-B11: a PC feinting at the same thug two rounds running takes a penalty die the second
    time; a GM character repeating itself never does."""
    assert predictable(True, False, True) and not predictable(False, True, True)
    dice = [1, 1, 1, 6, 6, 6, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1, 6, 6, 6]
    m = warp_match([brawler("a")], [thug("b")], dice)
    ok(m.act("a", attack("b", maneuver="feint")))
    ok(m.act("b", attack("a", maneuver="feint")))
    events = ok(m.act("a", attack("b", maneuver="feint")))
    assert rolls(events, "melee attack")[0].penalty == ["predictable"]
    events = ok(m.act("b", attack("a", maneuver="feint")))
    assert rolls(events, "melee attack")[0].penalty == []


def test_wr17_a_boring_maneuver_and_the_gms_flag() -> None:
    """WR-17: "I swing at it" is predictable by nature; at the table the GM may flag any PC attack."""
    m = warp_match([brawler("a")], [thug("b")], [1, 1, 1, 1, 6, 6, 6])
    events = ok(m.act("a", attack("b", maneuver="swing")))
    assert rolls(events, "melee attack")[0].penalty == ["predictable"]
    table = warp_match([brawler("a")], [thug("b")], [1, 1, 1, 1, 6, 6, 6], {"gm_decisions": "table"})
    ok(table.act("a", attack("b", maneuver="feint")))
    assert table.pending().actors == (GM,)  # type: ignore[union-attr]
    events = ok(table.act(GM, {"type": "rule", "predictable": True}))
    assert rolls(events, "melee attack")[0].penalty == ["predictable"]


MISS = [1, 1, 1, 6, 6]  # a thug's 3 dice (3) against the PC's 2 (12): no damage dice to script
MISS_WITH_DIE = [1, 1, 1, 1, 6, 6]  # the same with a bonus die


def outnumbered(thugs: int) -> Any:
    """A PC with 2 dice of fighting ability (capacity 2) among ``thugs`` thugs, all within reach."""
    pc = brawler("a", dice=2, position=0)
    return pc, [thug(cid, position=1 if i % 2 else -1) for i, cid in enumerate("bcde"[:thugs])]


def test_wr_b17_the_first_and_only_attacker_gets_no_bonus_die() -> None:
    """WR-31, WR-B17: three thugs stand within reach of a PC with 2 fighting dice, but only b attacks it this
    round: b is its first attacker, so b gets no ganging-up die, and the PC is not asked anything (no choice
    exists: max(0, 1 - 2) = 0 dice)."""
    assert gang_up_extra(3, 2) == 1 and gang_up_extra(1, 2) == 0
    pc, thugs = outnumbered(3)
    m = warp_match([pc], thugs, MISS)
    ok(m.act("a", PASS))
    events = ok(m.act("b", attack("a")))
    assert not any(isinstance(e, GangChosen) for e in events)
    assert rolls(events, "melee attack")[0].bonus == [] and rolls(events, "defense")[0].bonus == []
    assert m.pending().actors == ("c",)  # type: ignore[union-attr]


def test_wr_b17_the_third_distinct_attacker_carries_the_die() -> None:
    """WR-31, WR-B17: b, c and then d attack the PC (capacity 2): only d, its third attacker of the round, rolls the
    ganging-up die (3 dice + 1 bonus: 1, 1, 1, 1 keeps 3), and its defense rolls never do."""
    pc, thugs = outnumbered(3)
    m = warp_match([pc], thugs, MISS + MISS + MISS_WITH_DIE)
    ok(m.act("a", PASS))
    events = [ok(m.act(cid, attack("a"))) for cid in "bcd"]
    assert [rolls(e, "melee attack")[0].bonus for e in events] == [[], [], ["ganging up"]]
    assert [rolls(e, "defense")[0].bonus for e in events] == [[], [], []]
    assert rolls(events[2], "melee attack")[0].roll.total == 3
    assert (who(m, "a").gang_attackers, who(m, "a").gang_bonus) == (["b", "c", "d"], ["d"])


def test_wr31_wr_b17_three_thugs_on_a_clerk_always_give_one_die() -> None:
    """WR-31, WR-B17 (made precise): three thugs attack a clerk with no trait (fighting ability 2 by default) in
    every order of the round: exactly 3 - 2 = 1 of them carries the die, the third to attack. (The earlier
    default let the clerk name its two 'normal' foes and then spare the die when a named foe came third.)"""
    clerk = fighter("a", position=0)
    for order in ("bcd", "dcb", "cdb"):
        thugs = [thug(cid, position=1 if i % 2 else -1) for i, cid in enumerate(order)]
        m = warp_match([clerk], thugs, MISS + MISS + MISS_WITH_DIE)
        ok(m.act("a", PASS))
        events = [ok(m.act(cid, attack("a"))) for cid in order]
        assert [rolls(e, "melee attack")[0].bonus for e in events] == [[], [], ["ganging up"]], order
        assert who(m, "a").gang_bonus == [order[2]]


def test_wr_b17_exactly_the_attackers_beyond_capacity_carry_the_die() -> None:
    """WR-B17 (made precise): four thugs on a PC of capacity 2: b and c attack normally, d and e carry the die:
    exactly 4 - 2 = 2 dice, no fewer (the earlier default let a foe the PC had named skip it: one die)."""
    pc, thugs = outnumbered(4)
    m = warp_match([pc], thugs, MISS + MISS + MISS_WITH_DIE + MISS_WITH_DIE)
    ok(m.act("a", PASS))
    events = [ok(m.act(cid, attack("a"))) for cid in "bcde"]
    assert [rolls(e, "melee attack")[0].bonus for e in events] == [[], [], ["ganging up"], ["ganging up"]]
    assert who(m, "a").gang_bonus == ["d", "e"]


def test_wr_b17_option_kept_asks_and_a_named_foe_never_carries_the_die() -> None:
    """WR-B17, option gang_up_choice: kept (the earlier reading): the outnumbered PC names b and e at its first
    melee defense of the round; b and c attack normally (its first two), d carries the die, e, named, does not:
    one die from four attackers, fewer than 4 - 2; a wrong count of names is refused."""
    pc, thugs = outnumbered(4)
    m = warp_match([pc], thugs, MISS + MISS + MISS_WITH_DIE + MISS, {"gang_up_choice": "kept"})
    ok(m.act("a", PASS))
    ok(m.act("b", attack("a")))
    assert m.pending().phase == "defend"  # type: ignore[union-attr]
    assert rejected(m, "a", {"type": "defend", "normal": ["b"]}).code == "bad_choice"
    events = [ok(m.act("a", {"type": "defend", "normal": ["b", "e"]}))]
    chosen = next(e for e in events[0] if isinstance(e, GangChosen))
    assert (chosen.normal, chosen.capacity) == (["b", "e"], 2)
    events += [ok(m.act(cid, attack("a"))) for cid in "cde"]
    assert [rolls(e, "melee attack")[0].bonus for e in events] == [[], [], ["ganging up"], []]


def test_wr_b17_a_new_round_counts_attackers_afresh() -> None:
    """WR-B17: the count is per round: in round 2, d attacks the PC first and gets no die, though in round 1 it
    was the third attacker and carried one."""
    pc, thugs = outnumbered(3)
    m = warp_match([pc], thugs, MISS + MISS + MISS_WITH_DIE + MISS)
    ok(m.act("a", PASS))
    ok(m.act("b", attack("a")))
    ok(m.act("c", attack("a")))
    assert rolls(ok(m.act("d", attack("a"))), "melee attack")[0].bonus == ["ganging up"]
    ok(m.act("a", PASS))
    ok(m.act("b", PASS))
    ok(m.act("c", PASS))
    events = ok(m.act("d", attack("a")))
    assert rolls(events, "melee attack")[0].bonus == []
    assert (who(m, "a").gang_attackers, who(m, "a").gang_bonus) == (["d"], [])


def test_wr31_surprise_better_weaponry_and_position() -> None:
    """WR-31: an unaware target gives the surprise dice (2 here, by option); a bat beats bare hands for
    handiness; the high ground is a better position."""
    assert better_weaponry(2, 0) and not better_weaponry(2, 2) and better_weaponry(2, 1)
    m = warp_match(
        [brawler("a", weapons=["baseball_bat"], high_ground=True)],
        [thug("b", unaware=True)],
        [1, 1, 1, 1, 1, 1, 1, 6, 6, 6],
        {"surprise_bonus_dice": 2},
    )
    events = ok(m.act("a", attack("b")))
    assert sorted(rolls(events, "melee attack")[0].bonus) == [
        "better position",
        "better weaponry",
        "surprise",
        "surprise",
    ]
    assert not who(m, "b").unaware


def test_wr31_quarterstaff_against_axe_and_against_a_humming_knife() -> None:
    """WR-31: handiness, not damage: a staff gets nothing against an axe but a bonus die against a knife
    that does horrendous damage."""
    staff = fighter("a", traits={"street_brawler": 3}, weapons=["quarterstaff"])
    m = warp_match([staff], [thug("b", weapons=["axe"])], [1, 1, 1, 6, 6, 6])
    assert rolls(ok(m.act("a", attack("b"))), "melee attack")[0].bonus == []
    m2 = warp_match([staff], [thug("b", weapons=["vibro_knife"])], [1, 1, 1, 1, 6, 6, 6])
    assert rolls(ok(m2.act("a", attack("b"))), "melee attack")[0].bonus == ["better weaponry"]


def test_wr31_psychological_advantage_next_round_or_the_whole_fight() -> None:
    """WR-31 (ruling WR-X11): winning an intimidation gives a bonus die on every roll next round only;
    protecting a loved one gives one for the whole fight."""
    m = warp_match(
        [fighter("a", traits={"menacing": 3, "street_brawler": 3})],
        [thug("b")],
        [6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1, 1],
    )
    events = ok(m.act("a", {"type": "intimidate", "target": "b"}))
    assert next(e for e in events if isinstance(e, Contest)).won
    ok(m.act("b", PASS))
    events = ok(m.act("a", attack("b")))
    assert rolls(events, "melee attack")[0].bonus == ["psychological advantage"]
    m2 = warp_match([brawler("a", protecting=True)], [thug("b")], [1, 1, 1, 1, 6, 6, 6])
    assert rolls(ok(m2.act("a", attack("b"))), "melee attack")[0].bonus == ["protecting a loved one"]


def test_wr31_surprise_check_option() -> None:
    """WR-31: with the GM's stealth check, an unaware guard rolls alertness (2 dice: 6) against the best
    stealth of its foes (Moves Like a Shadow, 3 dice: 9) and stays surprised."""
    sneak = fighter("dana", traits={"shadow": 3, "street_brawler": 3})
    m = warp_match([sneak], [thug("b", unaware=True)], [3, 3, 3, 3, 3], {"surprise_check": True})
    contest = next(e for e in m.setup_events if isinstance(e, Contest))
    assert contest.won and who(m, "b").unaware


def test_wr32_desperate_defense() -> None:
    """WR-32: optional; giving up the attack gives a bonus die on each defense roll for that round."""
    off = warp_match([brawler("a")], [thug("b")], [])
    assert rejected(off, "a", {"type": "desperate_defense"}).code == "option_off"
    m = warp_match(
        [brawler("a")], [thug("b"), thug("c")], [1, 1, 1, 6, 6, 6, 6, 1, 1, 1, 6, 6, 6, 6], {"desperate_defense": True}
    )
    ok(m.act("a", {"type": "desperate_defense"}))
    for foe in ("b", "c"):
        events = ok(m.act(foe, attack("a")))
        assert rolls(events, "defense")[0].bonus == ["desperate defense"]
    assert not who(m, "a").desperate  # the round is over
