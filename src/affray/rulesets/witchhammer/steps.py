"""WitchHammer's choices as a tree of steps in words (:mod:`affray.core.steps`; the page and the in-world HuD).

It follows the planning (WH-02, WH-03): place one card face down in the next slot, or fill the slots in order (the
first slot's card, then the second's...) and be ready, or be ready as things stand; in the Psych phase, the Psych
card. Cards are named by their printed names (the seat's own hand: no other seat's card is named), with the odds of
the seat's hints (:mod:`affray.rulesets.witchhammer.hints`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from affray.core.engine import ActionSpec
from affray.core.json import Json
from affray.core.steps import (
    Branch,
    Leaf,
    Option,
    Paired,
    Step,
    assemble,
    by_fields,
    capital,
    group_by,
    who,
    with_hint,
)
from affray.rulesets.witchhammer.views import WitchHammerView

#: Each kind of choice on the root step: its short and long labels, and the prompt of the step it opens.
KINDS: Mapping[str, tuple[str, str, str]] = {
    "place": ("Place a card", "Place an Action card face down in the next slot", "Which card face down?"),
    "commit": ("Fill slots, ready", "Place cards in the slots in order, then be ready", "The first slot's card?"),
    "psych": ("Play a Psych card", "Play a Psych card face down", "Which Psych card?"),
    "fate": ("Death's door", "Decide a fate at death's door", "Whose fate?"),
}
#: A commit in the Psych phase: one Psych card, then ready.
PSYCH_COMMIT = ("Play one, ready", "Play a Psych card face down, then be ready", "Which Psych card?")
#: The short words of the choices without a field to choose.
SHORTS: Mapping[str, str] = {"ready": "Ready", "timeout": "Call time"}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _cards(spec: ActionSpec) -> list[Json]:
    cards = spec.action.get("cards")
    return list(cards) if isinstance(cards, list) else []


def _is_psych(view: WitchHammerView, spec: ActionSpec) -> bool:
    cards = [view.detail.cards.get(str(c)) for c in _cards(spec)]
    return bool(cards) and all(card is not None and card.kind == "psych" for card in cards)


def _ordinal(n: int) -> str:
    return ORDINALS[n] if n < len(ORDINALS) else f"slot {n + 1}"


def _slots(paired: Sequence[Paired], depth: int, names: Mapping[str, str], so_far: str) -> list[Option]:
    """The commits of ``paired`` (alike up to slot ``depth``) by their card at ``depth``: one that stops here is
    "Then ready"; the others go on to the next slot."""
    out: list[Option] = []
    for spec, hint in paired:
        if len(_cards(spec)) == depth:
            out.append(Leaf(spec.action, "Then ready", with_hint(f"{so_far}, then ready", hint)))
    going = [p for p in paired if len(_cards(p[0])) > depth]
    for _, members in group_by(going, lambda p: str(_cards(p[0])[depth])):
        card = names.get(str(_cards(members[0][0])[depth]), "a card")
        said = f"{so_far}, then {card}" if so_far else card
        if len(members) == 1 and len(_cards(members[0][0])) == depth + 1:
            spec, hint = members[0]
            out.append(Leaf(spec.action, card, with_hint(f"{said}, then ready", hint)))
            continue
        inner = _slots(members, depth + 1, names, said)
        out.append(Branch(card, f"{said} ...", f"{said}: the {_ordinal(depth + 1)} slot's card?", tuple(inner)))
    return out


def steps(view: WitchHammerView, actor: str, specs: Sequence[ActionSpec], hints: Sequence[str]) -> Step:
    """``actor``'s legal actions as a tree (see the module docstring), from the seat's view only."""
    names = {c.id: c.name for c in view.combatants}
    names.update({card.id: card.name for card in view.detail.cards.values()})
    paired = list(zip(specs, hints, strict=True))
    options: list[Option] = []
    for kind, members in group_by(paired, lambda p: str(p[0].action.get("type"))):
        if kind not in KINDS:  # ready, call time: their own words
            options += [Leaf(s.action, SHORTS.get(kind, capital(s.label)), with_hint(s.label, h)) for s, h in members]
            continue
        short, long, prompt = KINDS[kind]
        inner: list[Option]
        if kind == "commit" and all(_is_psych(view, s) for s, _ in members):  # the Psych phase's commit (WH-03)
            short, long, prompt = PSYCH_COMMIT
        if kind == "commit":
            inner = _slots(members, 0, names, "")
        elif kind == "fate":
            prompt, inner = by_fields(members, ["actor", "fate"], names, long, {"actor": prompt, "fate": "Which?"})
        else:
            inner = [
                Leaf(s.action, names.get(str(s.action.get("card")), "a card"), with_hint(s.label, h))
                for s, h in members
            ]
        options.append(Branch(short, long, prompt, tuple(inner)))
    return assemble(f"What does {who(names, actor)} do?", options)
