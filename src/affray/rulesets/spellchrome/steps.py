"""Spellchrome's choices as a tree of steps in words (:mod:`affray.core.steps`; the page and the in-world HuD).

The action first, then its target, then its weapon (an attack, SC-11) or the spell, then whom (a cast); a move, a
withdraw, a run or a tumble (SC-18, SC-21, SC-24) to one of many squares is chosen by compass direction from where the
mover stands, then, where a direction holds more than a dozen squares, by how far (bands of squares), then the square:
no step offers more than twelve. Squares are written ``(x, y)``, as the board's coordinates; fighters, weapons and
spells by name; an attack's long label carries the seat's hint (:mod:`affray.rulesets.spellchrome.hints`) and a
move's its warnings (it provokes, SC-27, SC-28; its check, SC-24).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

from affray.core.engine import ActionSpec
from affray.core.json import Json
from affray.core.steps import (
    MAX_CHOICES,
    Branch,
    Leaf,
    Option,
    Paired,
    Step,
    assemble,
    by_fields,
    capital,
    group_by,
    plain,
    who,
    with_hint,
)
from affray.rulesets.spellchrome.views import SpellchromeView

#: Each kind of choice on the root step: its short and long labels, and the prompt of the step it opens.
KINDS: Mapping[str, tuple[str, str, str]] = {
    "attack": ("Attack", "Attack a foe", "Attack whom?"),
    "full_attack": ("Full attack", "A full attack", "Attack whom?"),
    "cast": ("Cast a spell", "Cast a spell", "Which spell?"),
    "first_aid": ("First aid", "Give first aid", "To whom?"),
    "draw": ("Take up a weapon", "Take up a weapon (a move action)", "Which weapon?"),
    "step": ("5-foot step", "A 5-foot step", "Step where?"),
    "move": ("Move", "Move", "Which way?"),
    "tumble": ("Tumble", "Tumble through (a check)", "Which way?"),
    "withdraw": ("Withdraw", "Withdraw", "Which way?"),
    "run": ("Run", "Run along a compass line", "Which way?"),
}
MOVES = ("step", "move", "tumble", "withdraw", "run")
#: The eight compass points clockwise from north (y grows southward on the board): words and letters.
COMPASS = (
    ("north", "N"),
    ("north-east", "NE"),
    ("east", "E"),
    ("south-east", "SE"),
    ("south", "S"),
    ("south-west", "SW"),
    ("west", "W"),
    ("north-west", "NW"),
)


def _kind(spec: ActionSpec) -> str:
    kind = str(spec.action.get("type"))
    return "tumble" if kind == "move" and spec.action.get("tumble") else kind


def _square(spec: ActionSpec) -> tuple[int, int]:
    to: Json = spec.action.get("to")
    if isinstance(to, list) and len(to) == 2 and isinstance(to[0], int) and isinstance(to[1], int):
        return to[0], to[1]
    return 0, 0


def _compass(dx: int, dy: int) -> int:
    """The compass point (index into :data:`COMPASS`) of a square ``dx``, ``dy`` away: eight sectors of 45°."""
    angle = math.degrees(math.atan2(dx, -dy)) % 360  # 0 = north, clockwise
    return int((angle + 22.5) // 45) % 8


#: A move-like action's verb in its long label.
VERBS = {"step": "5-foot step", "move": "move", "tumble": "tumble", "withdraw": "withdraw", "run": "run"}


def _move_long(spec: ActionSpec, where: str, away: int, hint: str) -> str:
    x, y = _square(spec)
    return _move_words(VERBS[_kind(spec)], x, y, away, where, spec.notes[: len(spec.warnings)], hint)


# A pure function of immutable values, asked again for the same squares from version to version (a grid move lists a
# hundred): worked out once each (a Spellchrome tree 4.8 -> 2 ms, crossroads_2v2).
@functools.lru_cache(maxsize=4096)
def _move_words(verb: str, x: int, y: int, away: int, where: str, warnings: tuple[str, ...], hint: str) -> str:
    """A move's long label; its warnings said (it provokes, or needs a check: the notes' first sentences)."""
    said = f"{verb} to ({x}, {y}), {away} square{'s' if away != 1 else ''} {where}"
    if warnings:
        said += "; " + "; ".join(plain(n) for n in warnings)
    return with_hint(said, hint)


def _moves(paired: Sequence[Paired], origin: tuple[int, int] | None) -> list[Option]:
    """Squares by compass direction, then by bands of distance where a direction holds more than a dozen."""
    ox, oy = origin or (0, 0)
    spot: dict[int, tuple[int, int, int, int]] = {}  # id of a pair -> (compass point, distance, y, x), once each
    for pair in paired:
        x, y = _square(pair[0])
        spot[id(pair)] = (_compass(x - ox, y - oy), max(abs(x - ox), abs(y - oy)), y, x)

    def placed(p: Paired) -> tuple[int, int, int, int]:
        return spot[id(p)]

    ordered = sorted(paired, key=placed)
    if len(ordered) <= MAX_CHOICES:  # few enough: the square, with its direction on the button
        out: list[Option] = []
        for pair in ordered:
            spec, hint = pair
            point, away, y, x = placed(pair)
            out.append(
                Leaf(spec.action, f"{COMPASS[point][1]} to ({x}, {y})", _move_long(spec, COMPASS[point][0], away, hint))
            )
        return out
    options: list[Option] = []
    for point, members in group_by(ordered, lambda p: placed(p)[0]):
        where, _ = COMPASS[point]
        if len(members) == 1:  # one square that way: the square itself
            spec, hint = members[0]
            _, away, y, x = placed(members[0])
            options.append(Leaf(spec.action, capital(f"{where} to ({x}, {y})"), _move_long(spec, where, away, hint)))
            continue
        leaves: list[Option] = []
        distances = []
        for pair in members:
            spec, hint = pair
            _, away, y, x = placed(pair)
            distances.append(away)
            leaves.append(Leaf(spec.action, f"({x}, {y}), {away} away", _move_long(spec, where, away, hint)))
        inner = leaves if len(leaves) <= MAX_CHOICES else _bands(distances, leaves)
        options.append(
            Branch(
                capital(f"{where} ({len(members)})"),
                capital(f"{where}: {len(members)} squares"),
                "Which square?" if inner is leaves else "How far?",
                tuple(inner),
            )
        )
    return options


def _bands(distances: list[int], leaves: list[Option]) -> list[Option]:
    """The squares of one direction (in order of distance) in bands of consecutive distances, each of at most a
    dozen squares where the distances allow (one distance of more is a band of its own, paged)."""
    bands: list[list[int]] = []  # indexes into leaves
    for _, same in group_by(list(range(len(distances))), lambda i: distances[i]):
        if bands and len(bands[-1]) + len(same) <= MAX_CHOICES:
            bands[-1] += same
        else:
            bands.append(list(same))
    out: list[Option] = []
    for band in bands:
        near, far = distances[band[0]], distances[band[-1]]
        words = f"{near} squares" if near == far else f"{near}-{far} squares"
        out.append(Branch(capital(words), capital(f"{words} away"), "Which square?", tuple(leaves[i] for i in band)))
    return out


def _names(view: SpellchromeView, actor: str) -> dict[str, str]:
    names = {c.id: c.name for c in view.combatants}
    me = view.by_id().get(actor)
    if me is not None:
        names.update({w.id: w.name for w in me.detail.weapons})
        names.update({s.id: s.name for s in me.detail.spells})
    return names


def steps(view: SpellchromeView, actor: str, specs: Sequence[ActionSpec], hints: Sequence[str]) -> Step:
    """``actor``'s legal actions as a tree (see the module docstring), from the seat's view only."""
    names = _names(view, actor)
    me = view.by_id().get(actor)
    origin = (int(me.position.x), int(me.position.y)) if me is not None and me.position is not None else None
    paired = list(zip(specs, hints, strict=True))
    options: list[Option] = []
    for kind, members in group_by(paired, lambda p: _kind(p[0])):
        if kind not in KINDS:  # end the turn, give up, an attack of opportunity or not: their own words
            options += [Leaf(s.action, capital(plain(s.label)), with_hint(s.label, h)) for s, h in members]
            continue
        short, long, prompt = KINDS[kind]
        inner: list[Option]
        if kind in MOVES:
            inner = _moves(members, origin)
        elif kind == "attack":
            prompt, inner = by_fields(
                members, ["target", "weapon"], names, long, {"target": prompt, "weapon": "With which weapon?"}
            )
        elif kind == "cast":
            prompt, inner = by_fields(
                members, ["spell", "target"], names, long, {"spell": prompt, "target": "On whom?"}
            )
        else:
            field = "weapon" if kind == "draw" else "target"
            prompt, inner = by_fields(members, [field], names, long, {field: prompt})
        options.append(Branch(short, long, prompt, tuple(inner)))
    return assemble(f"What does {who(names, actor)} do?", options)
