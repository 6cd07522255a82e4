"""WitchHammer adventure rewards (WH-35), money and hats (WH-37), the party leader (WH-37, WH-C5), Wounds and
afflictions carried on the sheet (WH-19, WH-23, WH-30, WH-B23), with exact numbers."""

from __future__ import annotations

import hashlib

import pytest

from affray.characters.sheet import Refused
from affray.core.json import as_object
from affray.core.rng import ScriptedRNG, VerifiableRNG, derive_die, seed_from_int
from affray.rulesets.witchhammer.characters import advancement as adv
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters.hats import (
    ledger_problems,
    outre,
    party_leader,
    roll_problems,
    roll_starting_silver,
)
from affray.rulesets.witchhammer.characters.sheet import OUTRE_AT, Gem, Hat, MoneyRoll, WitchHammerSheet
from tests.characters.helpers import hilde, lib


def penniless() -> WitchHammerSheet:
    return hilde().model_copy(update={"money": None})


def left(sheet: WitchHammerSheet) -> tuple[int, int, int, int]:
    p = wh.points_left(sheet, lib())
    return p.attribute, p.school, p.technique, p.trait


@pytest.mark.parametrize(
    ("reward", "grant"), [("hunt", (0, 0, 1, 0)), ("defeat", (0, 0, 0, 1)), ("witch", (3, 0, 2, 0))]
)
def test_wh35_each_reward_grants_its_points(reward: str, grant: tuple[int, int, int, int]) -> None:
    """WH-35: a hunt (even a retreat) +1 Technique; defeating the monster or a good job +1 Trait; a Witch +3
    Attribute, +2 Technique, +1 School (witch's School point shown separately)."""
    s = adv.grant_reward(hilde(), reward, "the Mill at Wend")
    a, sc, t, tr = left(s)
    assert (a, t, tr) == (grant[0], grant[2], grant[3])
    assert sc == (1 if reward == "witch" else 0)
    assert s.rewards[-1].reward == reward and s.rewards[-1].note == "the Mill at Wend"


def test_wh35_rewards_stack_and_are_spent_like_creation_points() -> None:
    """WH-35, ruling WH-C6: a successful hunt is hunt + defeat (+1 Technique, +1 Trait); a witch hunt won adds
    +3/+2/+1. Total after both: 3 Attribute, 1 School, 1 + 1 + 2 = 4 Technique, 2 Trait points to spend."""
    s = hilde()
    for r in ("hunt", "defeat", "hunt", "defeat", "witch"):
        s = adv.grant_reward(s, r)
    assert left(s) == (3, 1, 4, 2)
    s = adv.learn_school(s, "raging_bull", lib())  # level 2
    s = adv.buy_attribute(s, "defense", lib())
    for t in ("trample", "stamping_circle", "red_mist", "iron_brow"):
        s = adv.learn_technique(s, t, lib())
    s = adv.take_trait(adv.take_trait(s, "trapper", lib()), "hedge_scholar", lib())
    assert left(s) == (0, 0, 0, 0) and s.schools == {"raging_bull": 2}
    assert wh.problems(s, lib()) == []


def test_wh35_an_unknown_reward_is_refused() -> None:
    with pytest.raises(Refused, match="no reward 'treasure'"):
        adv.grant_reward(hilde(), "treasure")


def test_wh37_starting_silver_is_1d100_on_the_engine_dice_reproducible_from_the_seed() -> None:
    """WH-37, ruling WH-C8: 1d100 on the verifiable RNG; the record carries the seed, its SHA-256 commitment and the
    draw index, and the same public seed always gives the same silver."""
    rng = VerifiableRNG(seed_from_int(3))
    record, event = roll_starting_silver(rng, "hilde")
    again, _ = roll_starting_silver(VerifiableRNG(seed_from_int(3)), "hilde")
    assert record == again and 1 <= record.value <= 100 and record.notation == "1d100" and record.draw == 0
    assert record.value == derive_die(seed_from_int(3), 0, 100) == 34
    assert record.commitment == hashlib.sha256(bytes.fromhex(record.seed or "")).hexdigest()
    assert event.describe({"hilde": "Hilde"}) == "Hilde rolls starting silver: 1d100 [34] = 34"
    assert as_object(event.to_dict()["roll"])["dice"] == [{"sides": 100, "value": 34, "kept": True, "draw": 0}]
    assert roll_problems(record) == []


def test_wh37_a_changed_money_roll_is_caught() -> None:
    """Ruling WH-C8: the check re-derives the die: a value or commitment edited by hand is named."""
    record, _ = roll_starting_silver(VerifiableRNG(seed_from_int(3)))
    forged = MoneyRoll.model_validate({**record.model_dump(), "value": 99})
    assert roll_problems(forged) == ["draw 0 of that seed on a d100 is 34, not 99"]
    wrong = MoneyRoll.model_validate({**record.model_dump(), "commitment": "0" * 64})
    assert roll_problems(wrong) == ["the seed does not match its commitment"]
    s = adv.set_money(penniless(), forged)
    assert [(p.field, p.expected) for p in wh.problems(s, lib())] == [
        ("money.roll", "draw 0 of that seed on a d100 is 34, not 99")
    ]
    table = MoneyRoll(value=57)  # physical dice: legal, noted as unverifiable
    assert roll_problems(table) == []
    assert any("not verifiable" in n for n in wh.notes(adv.set_money(penniless(), table), lib()))


def test_wh37_money_is_rolled_once_and_the_ledger_never_goes_below_zero() -> None:
    """Ruling WH-C9: silver = roll + ledger; spending more than is on hand is refused."""
    s = adv.set_money(penniless(), MoneyRoll(value=34))
    with pytest.raises(Refused, match="rolled once"):
        adv.set_money(s, MoneyRoll(value=90))
    s = adv.pay(s, -30, "a potion of clotting")
    assert s.money is not None and s.money.silver == 4
    with pytest.raises(Refused, match="costs 5 silver; 4 on hand"):
        adv.pay(s, -5, "rope")
    s = adv.pay(s, 40, "bounty")
    assert s.money is not None and s.money.silver == 44 and ledger_problems(s.money) == []
    bad = s.money.model_copy(update={"silver": 50})
    assert ledger_problems(bad) == ["silver is 50, but the roll (34) and the ledger make 44"]


def test_wh37_a_hat_is_worth_its_base_value_plus_what_is_attached() -> None:
    """WH-37: hat value = base + gems; buying it with silver records the whole price in the ledger."""
    s = adv.set_money(penniless(), MoneyRoll(value=34))
    s = adv.wear_hat(s, "grey felt hat", 6, [("garnet", 4), ("jay feather", 1)], bought=True)
    assert s.hat is not None and s.hat.total == 11
    assert s.money is not None and s.money.silver == 23 and s.money.ledger[-1].what == "hat: grey felt hat"
    with pytest.raises(Refused, match="costs 500 silver; 23 on hand"):
        adv.wear_hat(s, "crown", 500, bought=True)


def test_whc4_three_of_one_kind_on_a_hat_is_outre() -> None:
    """Ruling WH-C4: OUTRE_AT = 3 attachments of one kind (case and spaces ignored) are flagged, never refused;
    a house rule can move the threshold."""
    assert OUTRE_AT == 3
    two = Hat(name="cap", value=5, gems=[Gem(kind="pearl", value=3), Gem(kind="Pearl ", value=3)])
    assert outre(two) == {}
    three = two.model_copy(update={"gems": [*two.gems, Gem(kind="PEARL", value=3)]})
    assert outre(three) == {"pearl": 3} and outre(three, at=4) == {}
    s = adv.wear_hat(hilde(), "cap", 5, [("pearl", 3)] * 3, bought=True)
    assert "outré: 3 × pearl on one hat (WH-37; flagged from 3, ruling WH-C4)" in wh.notes(s, lib())
    assert wh.problems(s, lib()) == []
    strict = WitchHammerSheet.model_validate({**s.model_dump(), "house_rules": {"outre_at": 2}})
    assert any("outré" in n for n in wh.notes(strict, lib()))


def hat(value: int, *gems: int) -> Hat:
    return Hat(name="hat", value=value, gems=[Gem(kind=f"gem{i}", value=v) for i, v in enumerate(gems)])


def test_wh37_the_party_leader_has_the_most_valuable_hat() -> None:
    """WH-37: base value plus attached gems decides, so a plain 20-silver hat loses to a 6-silver one with
    18 silver of garnets (24)."""
    result = party_leader({"Hilde": hat(6, 10, 8), "Wendel": hat(20), "Odo": None})
    assert result.leader == "Hilde" and [r[:2] for r in result.ranking] == [("Hilde", 24), ("Wendel", 20), ("Odo", 0)]


def test_whc5_a_tie_goes_to_the_finer_hat_then_to_a_roll_off() -> None:
    """Ruling WH-C5: equal totals -> the higher base value; equal on both -> a d20 roll-off (again on a tie), or
    no leader without dice."""
    finer = party_leader({"Hilde": hat(6, 14), "Wendel": hat(20)})
    assert finer.leader == "Wendel" and "finer" in finer.reason
    tied = party_leader({"Hilde": hat(10, 5), "Wendel": hat(10, 2, 3)})
    assert tied.leader is None and tied.tied == ["Hilde", "Wendel"]
    rolled = party_leader({"Hilde": hat(10, 5), "Wendel": hat(10, 2, 3)}, ScriptedRNG([7, 7, 12, 3]))
    assert rolled.leader == "Hilde" and rolled.roll_off == [{"Hilde": 7, "Wendel": 7}, {"Hilde": 12, "Wendel": 3}]


def test_wh19_wh30_wounds_are_carried_and_healed_2_a_day_or_3_resting() -> None:
    """WH-19: Wounds stay on the sheet after a fight (and start the next one); WH-30: 2 a day, 3 resting; the
    Malus of the carried Wounds (WH-20: Health 12 has groups 2,2,1,1,...: 2 Wounds -1, 4 -> -2, 5 -> -3)."""
    assert [wh.malus_now(adv.wound(hilde(), w, lib()), lib()) for w in (1, 2, 4, 5)] == [0, -1, -2, -3]
    s = adv.wound(hilde(), 5, lib())
    assert s.wounds == 5
    assert adv.heal(s, 2).wounds == 1 and adv.heal(s, 1, rest=True).wounds == 2 and adv.heal(s, 9).wounds == 0
    assert adv.wound(s, 40, lib()).wounds == 12  # Health on the sheet stops at 0
    over = WitchHammerSheet.model_validate({**s.model_dump(), "wounds": 13})
    assert [(p.field, p.expected) for p in wh.problems(over, lib())] == [
        ("wounds", "at most the character's Health (12); got 13")
    ]


def test_wh23_whb23_afflictions_come_from_the_table() -> None:
    """WH-23/WH-B23: afflictions are narrative tags from the table (any case); others are refused."""
    s = adv.afflict(hilde(), "lost an EYE")
    assert s.afflictions == ["Lost an eye"]
    with pytest.raises(Refused, match="not on the affliction table"):
        adv.afflict(s, "Hangnail")
