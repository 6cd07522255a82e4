"""The interpreter of below-the-line effect nodes, in card order. Rules: WH-05, WH-07, WH-08, WH-18, WH-24,
WH-B24 (a Psych card's writes are held until every Psych card has resolved: :mod:`.psych`).

Node types: ``move``, ``attack``, ``damage``, ``effect``, ``recover``, ``save``, ``check`` (see
:mod:`affray.rulesets.witchhammer.content_model`). Movement normally comes first because cards list it first;
a card that attacks and then withdraws lists the attack first.
"""

from __future__ import annotations

from collections.abc import Iterable

from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.witchhammer import attack as attack_node
from affray.rulesets.witchhammer import targeting
from affray.rulesets.witchhammer.effects import (
    Held,
    Turn,
    Write,
    locked,
    recipients,
    recover,
    saving_throw,
    skill,
    start_status,
)
from affray.rulesets.witchhammer.events import Fizzled, Moved
from affray.rulesets.witchhammer.state import Fighter, MoveNode, Node, WitchHammerState
from affray.rulesets.witchhammer.wounds import hurt


def run(state: WitchHammerState, turn: Turn, nodes: Iterable[Node], target: Fighter | None = None) -> None:
    """Resolve ``nodes`` in order for ``turn``; ``target`` is who ``to: target`` means."""
    actor = turn.actor
    for node in nodes:
        if actor.out:  # the actor fell (its own damage node, a counter): the card stops (WH-22)
            return
        if node["type"] == "move":
            _move(state, turn, node)
        elif node["type"] == "attack":
            for victim, follow in attack_node.resolve(state, turn, node):
                run(state, turn, follow, victim)
        elif node["type"] == "damage" or node["type"] == "effect" or node["type"] == "recover":
            for g in recipients(state, turn, node["to"], target):
                if turn.held is None:
                    write(state, node, g, turn.card, turn.rng, turn.journal)
                else:  # a Psych card: it takes effect once every Psych card has resolved (WH-B24)
                    turn.held.append(Held(actor.id, turn.card, node, g))
        elif node["type"] == "save":
            for g in recipients(state, turn, node["to"], target):
                ok = saving_throw(state, g, node, turn.rng, turn.journal)
                run(state, turn, node["on_success"] if ok else node["on_fail"], g)
        elif node["type"] == "check":
            ok = skill(state, turn.actor, node, turn.rng, turn.journal)
            run(state, turn, node["on_success"] if ok else node["on_fail"], target)
        else:  # pragma: no cover - the content schema admits no other type
            raise ValueError(f"unknown node type {node['type']!r}")


def write(state: WitchHammerState, node: Write, g: Fighter, card: str, rng: RNG, journal: Journal) -> None:
    """What a ``damage``, ``effect`` or ``recover`` node of ``card`` does to ``g`` (WH-19, WH-24, WH-B10)."""
    if node["type"] == "damage":
        hurt(state, g, node["amount"], rng, journal, card, poise_only=node["poise_only"])
    elif node["type"] == "effect":
        start_status(state, g, node["status"], node["rounds"], card, journal)
    else:
        recover(g, node["poise"], journal, card)


def _move(state: WitchHammerState, turn: Turn, node: MoveNode) -> None:
    """Mandatory movement (WH-08) toward or away from the card's reference (WH-07)."""
    f = turn.actor
    reference = locked(state, turn, node["reference"])
    if reference is None or reference.out:  # no one, or not up
        if turn.journal.loud:
            turn.journal.append(Fizzled(f.id, turn.card, "no one to move by"))
        return
    squares = node["distance"] + f.move + f.mod_move
    path, why = targeting.move(state, f, reference, squares, node["direction"] == "away")
    if path:
        turn.moved = True
    if turn.journal.loud:
        turn.journal.append(Moved(f.id, path, why))
