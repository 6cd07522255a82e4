"""The Sim HuD told as a story (core/narration.py; rulesets/hud/narration.py, events.py): every example played to
its end reads, at every seat, in sentences with names and never ids; the main events of a seeded fight read as
the golden sentences below, each citing its rule."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import affray
from affray.core.match import Match
from affray.core.narration import Story
from affray.rulesets.hud.events import Fizzled
from affray.rulesets.hud.narration import NARRATOR
from tests.hud.helpers import DEFENSE, attack, combatant, declare, hud_match, ok
from tests.readable import told, unreadable

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "hud").glob("*.yaml"))


def played(path: Path, seed: int) -> Match:
    scenario = affray.load_scenario(path)
    match = scenario.start(seed=seed)
    affray.play(match, scenario.policies(match))
    assert match.outcome() is not None
    return match


def ids(path: Path, match: Match) -> set[str]:
    """The scenario's combatant and content ids, and the ids of the weapons its setup carries."""
    data = yaml.safe_load(path.read_text())
    found = {c["id"] for side in data["sides"] for c in side["combatants"]}
    found |= {c["use"] for side in data["sides"] for c in side["combatants"] if "use" in c}
    found |= {w for c in match.setup_data["combatants"] for w in c["weapons"]}
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("seed", [1, 7, 23])
def test_every_example_reads_in_names_at_every_seat(path: Path, seed: int) -> None:
    """Every event of a whole fight, told at every seat, names combatants and weapons and shows no id, no JSON,
    no snake_case word. Rules: WL-09 (the HuD hides nothing: every seat reads the same facts)."""
    match = played(path, seed)
    assert unreadable(match, ids(path, match)) == []


def texts(match: Match, seat: str = "spectator") -> list[str]:
    """Every sentence ``seat`` reads, a roll by its lead (its dice are drawn as chips)."""
    return [text for text, _ in told(match, seat)]


def runner(cid: str, agility: int = 0, strength: int = 0) -> dict[str, object]:
    return combatant(cid, name=cid.upper(), endurance=10, agility=agility, strength=strength)


def test_wl09_wl11_wl13_a_seeded_duel_reads_as_the_table_tells_it() -> None:
    """WL-09: declarations from the lowest roll up, in the open ("attacks Vesna, then defends"); WL-11 and WL-12:
    Attack against Defense with its numbers, a riposte opening; WL-13: the Damage phase's loss and the HP left;
    WL-08: at 0 HP the combatant is out and the other side wins."""
    match = played(EXAMPLES[[p.name for p in EXAMPLES].index("nerdified_duel.yaml")], 7)
    told_ = texts(match)
    assert told_[:11] == [
        "Watch Sergeant Hald declares: attacks Vesna of the Lynx, then defends.",
        "Vesna of the Lynx declares: attacks Watch Sergeant Hald, then defends.",
        "Vesna of the Lynx rolls Attack",
        "Watch Sergeant Hald rolls Defense",
        "Watch Sergeant Hald parries Vesna of the Lynx (Defense 11 against Attack 6).",
        "Watch Sergeant Hald: let it go.",  # no riposte: the action's own words (its events tell nothing)
        "Vesna of the Lynx: carry on (no emergency action).",
        "Watch Sergeant Hald rolls Attack",
        "Vesna of the Lynx rolls Defense",
        "Vesna of the Lynx parries Watch Sergeant Hald (Defense 11 against Attack 7).",
        "Vesna of the Lynx: let it go.",
    ]
    assert told_[11:15] == [
        "— Round 2 —",
        "Vesna of the Lynx rolls Chance for initiative",
        "Watch Sergeant Hald rolls Chance for initiative",
        "Vesna of the Lynx acts first, then Watch Sergeant Hald.",
    ]
    assert (
        "Watch Sergeant Hald parries Vesna of the Lynx (Defense 11 against Attack 2): an opening for a riposte!"
        in told_
    )
    assert told_[-3:] == [
        "Vesna of the Lynx loses 8 HP to Watch Sergeant Hald's blow (Damage 13 against Injury 5): no HP left (-3).",
        "Vesna of the Lynx is down, out of the fight.",
        "Victory for the watch (Watch Sergeant Hald): every foe is down.",
    ]
    roll = next(e for r in match.events_since(0, "spectator", narrate=True) for e in r["events"] if "lead" in e)
    assert roll["lead"] == "Vesna of the Lynx rolls Attack"
    assert roll["text"] == "Vesna of the Lynx rolls Attack: 1d13 [6] = 6"


def test_wl21_wl22_a_chase_and_a_catch_read_as_the_gap_closes() -> None:
    """WL-21: the winner disengages; WL-22: each pursuit roll moves the gap, and at 2 m or less the fleeing one is
    caught in a new melee (WL-B13)."""
    m = hud_match("nerdified", runner("a", agility=3), runner("b", strength=1), [9, 3, 10, 2, 8, 4, 2, 9, 11, 1])
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))
    ok(m.act("a", {"type": "disengage"}))
    ok(m.act("b", {"type": "chase"}))
    assert texts(m)[4:15] == [
        "A hits B (Attack 10 against Defense 2).",
        "A disengages and flees! Pursuit begins.",
        "B gives chase.",
        "A rolls Chance for the pursuit",
        "B rolls Chance for the pursuit",
        "Pursuit: A runs 11 against the pursuers' 5; the gap is 6 m: the chase goes on.",
        "A rolls Chance for the pursuit",
        "B rolls Chance for the pursuit",
        "Pursuit: A runs 5 against the pursuers' 10; the gap is 1 m: A is caught.",
        "A is caught up in a new melee.",
        "B catches up.",
    ]


def test_wl22_wl_b14_an_escape_reads_as_no_defeat() -> None:
    """WL-22: beyond 15 m the fleeing one gets away; WL-B14: nobody was defeated."""
    m = hud_match("nerdified", runner("a", agility=3), runner("b", strength=1), [9, 3, 10, 2, 11, 1, 10, 5])
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))
    ok(m.act("a", {"type": "disengage"}))
    ok(m.act("b", {"type": "chase"}))
    assert texts(m)[-3:] == [
        "Pursuit: A runs 13 against the pursuers' 6; the gap is 19 m: A gets away.",
        "A has escaped.",
        "The fight is over: A escaped; nobody was defeated.",
    ]


def test_wl19_an_emergency_rearm_names_the_weapons() -> None:
    """WL-19: an emergency rearm drops what must leave the hand and draws; weapons read by their content names."""
    m = hud_match("nerdified", combatant("bors", "bors"), runner("b"), [3, 9, 5, 4])
    ok(declare(m, "bors", {"type": "emergency_rearm", "weapon": "long_dagger"}, DEFENSE, DEFENSE))
    ok(declare(m, "b", DEFENSE, DEFENSE))
    assert texts(m)[:3] == [
        "Bors the Ferryman's Son declares: rearms in an emergency with the Long dagger, then defends, then defends.",
        "B declares: defends, then defends.",
        "Bors the Ferryman's Son rearms in an emergency with the Long dagger; in hand now: the Round shield and the "
        "Long dagger.",
    ]


def test_wl00_wl06_simplified_and_free_form_read_as_posts_and_hits() -> None:
    """WL-06: a higher attacker roll costs the defender 1 HP; WL-00: posts read as the poster's words, HP kept by
    hand, and a call for dice settles one exchange."""
    m = hud_match("free_form", runner("a"), runner("b"), [10, 2])
    ok(m.act("a", {"type": "post", "text": "Steel flashes in the rain."}))
    ok(m.act("b", {"type": "post", "text": "I stumble back.", "hp": {"b": -1}}))
    ok(m.act("a", {"type": "settle", "target": "b", "die": "attack"}))
    ok(m.act("b", {"type": "respond", "die": "injury"}))
    assert texts(m) == [
        "A: Steel flashes in the rain.",
        "B: I stumble back.",
        "B loses 1 HP: 2 HP left.",
        "A calls for dice to settle the exchange.",
        "A rolls Attack",
        "B rolls Injury",
        "A's Attack 10 against B's Injury 2: B loses 1 HP, 1 left.",
    ]


def test_wl19_a_weapon_in_a_sentence_an_event_carries_is_told_by_its_name() -> None:
    """WL-19: an arms change that can no longer be made comes to nothing; the refusal it carries names the weapon
    by its id, and the sentence by its name."""
    story = Story({"a": "Ilka"}, {"long_dagger": "Long dagger"})
    fizzled = Fizzled("a", "pick_up", "long_dagger is not lying on the ground.")
    assert NARRATOR.sentence(fizzled, story) == (
        "Ilka's pick-up comes to nothing: Long dagger is not lying on the ground."
    )
    assert fizzled.describe({"a": "Ilka"}) == "Ilka's pick-up comes to nothing: long dagger is not lying on the ground."
