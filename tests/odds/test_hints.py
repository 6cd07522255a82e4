"""Odds at the ``--play`` prompt for WitchHammer, WaRP and Spellchrome: the same numbers as ``affray odds``,
computed from the seat's own view (a GM character's hidden sheet is never read)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import affray
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.core.view import View
from affray.odds.hints import hints
from affray.rulesets.warp.odds import Armour, attack_odds
from affray.rulesets.witchhammer.odds import attack_odds as wh_attack_odds

EXAMPLES = Path(__file__).parents[2] / "examples"


def _at(path: Path, actor: str, seat: str, options: dict[str, Any] | None = None) -> tuple[Match, View[object, object]]:
    scenario = affray.load_scenario(path)
    match = Match(scenario.plugin, scenario.setup, {**scenario.options, **(options or {})}, rng=FastRNG(4))
    window = match.pending()
    if window is not None and window.phase == "psych":  # no Psych card: on to Planning
        for a in window.actors:
            match.act(a, {"type": "ready"})
    return match, match.view(seat)


def test_witchhammer_planning_shows_each_cards_attack_against_the_nearest_foe() -> None:
    """WH-11..WH-16: Sword Swing (Attack 8) + Tomas's Attack 1 against the peasant's Defense 0 (its card face
    down, so unknown), the Malus 0 on both."""
    match, view = _at(EXAMPLES / "witchhammer" / "mill_gate_duel.yaml", "tomas", "tomas")
    specs = match.legal("tomas")
    shown = dict(zip((s.label for s in specs), hints(match.plugin, view, "tomas", specs), strict=True))
    odds = wh_attack_odds(8 + 1, 0)
    assert shown["place Sword Swing face down"] == (
        f"Sword Swing hit {float(odds.p_hit):.0%} · solid {float(odds.p_solid_hit):.0%} (vs Crossbow Peasant)"
    )
    assert shown["place Shield Block face down"] == ""
    assert "Sword Swing hit" in shown["Sword Swing, then Shield Block"]


def test_warp_attack_hint_uses_only_what_the_seat_sees() -> None:
    """Theo's seat cannot read the knight's sheet: the hint says what it assumes. The GM's seat can: the
    fencer's 4 dice with plate's 2 penalty dice (WR-21) and 2d6 + 1 armour (WR-19). Theo's Clumsy puts a penalty
    die on his attack, which requires agility (WR-20)."""
    for seat, odds in [
        ("theo", attack_odds(4, 3, attack_penalty=1, factor=2)),
        ("gm", attack_odds(4, 4, attack_penalty=1, defense_penalty=2, factor=2, armour=Armour(2, 1))),
    ]:
        match, view = _at(EXAMPLES / "warp" / "knight_duel.yaml", "theo", seat, {"initiative": "seating_gm_last"})
        specs = match.legal("theo")
        bat = next(i for i, s in enumerate(specs) if s.action.get("trait") == "good_with_a_bat")
        text = hints(match.plugin, view, "theo", specs)[bat]
        assert text.startswith(f"hit {float(odds.p_hit):.0%} · avg ")
        assert text.endswith("if it defends with 3 dice, before armour") == (seat == "theo")


def test_spellchrome_attack_hint_shows_defense_and_damage() -> None:
    match, view = _at(EXAMPLES / "spellchrome" / "crossroads_2v2.yaml", "kestrin", "kestrin")
    window = match.pending()
    assert window is not None
    specs = match.legal(window.actors[0])
    texts = hints(match.plugin, view, window.actors[0], specs)
    attacks = [t for s, t in zip(specs, texts, strict=True) if s.action["type"] == "attack"]
    assert attacks and all(t.startswith("vs Defense ") and "avg" in t for t in attacks)


def test_a_broken_view_never_breaks_the_prompt() -> None:
    match, _ = _at(EXAMPLES / "witchhammer" / "mill_gate_duel.yaml", "tomas", "tomas")
    broken = {**match.view_json("tomas"), "fighters": {}, "combatants": []}
    assert hints(match.plugin, broken, "tomas", match.legal("tomas")) == [""] * len(match.legal("tomas"))
