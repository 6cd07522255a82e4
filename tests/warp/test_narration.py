"""WaRP told as a story (core/narration.py; rulesets/warp/narration.py, events.py): every example played to its end
reads, at every seat, in sentences with names and never ids; a GM character's secret numbers stay out of the other
seats' sentences; the main events of a seeded fight read as the golden sentences below, each citing its rule."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import affray
from affray.ai.base import RandomPolicy
from affray.core.dice import Roll
from affray.core.engine import GM
from affray.core.match import Match
from affray.core.narration import Story
from affray.core.rng import FastRNG
from affray.rulesets.warp.events import EffectApplied, GangChosen, PoolRolled
from affray.rulesets.warp.narration import NARRATOR
from tests.readable import told, unreadable
from tests.warp.helpers import attack, fighter, ok, warp_match

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "warp").glob("*.yaml"))


def played(path: Path, seed: int, policy: str = "scenario") -> Match:
    """``path`` played to its end by its own policies (the GM's calls by the options), or all on random."""
    scenario = affray.load_scenario(path)
    match = scenario.start(seed=seed)
    policies = scenario.policies(match) if policy == "scenario" else {a: RandomPolicy() for a in match.controllers}
    affray.play(match, policies, FastRNG(seed))
    assert match.outcome() is not None
    return match


def ids(path: Path, match: Match) -> set[str]:
    """The scenario's combatant and content ids, and the ids of the content its setup carries."""
    data = yaml.safe_load(path.read_text())
    found = {c["id"] for side in data["sides"] for c in side["combatants"]}
    found |= {c["use"] for side in data["sides"] for c in side["combatants"] if "use" in c}
    for c in match.setup_data["combatants"]:
        found |= set(c["weapons"]) | set(c["traits"]) | {f["id"] for f in c["flaws"]}
    return found | set(match.setup_data["maneuvers"])


def texts(match: Match, seat: str = "spectator") -> list[str]:
    """Every sentence ``seat`` reads, a roll by its lead (its dice are drawn as chips)."""
    return [text for text, _ in told(match, seat)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("seed", [1, 7, 23])
@pytest.mark.parametrize("policy", ["scenario", "random"])
def test_every_example_reads_in_names_at_every_seat(path: Path, seed: int, policy: str) -> None:
    """Every event of a whole fight, told at every seat (the GM's, each player's, a spectator's), names combatants
    and content and shows no id, no JSON, no snake_case word."""
    match = played(path, seed, policy)
    assert unreadable(match, ids(path, match)) == []


def test_wr05_wr08_wr11_wr19_a_seeded_brawl_reads_as_the_table_tells_it() -> None:
    """WR-05: initiative rolled once, highest first; WR-07: moves at a pace; WR-08/WR-10: attack against defense,
    a hit only when higher; WR-14: the GM's dice for a missile; WR-11/WR-19: damage, armour's share and the HP
    left; WR-25: down for the count; the fight ends when one side is left."""
    match = played(EXAMPLES[[p.name for p in EXAMPLES].index("melee_brawl.yaml")], 3)
    told_ = texts(match)
    assert told_[:23] == [
        "Dana Reyes: roll initiative.",  # the choice of Experience Pool dice (none): the action's own words
        "Dana Reyes rolls initiative with Fast on Their Feet",
        "Theo Marsh rolls initiative with the default 2 dice (penalty dice: Clumsy)",
        "Dock Thug with a Scar rolls initiative with the default 2 dice",
        "Dock Thug in a Beanie rolls initiative with the default 2 dice",
        "Dock Thug Who Hums rolls initiative with the default 2 dice",
        "Dana Reyes (15) acts first, then Dock Thug with a Scar (9), then Dock Thug Who Hums (8), then Theo Marsh "
        "(7), then Dock Thug in a Beanie (7).",
        "Dana Reyes moves from 0 m to 3 m (hurrying).",
        "Dock Thug with a Scar attacks Dana Reyes with the switchblade (plain attack, 1 m away).",
        "Dock Thug with a Scar rolls a melee attack with Street Brawler",
        "Dana Reyes rolls defense with Fast on Their Feet",
        "Dock Thug with a Scar misses Dana Reyes (attack 7 against defense 13).",
        "Dock Thug Who Hums moves from 9 m to 4 m (hurrying).",
        "Theo Marsh takes a shot at Dock Thug with a Scar with the baseball (plain attack, 3 m away).",
        "Theo Marsh rolls a ranged attack with the default 2 dice (penalty dice: Clumsy)",
        "Dock Thug with a Scar defends against the shot with 2 dice and 2 bonus dice (distance 2, dodging +2).",
        "Dock Thug with a Scar rolls a ranged defense with the dice the GM assigns (bonus dice: dodging ×2)",
        "Theo Marsh misses Dock Thug with a Scar (attack 5 against defense 8).",
        "Dock Thug in a Beanie attacks Dana Reyes with the switchblade (plain attack, 2 m away).",
        "Dock Thug in a Beanie rolls a melee attack with Street Brawler",
        "Dana Reyes rolls defense with Fast on Their Feet",
        "Dock Thug in a Beanie hits Dana Reyes (attack 14 against defense 13).",
        "Dana Reyes takes 1 damage (2 dealt, 1 stopped by armour): 20 HP left.",
    ]
    assert told_[-3:] == [
        "Dock Thug in a Beanie takes 18 damage (18 dealt).",
        "Dock Thug in a Beanie is down for the count (badly broken bones and internal bleeding, but stable).",
        "Victory for the couriers (Dana Reyes and Theo Marsh): every foe is out of the fight.",
    ]


def test_a_gm_characters_hp_reach_only_the_gm_in_its_wounds() -> None:
    """A GM character's numbers are GM-level (docs/warp.md, "What each seat sees"): the GM reads the HP left after
    its wound, the players and spectators the wound alone (WR-11)."""
    match = played(EXAMPLES[[p.name for p in EXAMPLES].index("melee_brawl.yaml")], 3)
    first = "Dock Thug with a Scar takes 4 damage (4 dealt)"
    assert first + ": 17 HP left." in texts(match, "gm")
    for seat in ("dana", "theo", "spectator"):
        assert first + "." in texts(match, seat) and first + ": 17 HP left." not in texts(match, seat)


def test_wr26_a_reason_to_live_and_the_gms_verdict() -> None:
    """WR-26: at -max HP a PC is at death's door and gives a reason to live; with the GM at the table (WR-X1) the
    GM rules on the shot and gives the verdict. 14 - 8 = 6, x 7 = 42 from 21 HP (WR-11, WR-12)."""
    rifle = fighter("sniper", pc=False, traits={"good_shot": 4}, weapons=["heavy_rifle"], position=10)
    m = warp_match(
        [fighter("pc", traits={"street_brawler": 3})],
        [rifle],
        [2, 4, 4, 4, 4, 4, 1, 1],
        {"initiative": "seating_gm_first", "gm_decisions": "table"},
    )
    ok(m.act("sniper", attack("pc")))
    ok(m.act(GM, {"type": "rule", "predictable": False, "margin": 4}))
    ok(m.act("pc", {"type": "plea", "reason": "unfinished business"}))
    ok(m.act(GM, {"type": "verdict", "lives": False}))
    assert texts(m) == [
        "Sniper takes a shot at Pc with the heavy rifle (plain attack, 10 m away).",
        "The GM rules on Sniper's attack: not predictable and a special effect needs a margin of 4.",
        "Sniper rolls a ranged attack with Good Shot",
        "Pc defends against the shot with 2 dice and 2 bonus dice (distance 2, dodging +2).",
        "Pc rolls a ranged defense with the dice the GM assigns (bonus dice: dodging ×2)",
        "Sniper hits Pc (attack 14 against defense 8).",
        "Pc takes 42 damage (42 dealt): down to -21 HP.",
        "Pc is at death's door.",
        "Pc holds on, with a reason to live: \u201cunfinished business\u201d",
        "Pc dies (the GM refuses the reason).",
        "Victory for Sniper: every foe is out of the fight.",
    ]


def test_wr30_wr31_wr35_special_effects_ganging_up_and_a_secret_gestalt_roll() -> None:
    """WR-30: a special effect lands past the margin; WR-31: the defender ganged up on names whom it faces
    normally; WR-35: a GM character's gestalt roll is told to the others without its dice or total."""
    story = Story({"a": "Dana", "b": "Ilka", "c": "Mo"})
    assert EffectApplied("a", "b", "prone", 4, 3, True).describe(story) == "Dana knocks Ilka down (margin 4, 3 needed)."
    assert (
        EffectApplied("a", "b", "disarm", 2, 3, False).describe(story)
        == "Dana tries to disarm Ilka but fails (margin 2, 3 needed)."
    )
    assert GangChosen("a", ["b", "c"]).describe(story) == (
        "Dana is ganged up on and defends normally against Ilka and Mo; any other attacker beyond its first 2 this "
        "round gets a bonus die."
    )
    secret = PoolRolled("c", "gestalt", Roll("3d6", (), 0, 12), "Street Brawler", secret=True)
    assert NARRATOR.hidden(secret.redacted(), story) == "Mo rolls for the gestalt fight; the GM keeps the total secret."
