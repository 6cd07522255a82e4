"""The Psych phase is order-free: every Psych card resolves against the combatants as they stood when the cards
were revealed, and what each card starts takes effect once all of them have resolved. Rules: WH-02, WH-B24.

So a brace (Steel Yourself: Steeled, +2 Fear Defense) played in the same Psych phase does not count against that
phase's Fear save (Dread Gaze), whichever side the scenario lists first.
"""

from __future__ import annotations

import copy
import zlib
from pathlib import Path
from typing import Any

import pytest
import yaml

from affray.core.dice import roll_die
from affray.core.events import Event, PhaseStarted, Rolled
from affray.core.journal import Journal
from affray.core.match import Match
from affray.core.rng import RNG, FastRNG
from affray.core.scenario import validate_scenario
from affray.rulesets.witchhammer import attack, effects, vignette, violence, wounds
from affray.rulesets.witchhammer.content_model import WitchHammerContent
from affray.rulesets.witchhammer.events import CardPlayed, Checked, Damaged, EffectChanged, PoiseChanged
from affray.rulesets.witchhammer.policies import WitchHammerHeuristic
from affray.rulesets.witchhammer.state import WitchHammerState
from tests.witchhammer.helpers import PLUGIN, RULESET, DiceRNG, fighter, library, of, ok

# Test-only Psych cards that write what the built-in ones do not: damage, a Malus, a block on Poise recovery.
PSYCH_CONTENT: dict[str, Any] = {
    "ruleset": "witchhammer",
    "cards": {
        "cruel_jeer": {
            "name": "Cruel Jeer",
            "kind": "psych",
            "below": [{"type": "damage", "amount": 6, "to": "nearest_enemy"}],
        },
        "crushing_glare": {
            "name": "Crushing Glare",
            "kind": "psych",
            "below": [{"type": "damage", "amount": 30, "to": "nearest_enemy"}],
        },
        "evil_eye": {
            "name": "Evil Eye",
            "kind": "psych",
            "below": [{"type": "effect", "status": "weakened", "rounds": "vignette", "to": "nearest_enemy"}],
        },
        "stifling_stare": {
            "name": "Stifling Stare",
            "kind": "psych",
            "below": [{"type": "effect", "status": "winded", "rounds": "vignette", "to": "nearest_enemy"}],
        },
    },
}
PSYCH_DECK = ["jab", "steel_yourself", "remember_why", "cutting_insult", *PSYCH_CONTENT["cards"]]

HERO = fighter("hero", (1, 1), deck=PSYCH_DECK)
KNIGHT = fighter("knight", (2, 1), use="barrow_knight")
DUMMY = fighter("dummy", (2, 1), use="dummy", deck=PSYCH_DECK)


def _match(a: list[dict[str, Any]], b: list[dict[str, Any]], dice: list[int]) -> Match:
    lib = library()
    lib.add_file(WitchHammerContent.model_validate(PSYCH_CONTENT), "tests/witchhammer/test_psych.py")
    data = {
        "ruleset": "witchhammer",
        "size": [12, 12],
        "sides": [{"name": "A", "combatants": a}, {"name": "B", "combatants": b}],
    }
    setup = RULESET.prepare(validate_scenario(RULESET.scenario_type, data, "test.yaml"), lib)
    return Match(PLUGIN, setup, {"general_school_deck": "learned"}, rng=DiceRNG(dice))


def _both_orders(
    a: list[dict[str, Any]], b: list[dict[str, Any]], dice: list[int], psych: dict[str, str]
) -> list[tuple[Match, list[Event]]]:
    """The same Psych reveal with side ``a`` listed first, then side ``b``; every scripted die is used."""
    out = []
    for first, second in ((a, b), (b, a)):
        m = _match(first, second, list(dice))
        out.append((m, _reveal(m, psych)))
        assert not m.rng.values, "a scripted die was left"  # type: ignore[attr-defined]
    return out


def _reveal(m: Match, psych: dict[str, str]) -> list[Event]:
    """Everyone in the Psych window commits its card (or none) in the window's order; the last commit reveals."""
    window = m.pending()
    assert window is not None and window.phase == "psych"
    events: list[Event] = []
    for actor in window.actors:
        events += ok(m.act(actor, {"type": "commit", "cards": [psych[actor]] if actor in psych else []}))
    return events


def _state(m: Match) -> WitchHammerState:
    assert isinstance(m.state, WitchHammerState)
    return m.state


def test_wh02_wh_b24_steel_yourself_does_not_count_against_the_same_phase_dread_gaze_in_either_order() -> None:
    """WH-02, WH-B24: the hero (Fear Defense 0) plays Steel Yourself (+2 Fear Defense for the vignette) and the
    Barrow Knight Dread Gaze (a Medium, 10, Fear save for each enemy). A natural 9 makes 9 against 10 and fails,
    with the hero listed first or second: the brace starts only once every Psych card has resolved. The hero
    ends Steeled (Defense +2, Fear +2) and Frightened (Attack -2, Defense -1) both ways."""
    seen = []
    for m, events in _both_orders([HERO], [KNIGHT], [9], {"hero": "steel_yourself", "knight": "dread_gaze"}):
        (save,) = of(events, "check")
        (roll,) = of(events, "rolled")
        hero = _state(m).fighters["hero"]
        seen.append(
            (
                save.actor,
                roll.roll.total,
                save.total,
                save.difficulty,
                save.success,
                sorted(s.status.id for s in hero.statuses),
                hero.mod_defense,
                hero.mod_attack,
                dict(hero.mod_defenses),
            )
        )
        assert _state(m).phase == "planning"
    assert seen[0] == seen[1] == ("hero", 9, 9, 10, False, ["frightened", "steeled"], 1, -2, {"fear": 2})


def test_wh_b24_a_malus_started_in_the_psych_phase_does_not_count_against_its_saves() -> None:
    """WH-B24, WH-27: the hero's Evil Eye puts Weakened (Malus -2) on the dummy while its ally's Cutting Insult
    asks the dummy for a Medium (10) Will save. Whichever side and whichever ally is listed first, the save is
    d20 10 + Will 0 + Malus 0 = 10 against 10 and succeeds: the Malus starts once both cards have resolved. The
    dummy ends Weakened (Malus -2), not Rattled."""
    ally = fighter("ally", (1, 2), deck=PSYCH_DECK)
    seen = set()
    for a in ([HERO, ally], [ally, HERO]):
        for m, events in _both_orders(a, [DUMMY], [10], {"hero": "evil_eye", "ally": "cutting_insult"}):
            (save,) = of(events, "check")
            (roll,) = of(events, "rolled")
            dummy = _state(m).fighters["dummy"]
            seen.add(
                (
                    save.actor,
                    save.what,
                    roll.roll.modifier,
                    save.total,
                    save.difficulty,
                    save.success,
                    tuple(s.status.id for s in dummy.statuses),
                    dummy.mod_malus,
                )
            )
    assert seen == {("dummy", "will save", 0, 10, 10, True, ("weakened",), -2)}


def test_wh_b24_poise_recovered_and_damage_dealt_in_one_psych_phase_land_in_a_fixed_order() -> None:
    """WH-B24, WH-19, WH-B10: the hero (Poise 5 of 10, Health 14) plays Remember Why (regain 10 Poise) while the
    dummy's Cruel Jeer deals it 6. In either listing the recovery lands first, topping up the Poise of the
    reveal to the max of 10, then the 6 come off Poise: Poise 4, Health 14 (the other way round, the 6 would have
    overflowed 1 Wound through Poise 5 and the recovery brought it back to 10)."""
    hero = {**HERO, "poise": 5}
    seen = set()
    for m, events in _both_orders([hero], [DUMMY], [], {"hero": "remember_why", "dummy": "cruel_jeer"}):
        f = _state(m).fighters["hero"]
        (hurt,) = of(events, "damaged")
        seen.add((f.poise, f.health, hurt.damage, hurt.wounds, tuple(s.status.id for s in f.statuses)))
    assert seen == {(4, 14, 6, 0, ("resolute",))}


def test_wh_b24_a_block_on_poise_recovery_started_in_the_psych_phase_does_not_stop_its_recoveries() -> None:
    """WH-B24: the dummy's Stifling Stare makes the hero Winded (cannot regain Poise) while the hero plays Remember
    Why from Poise 5: the hero was not Winded at the reveal, so it regains Poise to 10 in either listing, and is
    Winded (and Resolute) from then on."""
    hero = {**HERO, "poise": 5}
    seen = set()
    for m, _ in _both_orders([hero], [DUMMY], [], {"hero": "remember_why", "dummy": "stifling_stare"}):
        f = _state(m).fighters["hero"]
        seen.add((f.poise, f.no_recovery, tuple(sorted(s.status.id for s in f.statuses))))
    assert seen == {(10, True, ("resolute", "winded"))}


def test_wh_b24_a_combatant_downed_in_the_psych_phase_still_plays_its_psych_card() -> None:
    """WH-B24, WH-22: the dummy's Crushing Glare deals the hero (Poise 10, Health 14) 30: 3 penetrate, Poise takes
    10 and 17 overflow, 20 Wounds in all, Health -6: down. The hero was up when the cards turned over, so its
    Cutting Insult still asks the dummy for a Medium Will save in either listing: a 9 fails, and the dummy is
    Rattled (Attack -2, Init -1)."""
    far = fighter("ally", (8, 8), deck=PSYCH_DECK)  # a second hunter keeps the fight going
    seen = set()
    for m, events in _both_orders([HERO, far], [DUMMY], [9], {"hero": "cutting_insult", "dummy": "crushing_glare"}):
        s = _state(m)
        hero, dummy = s.fighters["hero"], s.fighters["dummy"]
        (save,) = of(events, "check")
        seen.add(
            (
                hero.out,
                hero.health,
                hero.poise,
                save.actor,
                save.total,
                save.success,
                tuple(st.status.id for st in dummy.statuses),
                dummy.mod_attack,
                dummy.mod_init,
                s.phase,
            )
        )
    assert seen == {("down", -6, 0, "dummy", 9, False, ("rattled",), -2, -1, "planning")}


# --- Whole fights, the sides listed in either order ------------------------------------------------------------

ROLLERS = (wounds, effects, violence, vignette, attack)  # every module that rolls a d20 through wounds.d20


class ActorDice:
    """Each combatant's d20s from a stream of its own, seeded by the fight's seed and the combatant's id: the
    scripted dice of a whole fight, the same for a combatant whichever side the scenario lists first (the match's
    own stream would hand the same die to another save when the listing changes)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.streams: dict[str, FastRNG] = {}

    def d20(self, rng: RNG, actor: str, purpose: str, modifier: int, journal: Journal) -> int:
        stream = self.streams.get(actor)
        if stream is None:
            stream = self.streams[actor] = FastRNG(zlib.crc32(f"{self.seed}:{actor}".encode()))
        roll = roll_die(stream, 20, modifier)
        if journal.loud:
            journal.append(Rolled(actor, purpose, roll))
        return roll.natural


def _sides(scenario: dict[str, Any], first: int) -> dict[str, Any]:
    data = copy.deepcopy(scenario)
    data["sides"] = data["sides"][first:] + data["sides"][:first]
    return data


def _psych_results(events: list[Event]) -> list[tuple[Any, ...]]:
    """What a Psych reveal did, in an order no listing decides: each card played, each d20 with its modifier and
    total, each save or check against its difficulty, each status started, each Poise and Health change."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        if isinstance(e, CardPlayed):
            out.append(("card", e.actor, e.card))
        elif isinstance(e, Rolled):
            out.append(("roll", e.actor, e.purpose, e.roll.modifier, e.roll.total))
        elif isinstance(e, Checked):
            out.append(("check", e.actor, e.what, e.total, e.difficulty, e.success))
        elif isinstance(e, EffectChanged):
            out.append(("effect", e.actor, e.status, e.change, e.rounds))
        elif isinstance(e, PoiseChanged | Damaged):
            out.append((e.kind, *sorted(e.to_dict().items())))
    return sorted(out, key=repr)


def _fight(data: dict[str, Any], seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list[list[tuple[Any, ...]]], Any]:
    """Play ``data`` to the end with the heuristic policy and per-combatant dice; the results of each Psych
    reveal (one list per vignette with a Psych phase) and the outcome."""
    dice = ActorDice(seed)
    for module in ROLLERS:
        monkeypatch.setattr(module, "d20", dice.d20)
    scenario = validate_scenario(RULESET.scenario_type, data, "test.yaml")
    m = Match(PLUGIN, RULESET.prepare(scenario, library()), data.get("options", {}), rng=FastRNG(seed))
    policies = {a: WitchHammerHeuristic() for a in _state(m).fighters}
    psych: list[list[tuple[Any, ...]]] = []
    while (window := m.pending()) is not None:
        actor = min(window.actors)  # not the window's order, which follows the listing
        events = ok(m.act(actor, policies[actor].choose(m.observe(actor), m.choices(actor), FastRNG(0))))
        played = [i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.slot == 0]
        if played:  # this step turned the Psych cards over: up to the Planning phase (or the end)
            end = next((i for i, e in enumerate(events) if isinstance(e, PhaseStarted) and i > played[0]), len(events))
            psych.append(_psych_results(events[played[0] : end]))
    assert m.rng.index == 0  # every die came from a combatant's own stream
    return psych, m.outcome()


EXAMPLES = Path(__file__).parents[2] / "examples" / "witchhammer"


def _braced_saves(reveals: list[list[tuple[Any, ...]]]) -> int:
    """How many Psych Fear saves were made by a combatant who played Steel Yourself in the same reveal."""
    count = 0
    for results in reveals:
        braced = {r[1] for r in results if r[0] == "card" and r[2] == "steel_yourself"}
        count += sum(1 for r in results if r[0] == "check" and r[1] in braced and r[2] == "fear save")
    return count


@pytest.mark.parametrize(
    ("name", "seed", "reveals", "braced"),
    [
        ("bench_arena.yaml", 1, 4, 4),
        ("bench_arena.yaml", 4, 5, 5),
        ("witch_hut.yaml", 2, 21, 2),
        ("witch_hut.yaml", 5, 8, 7),
    ],
)
def test_wh02_wh_b24_whole_fights_give_the_same_psych_results_whichever_side_is_listed_first(
    name: str, seed: int, reveals: int, braced: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WH-02, WH-B24: the same seeded fight (heuristic policies, each combatant's d20s from its own stream) with
    the sides listed in either order: every Psych reveal plays the same cards, rolls each save and check with the
    same modifier against the same difficulty, and starts the same statuses and Poise changes, vignette after
    vignette, to the same outcome. The fights have ``reveals`` Psych reveals and ``braced`` Fear saves made by a
    combatant who played Steel Yourself in the same reveal (against Dread Gaze or Witch's Cackle)."""
    data = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))
    data.get("options", {}).pop("drama_timer", None)  # no GM calling time: the policies plan every slot
    listed, swapped = _fight(data, seed, monkeypatch), _fight(_sides(data, 1), seed, monkeypatch)
    assert listed == swapped
    assert (len(listed[0]), _braced_saves(listed[0])) == (reveals, braced)
