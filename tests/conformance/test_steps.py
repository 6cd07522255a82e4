"""Every ruleset's step tree (core/steps.py, each rulesets/<name>/steps.py) keeps its constraints at every move of a
seeded fight of every example: each step at most 12 choices, short labels of at most 24 bytes of UTF-8 and unique
within their step, no id in a label (names, never ids), and the tree's leaves exactly the actor's legal actions (the
same set the flat list offers, compared as canonical JSON)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from affray.core.actions import ActionType, by_type
from affray.core.engine import Action, ActionSpec
from affray.core.json import Json
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.core.steps import Step, leaves, paths, problems, steps_for
from affray.odds.hints import hints
from tests.conformance.common import cases, load, scenario_id

MAX_MOVES = 150


def canonical(actions: list[Action]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def named_ids(action: Action, types: dict[str, ActionType]) -> Iterator[str]:
    """The ids an action holds: its combatants and its content (a non-free field of kind ``actor`` or ``string``,
    and the same inside a declared list's items, a HuD plan's)."""
    declared = types.get(str(action.get("type")))
    if declared is None:
        return
    for f in declared.fields:
        value: Json = action.get(f.name)
        if f.kind in ("actor", "string") and not f.free and isinstance(value, str):
            yield value
        elif f.kind == "list" and f.item and isinstance(value, list):
            inner = by_type(f.item)
            for item in value:
                if isinstance(item, dict):
                    yield from named_ids(item, inner)
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


def ids_in_labels(tree: Step, ids: set[str]) -> list[str]:
    """Every label or prompt of ``tree`` that holds one of ``ids`` as a word of its own, as written (an id is lower
    case, a name is capitalised: "vesna" is an id, "Vesna of the Lynx" a name)."""
    if not ids:
        return []
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, ids), key=len, reverse=True)) + r")(?![\w-])")
    texts = [(path, text) for path, c in paths(tree) for text in (c.short, c.long, c.step.prompt if c.step else "")]
    return [f"{path}: {text!r}" for path, text in [("", tree.prompt), *texts] if pattern.search(text)]


def check_move(match: Match, actor: str, types: dict[str, ActionType]) -> list[str]:
    seat = match.seats[actor]
    view = match.view(seat)
    legal: list[ActionSpec] = match.legal(actor)
    tree = steps_for(match.plugin, view, actor, legal, hints(match.plugin, view, actor, legal))
    out = problems(tree)
    if canonical(leaves(tree)) != canonical([s.action for s in legal]):
        out.append("its leaves are not the legal actions")
    # A content id of one plain word may be its name too (a "baseball"): those of several words or a number are ids.
    # So is a combatant's id, but for one that is a word of a name the listing's labels write ("gun", a combatant,
    # in "with the submachine gun").
    content = {i for s in legal for i in named_ids(s.action, types) if re.search(r"[_\d]", i)}
    words = {w for s in legal for w in re.findall(r"[\w-]+", s.label)}
    ids = {i for i in match.names() if i not in words or re.search(r"[_\d]", i)} | content
    out += [f"an id in {where}" for where in ids_in_labels(tree, ids)]
    return out


@pytest.mark.parametrize("case", cases(), ids=scenario_id)
def test_every_move_s_tree_keeps_the_constraints_and_offers_exactly_the_legal_actions(case: Path | str) -> None:
    match = load(case).start(7)
    types = by_type(match.ruleset.action_types())
    rng = FastRNG(7)
    moves = 0
    for _ in range(MAX_MOVES):
        window = match.pending()
        if window is None:
            break
        for actor in window.actors:
            found = check_move(match, actor, types)
            assert not found, (scenario_id(case), match.version, actor, found[:5])
            moves += 1
        actor = window.actors[0]
        legal = match.legal(actor)
        match.act(actor, legal[rng.die(len(legal)) - 1].action)
    assert moves > 0


def test_the_id_check_finds_an_id_and_passes_a_name() -> None:
    from affray.core.steps import Choice

    tree = Step("What now?", (Choice("1", "Vesna", "defend with good_with_a_bat", action={"type": "x"}),))
    assert ids_in_labels(tree, {"good_with_a_bat", "vesna"}) == ["1: 'defend with good_with_a_bat'"]
