"""Hit points in the fight: unconscious, dying, the DC 22 save, first aid, magical healing, EX-HP, Steal
Life and non-lethal blows (SC-01..SC-08, SC-11, SC-B3..SC-B6, SC-B11, SC-R5)."""

from __future__ import annotations

from affray.core.match import Match

from .support import act, build, fighter, kinds, refused, who, window

OPEN = "\n".join(["." * 8] * 4)


def _bleeder(hp: int, options: dict[str, object] | None = None, check: int = 2, **fields: object) -> Match:
    """``a`` starts dying at ``hp``; ``a2`` (its ally) and ``b`` (a foe) just end their turns.
    Setup rolls initiative (a, a2, b) and a's first stabilising save (``check``)."""
    return build(
        OPEN,
        {"left": [fighter("a", (0, 0), hp=hp, **fields), fighter("a2", (1, 1))], "right": [fighter("b", (7, 3))]},
        options,
        dice=[20, 10, 1, check],
    )


def test_sc04_sc_b4_a_character_at_minus_28_dies_only_at_minus_30() -> None:
    """SC-04/SC-B4: at −28 a loss of 1 leaves −29, still dying; the next round's 2 reaches −31: dead."""
    match = _bleeder(-28)
    assert who(match, "a").status == "dying" and window(match) == ("turn", ("a2",))
    act(match, "a2", {"type": "end_turn"})
    act(match, "b", {"type": "end_turn"}, 1, 2)  # end of round 1: loses 1; round 2: save fails
    assert who(match, "a").hp == -29 and who(match, "a").status == "dying"
    act(match, "a2", {"type": "end_turn"})
    result = act(match, "b", {"type": "end_turn"}, 2)
    assert who(match, "a").hp == -31 and who(match, "a").status == "dead"
    assert "defeated" in kinds(result)


def test_sc05_exactly_minus_30_is_dead() -> None:
    """SC-05: HP −30 is death."""
    match = _bleeder(-28)
    act(match, "a2", {"type": "end_turn"})
    act(match, "b", {"type": "end_turn"}, 2)
    assert who(match, "a").hp == -30 and who(match, "a").status == "dead"


def test_sc06_sc_b5_a_natural_20_stabilises_and_a_natural_1_fails() -> None:
    """SC-06/SC-B5/SC-13: the DC 22 Fortitude save: natural 20 succeeds even at −4, 1 fails even at +25."""
    match = _bleeder(-5, check=20, saves=[0, 0, 0], abilities={"constitution": 3})
    assert who(match, "a").status == "stable"
    act(match, "a2", {"type": "end_turn"})
    act(match, "b", {"type": "end_turn"})
    assert who(match, "a").hp == -5  # stable: no 1d4 at the end of the round
    match = _bleeder(-5, check=1, saves=[25, 0, 0])
    assert who(match, "a").status == "dying"
    match = _bleeder(-5, check=2, saves=[20, 0, 0])
    assert who(match, "a").status == "stable"  # 2 + 20 = 22
    match = _bleeder(-5, {"stabilise_is_save": False}, check=1, saves=[25, 0, 0])
    assert who(match, "a").status == "stable"  # SC-B5 off: a plain check, 1 + 25 ≥ 22


def test_sc03_exactly_zero_is_unconscious_and_does_not_bleed() -> None:
    """SC-03: at 0 HP the character is unconscious, takes no actions and loses nothing."""
    match = _bleeder(0)
    assert who(match, "a").status == "unconscious" and window(match) == ("turn", ("a2",))
    act(match, "a2", {"type": "end_turn"})
    act(match, "b", {"type": "end_turn"})
    assert who(match, "a").hp == 0


def _dropped(options: dict[str, object] | None = None) -> Match:
    """b (first) drops a (second) to −3 with a hit in round 1."""
    match = build(
        OPEN,
        {"left": [fighter("a", (1, 0), hp=2), fighter("a2", (5, 3))], "right": [fighter("b", (2, 0))]},
        options,
        dice=[10, 5, 20],
    )
    act(match, "b", {"type": "attack", "target": "a"}, 20, 5)
    assert who(match, "a").hp == -3 and who(match, "a").status == "dying"
    return match


def test_sc_b3_the_drop_round_bleeds_and_the_save_starts_next_round() -> None:
    """SC-B3: the 1d4 falls at the end of the round it dropped in; the save comes at its turn next round."""
    match = _dropped()
    act(match, "b", {"type": "end_turn"})
    assert window(match) == ("turn", ("a2",))  # a's turn passed without a save
    act(match, "a2", {"type": "end_turn"}, 3, 5)  # end of round 1: −3 − 3; round 2: a's save (5: fails)
    assert who(match, "a").hp == -6
    assert window(match) == ("turn", ("b",))


def test_sc_b3_options_change_the_first_loss_and_the_first_save() -> None:
    """SC-B3 options: no loss in the drop round; or the save at its very next turn."""
    match = _dropped({"dying_loss_in_first_round": False})
    act(match, "b", {"type": "end_turn"})
    act(match, "a2", {"type": "end_turn"}, 5)  # round 2: a's save fails; no loss was rolled
    assert who(match, "a").hp == -3
    match = _dropped({"first_stabilise_check": "next_turn"})
    result = act(match, "b", {"type": "end_turn"}, 20)
    assert "check" in kinds(result) and who(match, "a").status == "stable"


def test_sc06_first_aid_heal_dc15_stabilises() -> None:
    """SC-06: first aid is a standard action and a Heal check DC 15 (untrained: Wis modifier)."""
    match = _bleeder(-5, check=2)
    assert refused(match, "a2", {"type": "first_aid", "target": "b"}).code == "out_of_reach"
    act(match, "a2", {"type": "first_aid", "target": "a"}, 14)
    assert who(match, "a").status == "dying"
    match = _bleeder(-5, check=2)
    act(match, "a2", {"type": "first_aid", "target": "a"}, 15)
    assert who(match, "a").status == "stable"
    match = _bleeder(0, check=2)
    assert refused(match, "a2", {"type": "first_aid", "target": "a"}).code == "not_dying"


def test_sc06_sc08_magical_healing_stabilises_and_never_passes_max() -> None:
    """SC-06: Swift Healing of ≥ 1 HP stabilises even below 0; SC-08: healing stops at max HP."""
    healer = {"spells": {"swift_healing": 3}}
    match = build(
        OPEN,
        {
            "left": [fighter("a", (0, 0), hp=-10), fighter("a2", (1, 1), hp=15, **healer)],
            "right": [fighter("b", (7, 3))],
        },
        dice=[20, 10, 1, 2],
    )
    act(match, "a2", {"type": "cast", "spell": "swift_healing", "target": "a"}, 3)
    assert who(match, "a").hp == -6 and who(match, "a").status == "stable"
    act(match, "a2", {"type": "end_turn"})
    act(match, "b", {"type": "end_turn"})
    act(match, "a2", {"type": "cast", "spell": "swift_healing", "target": "a2"}, 8)
    assert who(match, "a2").hp == 20  # 15 + 9 capped at the max of 20


def test_sc02_sc06_a_dying_ally_healed_to_1_hp_or_more_acts_again() -> None:
    """SC-06 then SC-02: Swift Healing of 4 lifts a character at −2 HP to 2 HP, so it is able again and takes its turn
    next round (its kept ``able`` flag follows the healing, Combatant.settle)."""
    healer = {"spells": {"swift_healing": 3}}
    match = build(
        OPEN,
        {
            "left": [fighter("a", (0, 0), hp=-2), fighter("a2", (1, 1), hp=15, **healer)],
            "right": [fighter("b", (7, 3))],
        },
        dice=[20, 10, 1, 2],
    )
    assert window(match) == ("turn", ("a2",)) and not who(match, "a").able  # a, dying, rolled 2 and lost its turn
    act(match, "a2", {"type": "cast", "spell": "swift_healing", "target": "a"}, 3)
    assert (who(match, "a").hp, who(match, "a").status, who(match, "a").able) == (2, "normal", True)
    act(match, "a2", {"type": "end_turn"})
    act(match, "b", {"type": "end_turn"})
    assert window(match) == ("turn", ("a",))
    assert match.ruleset.invariants(match.state) == []


def test_sc07_ex_hp_absorbs_blows_but_not_steal_life() -> None:
    """SC-07/SC-B6: a sword blow goes through damage reduction 2 and EX-HP 10 first; Steal Life ignores the
    EX-HP but not the damage reduction (SC-07: the armour's other protective qualities keep working)."""
    plated = {"armour": "empowered_plate"}
    match = build(
        OPEN,
        {
            "left": [fighter("a", (1, 0), **plated)],
            "right": [fighter("b", (2, 0)), fighter("w", (5, 0), spells={"steal_life": 1})],
        },
        dice=[5, 20, 10],
    )
    act(match, "b", {"type": "attack", "target": "a"}, 20, 8)  # 8 − 2 reduced = 6, all absorbed
    assert (who(match, "a").hp, who(match, "a").ex_hp) == (20, 4)
    act(match, "b", {"type": "end_turn"})
    act(match, "w", {"type": "cast", "spell": "steal_life", "target": "a"}, 3, 4, 1)  # 2d6+1 = 8, save fails
    assert (who(match, "a").hp, who(match, "a").ex_hp) == (14, 4)  # 8 − 2 reduced = 6 off HP, EX-HP untouched


def test_sc11_the_non_lethal_option_knocks_out_and_sc_b4_overkill_still_kills() -> None:
    """SC-11: with the GM's option an unarmed blow into −1..−29 leaves the target stable; SC-B4: ≤ −30 kills (a
    Str modifier of +32 makes the punch 3 + 32 = 35: 1 HP to −34); switched off, the blow stops at −29."""

    def punch(hp: int, options: dict[str, object], strength_mod: int = 0) -> Match:
        match = build(
            OPEN,
            {
                "left": [fighter("a", (1, 0), weapons=[], feats=["guarded_unarmed_attack"])],
                "right": [fighter("b", (2, 0), hp=hp), fighter("c", (7, 3))],
            },
            options,
            dice=[20, 10, 1],
        )
        who(match, "a").mods["strength"] = strength_mod
        act(match, "a", {"type": "attack", "target": "b"}, 20, 3)
        return match

    assert who(punch(1, {"nonlethal_unarmed": True}), "b").status == "stable"
    assert who(punch(1, {}), "b").status == "dying"
    assert who(punch(1, {"nonlethal_unarmed": True}, 32), "b").status == "dead"
    assert who(punch(1, {"nonlethal_unarmed": True, "nonlethal_overkill_kills": False}, 32), "b").hp == -29
    assert who(punch(-27, {"nonlethal_unarmed": True, "nonlethal_overkill_kills": False}), "b").status == "dead"


def test_sc_b11_a_non_lethal_punch_on_the_dying_is_lethal_as_usual() -> None:
    """SC-11 with SC-04, ruling SC-B11: under the non-lethal option P punches A, already dying at −3, for 2: A is at
    −5 and still dying (the punch used to leave it stable), fails its DC 22 save at its turn (2 + 2 < 22) and loses
    1 more at the round's end: −6. Option ``nonlethal_spares_only_the_conscious`` off: the punch leaves it stable."""

    def punched(options: dict[str, object]) -> Match:
        match = build(
            OPEN,
            {
                "left": [fighter("a", (0, 0), hp=-3), fighter("a2", (5, 3))],
                "right": [fighter("p", (1, 0), weapons=[], feats=["guarded_unarmed_attack"])],
            },
            {"nonlethal_unarmed": True, **options},
            dice=[10, 5, 20],
        )
        act(match, "p", {"type": "attack", "target": "a"}, 20, 2)  # a natural 20 hits; 1d3 unarmed: 2
        assert who(match, "a").hp == -5
        return match

    match = punched({})
    assert who(match, "a").status == "dying"
    result = act(match, "p", {"type": "end_turn"}, 2)  # a's DC 22 save at its turn: 2 + 2 = 4 fails
    assert "check" in kinds(result) and who(match, "a").status == "dying" and window(match) == ("turn", ("a2",))
    act(match, "a2", {"type": "end_turn"}, 1)  # the end of round 1: 1d4 = 1
    assert (who(match, "a").hp, who(match, "a").status) == (-6, "dying")
    match = punched({"nonlethal_spares_only_the_conscious": False})
    assert who(match, "a").status == "stable"


def test_sc_r5_a_stable_character_who_is_hurt_again_is_dying_again() -> None:
    """Ruling SC-R5 (SRD): damage to a stable character restarts the dying clock."""
    match = build(
        OPEN,
        {"left": [fighter("a", (1, 0), hp=-5), fighter("a2", (6, 3))], "right": [fighter("b", (2, 0))]},
        dice=[10, 5, 20],
    )
    assert who(match, "a").status == "dying"  # b acts first; a has not rolled yet
    act(match, "b", {"type": "end_turn"}, 20)  # a's save: natural 20
    assert who(match, "a").status == "stable"
    act(match, "a2", {"type": "end_turn"})
    act(match, "b", {"type": "attack", "target": "a"}, 20, 1)
    assert who(match, "a").status == "dying" and who(match, "a").hp == -6


def test_sc04_sc06_live_play_agrees_with_the_exact_odds() -> None:
    """Contract 3: from −28, a first round kills unless the DC 22 save (d20 + 2: only a natural 20) stabilises
    and otherwise needs a 1d4 of 2+: exactly 19/20 × 3/4 = 57/80 by icepool over the same mechanics. The
    engine on seeded dice must agree within 4 standard errors (n = 1200, SE ≈ 0.013)."""
    from fractions import Fraction

    import icepool

    from affray.rulesets.spellchrome.mechanics import dying_step, stabilise_succeeds

    def dies(nat: int, loss: int) -> bool:
        return not stabilise_succeeds(nat, 2) and dying_step(-28, loss)[1] == "dead"

    exact = Fraction(icepool.map(dies, icepool.d20, icepool.d4).probability(True)).limit_denominator(1000)
    assert exact == Fraction(57, 80)
    n, dead = 1200, 0
    for seed in range(n):
        match = build(
            OPEN,
            {"left": [fighter("a", (0, 0), hp=-28), fighter("a2", (1, 1))], "right": [fighter("b", (7, 3))]},
            dice=[20, 10, 1],
            seed=seed,
        )
        act(match, "a2", {"type": "end_turn"})
        act(match, "b", {"type": "end_turn"})
        dead += who(match, "a").status == "dead"
    share = dead / n
    assert abs(share - 57 / 80) < 4 * (57 / 80 * 23 / 80 / n) ** 0.5
