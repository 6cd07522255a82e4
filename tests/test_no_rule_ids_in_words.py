"""No rule ID in a sentence a person reads: refusals, action labels and notes, the story.

The IDs stay in docstrings, help text and a refusal's ``rules`` field (:class:`affray.core.engine.Rejected`,
:func:`affray.core.words.split_rule_ids`). The scan plays every example with its policies on a fixed seed and, at
every third decision, submits a dozen illegal variants of a legal action (another combatant's id, a number out of
range, a list, a missing field...) and a move by someone whose turn it is not: every refusal's sentence, every prompt,
label and note offered, and every line of the story as each seat reads it are searched for an ID.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import affray
from affray.core.engine import GM, Rejected
from affray.core.json import Json
from affray.core.rng import FastRNG
from affray.core.scenario import NotAScenario
from affray.core.seatlog import seat_log
from affray.core.words import RULE_ID, split_rule_ids, without_rule_ids
from affray.table.errors import refused_step
from affray.table.examples import catalogue

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RULESETS = ("hud", "spellchrome", "warp", "witchhammer")
ODD_VALUES: tuple[Json, ...] = ("nobody", 99, -3, 0.5, True, [0, 0], [99, 99], None)


def _variants(action: dict[str, Json], ids: list[str]) -> Iterator[dict[str, Json]]:
    for key, value in action.items():
        if key == "type" or isinstance(value, dict):
            continue
        for other in (*ids, *ODD_VALUES):
            yield {**action, key: other}
        yield {k: v for k, v in action.items() if k != key}
    yield {**action, "bogus": 1}


def _words(path: Path, seed: int) -> Iterator[tuple[str, str]]:
    """(where, sentence) for every refusal, label, note and story line of one seeded fight of ``path``."""
    scenario = affray.load_scenario(path)
    match = scenario.start(seed=seed)
    policies = scenario.policies(match)
    rng, ids = random.Random(seed), list(match.names())
    for n in range(300):
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        yield "prompt", window.prompt
        specs = match.legal(actor)
        for spec in specs:
            yield from ((f"label of {actor}", s) for s in (spec.label, *spec.notes))
        if n % 3 == 0:
            tries = list(_variants(dict(rng.choice(specs).action), ids))
            rng.shuffle(tries)
            for action in tries[:12]:
                result = match.act(actor, action)
                if not isinstance(result, Rejected):
                    break
                yield f"refusal {result.code}", result.message
            for other in (a for a in ids if a not in window.actors):
                result = match.act(other, dict(specs[0].action))
                if isinstance(result, Rejected):
                    yield f"refusal {result.code}", result.message
            if match.pending() != window:
                continue
        choice = policies[actor].choose(match.observe(actor), match.choices(actor), FastRNG(seed * 1000 + n))
        match.act(actor, choice, trusted=True)
    for seat in {*match.seats.values(), GM}:
        for entry in seat_log(match, 0, seat, narrate=True):
            for said in (entry.get("text"), *(e.get("text") for e in entry.get("events", []))):  # type: ignore[union-attr]
                if isinstance(said, str) and said:
                    yield f"story for {seat}", said


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_rule_id_in_refusals_labels_or_story(ruleset: str) -> None:
    """Every sentence of every example's seeded fight (refusals of illegal actions, labels, notes, the story) names
    no rule ID."""
    found = {
        f"{path.name} {where}: {said}"
        for path in sorted((EXAMPLES / ruleset).glob("*.yaml"))
        for where, said in _words(path, seed=1)
        if RULE_ID.search(said)
    }
    assert not found, "\n".join(sorted(found))


def test_rejected_moves_the_ids_to_rules() -> None:
    """A refusal written with its IDs keeps the sentence and gives the IDs to ``rules`` (SC-21, SC-23 here); the
    table's answer carries them beside the message."""
    refused = Rejected("too_far", "A 5-foot step goes to one of the eight squares around (SC-21, SC-23).")
    assert refused.message == "A 5-foot step goes to one of the eight squares around."
    assert refused.rules == ("SC-21", "SC-23")
    answer = refused_step(refused.code, refused.message, refused.reason, refused.rules).to_dict()
    assert answer == {"code": "too_far", "message": refused.message, "rules": ["SC-21", "SC-23"]}
    assert Rejected("match_over", "The fight is over.").rules == ()


@pytest.mark.parametrize(
    ("text", "words", "ids"),
    [
        (
            "X cannot defend now (wrong use, or already used: WR-09).",
            "X cannot defend now (wrong use, or already used).",
            ("WR-09",),
        ),
        (
            "A step cannot enter difficult terrain (ruling SC-R11).",
            "A step cannot enter difficult terrain.",
            ("SC-R11",),
        ),
        (
            "[0, 0] is occupied (SC-21: a step goes to a free square).",
            "[0, 0] is occupied (a step goes to a free square).",
            ("SC-21",),
        ),
        (
            "Vesna's HP runs from 0 (down, WL-04, WL-08) to 3.",
            "Vesna's HP runs from 0 (down) to 3.",
            ("WL-04", "WL-08"),
        ),
        ("Messed Up follows HP (WR-24): set the HP bar.", "Messed Up follows HP: set the HP bar.", ("WR-24",)),
        ("A tag (WH-23, WH-B23): give it no rounds.", "A tag: give it no rounds.", ("WH-23", "WH-B23")),
        ("Ada is down.", "Ada is down.", ()),
    ],
)
def test_split_rule_ids(text: str, words: str, ids: tuple[str, ...]) -> None:
    """The IDs and the punctuation that only held them go; the words stay."""
    assert split_rule_ids(text) == (words, ids)
    assert without_rule_ids(text) == words


#: The HuD's modes as the lobby names them (WL-00, WL-04, WL-09).
HUD_MODES = {"simplified": "Dice Simplified", "nerdified": "Combat Nerdified", "free_form": "Free Form"}


def test_the_lobby_describes_every_example_in_a_sentence_and_says_the_huds_mode() -> None:
    """Every example the lobby lists (GET /api/examples reads each file's ``description``) has a one-sentence
    description (a sentence or two) without a rule ID; a HuD example's starts with its mode ("Dice Simplified: ...")."""
    for name, path in catalogue().items():
        try:
            scenario = affray.load_scenario(path)
        except NotAScenario:
            continue  # a content file beside the examples (the lobby lists none)
        said = scenario.model.description
        assert said.endswith(".") and said.count(". ") <= 1 and not RULE_ID.search(said), (name, said)
        mode = getattr(scenario.model, "mode", None)
        if scenario.plugin.name == "hud":
            assert said.startswith(f"{HUD_MODES[str(mode)]}: "), (name, said)
