"""WaRP's choices as a tree of steps in words (:mod:`affray.core.steps`; the page and the in-world HuD).

An attack (WR-08..WR-11) is chosen a part at a time: attack, then whom, then with which weapon (and how, where a
weapon is both swung and thrown), then with which trait, or a special maneuver (WR-30) or an experience die
(WR-09); a defense (WR-11) by its trait, then whether to spend experience. Every label names traits, weapons and
fighters by name, never by id, with the odds of the seat's hints (:mod:`affray.rulesets.warp.hints`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from affray.core.engine import ActionSpec
from affray.core.json import Json
from affray.core.steps import Branch, Leaf, Option, Paired, Step, assemble, capital, group_by, who, with_hint
from affray.rulesets.warp.view_types import WarpView

#: Each kind of choice on the root step: its short and long labels, and the prompt of the step it opens.
KINDS: Mapping[str, tuple[str, str, str]] = {
    "attack": ("Attack", "Attack a foe", "Attack whom?"),
    "move": ("Move", "Move along the line", "Which way?"),
    "intimidate": ("Intimidate", "Intimidate a foe", "Intimidate whom?"),
    "defend": ("Defend", "Defend against the attack", "Defend with what?"),
    "initiative": ("Roll initiative", "Roll initiative", "Roll initiative: spend experience dice?"),
    "gestalt_roll": ("Roll", "Roll for the gestalt fight", "The gestalt roll: spend experience dice?"),
    "rule": ("Rule on it", "Rule on the attack", "Which ruling?"),
}
#: A serious wound's kind in words (WR-25).
WOUNDS = {"mis_heal": "a wound that heals badly", "fatal": "a fatal wound", "none": "no serious wound"}


def _names(view: WarpView, actor: str) -> dict[str, str]:
    """Fighters, and the actor's own weapons and traits, by name."""
    names = {c.id: c.name for c in view.combatants}
    me = view.by_id().get(actor)  # None for the GM's own calls
    sheet = me.detail.sheet if me is not None else None
    if sheet is not None:
        names.update({w.id: w.name for w in sheet.weapons.values()})
        names.update({t.id: t.name for t in sheet.traits.values()})
    return names


def _said(value: Json, names: Mapping[str, str], none: str = "2 dice") -> str:
    if value is None:
        return none
    return names.get(str(value), str(value).replace("_", " "))


def _leaf(spec: ActionSpec, hint: str, short: str, long: str | None = None) -> Leaf:
    return Leaf(spec.action, short, with_hint(long if long is not None else spec.label, hint))


def _grouped(
    paired: Sequence[Paired],
    key: Callable[[Paired], object],
    short: Callable[[Paired], str],
    inner: Callable[[list[Paired]], tuple[str, list[Option]]],
    long: Callable[[Paired], str],
) -> list[Option]:
    """``paired`` grouped by ``key``: a group of one is its leaf, a larger one a branch over ``inner``'s options."""
    out: list[Option] = []
    for _, members in group_by(paired, key):
        first = members[0]
        if len(members) == 1:
            out.append(_leaf(first[0], first[1], short(first)))
            continue
        prompt, options = inner(members)
        out.append(Branch(short(first), long(first), prompt, tuple(options)))
    return out


def _attacks(paired: Sequence[Paired], view: WarpView, names: Mapping[str, str]) -> list[Option]:
    """Whom, then which weapon (and mode), then which trait or maneuver."""
    specials = set(view.detail.special_maneuvers)

    def how(p: Paired) -> str:
        a = p[0].action
        if a.get("experience"):
            return "Spend experience die"
        if a.get("maneuver") in specials:
            return capital(p[0].label.split(" on ")[0])  # the maneuver's name, as the listing writes it
        return _said(a.get("trait"), names)

    def hows(members: list[Paired]) -> tuple[str, list[Option]]:
        return "With which trait, or which maneuver?", [_leaf(s, h, how((s, h))) for s, h in members]

    def weapon(p: Paired) -> str:
        return _said(p[0].action.get("weapon"), names, "bare hands")

    def weapons(members: list[Paired]) -> tuple[str, list[Option]]:
        modes = {(p[0].action.get("weapon"), p[0].action.get("mode")) for p in members}
        both = len(modes) > len({w for w, _ in modes})  # one weapon swung and thrown: say which
        return "With which weapon?", _grouped(
            members,
            lambda p: (p[0].action.get("weapon"), p[0].action.get("mode")),
            lambda p: capital(f"{weapon(p)} ({p[0].action.get('mode')})" if both else weapon(p)),
            hows,
            lambda p: f"Attack {_said(p[0].action.get('target'), names)} with the {weapon(p)}",
        )

    return _grouped(
        paired,
        lambda p: p[0].action.get("target"),
        lambda p: _said(p[0].action.get("target"), names),
        weapons,
        lambda p: f"Attack {_said(p[0].action.get('target'), names)}",
    )


def _defense_words(spec: ActionSpec, names: Mapping[str, str]) -> str:
    """A defense in words (WR-11, WR-14): its trait, experience spent, dodging or not, the foes faced."""
    a = spec.action
    said = f"defend with {_said(a.get('trait'), names)}"
    spend = a.get("experience")
    if isinstance(spend, int) and spend:
        said += f", spending {spend} experience"
    if a.get("dodge") is False:
        said += ", not dodging"
    normal = a.get("normal")
    if isinstance(normal, list) and normal:
        said += ", facing " + ", ".join(_said(n, names) for n in normal)
    return said


def _defenses(paired: Sequence[Paired], names: Mapping[str, str]) -> list[Option]:
    def variant(p: Paired) -> str:
        words = _defense_words(p[0], names).split(", ", 1)
        return capital(words[1]) if len(words) > 1 else "Just defend"

    def variants(members: list[Paired]) -> tuple[str, list[Option]]:
        said = _said(members[0][0].action.get("trait"), names)
        return f"Defend with {said}: how?", [
            _leaf(s, h, variant((s, h)), capital(_defense_words(s, names))) for s, h in members
        ]

    out: list[Option] = []
    for _, members in group_by(paired, lambda p: repr(p[0].action.get("trait"))):
        spec, hint = members[0]
        short = _said(spec.action.get("trait"), names)
        if len(members) == 1:
            out.append(_leaf(spec, hint, short, capital(_defense_words(spec, names))))
            continue
        prompt, options = variants(members)
        out.append(Branch(short, capital(f"defend with {short}"), prompt, tuple(options)))
    return out


#: The short words of the choices whose listing's label is long (the long label keeps it whole).
SHORTS: Mapping[str, str] = {
    "hold": "Hold the action",
    "take_cover": "Take cover",
    "break_free": "Break free",
    "plea": "Give a reason to live",
    "desperate_defense": "Desperate defense",
}


def _short(spec: ActionSpec) -> str:
    return SHORTS.get(str(spec.action.get("type")), capital(spec.label))


def _move_short(spec: ActionSpec) -> str:
    a = spec.action
    return f"{capital(str(a.get('pace')))} {'toward' if a.get('toward') else 'away'}"


def _experience_short(spec: ActionSpec) -> str:
    n = spec.action.get("experience")
    return "No experience" if not n else f"Spend {n} experience"


def steps(view: WarpView, actor: str, specs: Sequence[ActionSpec], hints: Sequence[str]) -> Step:
    """``actor``'s legal actions as a tree (see the module docstring), from the seat's view only."""
    names = _names(view, actor)
    paired = list(zip(specs, hints, strict=True))
    options: list[Option] = []
    for kind, members in group_by(paired, lambda p: str(p[0].action.get("type"))):
        short, long, prompt = KINDS.get(kind, ("", "", "Which one?"))
        inner: list[Option]
        if kind == "attack":
            inner = _attacks(members, view, names)
        elif kind == "defend":
            inner = _defenses(members, names)
        elif kind in ("initiative", "gestalt_roll"):
            inner = [_leaf(s, h, _experience_short(s), f"Roll, {_experience_short(s).lower()}") for s, h in members]
        elif kind == "move":  # toward or away from the nearest foe (WR-14)
            inner = [_leaf(s, h, _move_short(s)) for s, h in members]
        elif kind == "intimidate":
            inner = [_leaf(s, h, _said(s.action.get("target"), names)) for s, h in members]
        elif kind == "serious":
            inner = [
                _leaf(
                    s,
                    h,
                    capital(WOUNDS.get(str(s.action.get("wound")), "")),
                    f"Rule {WOUNDS.get(str(s.action.get('wound')), '')}",
                )
                for s, h in members
            ]
        else:  # hold, wait, pass, take cover, break free, pick up, plea, let go, rulings, verdicts: their words
            inner = [_leaf(s, h, _short(s)) for s, h in members]
        if kind in KINDS:
            options.append(Branch(short, long, prompt, tuple(inner)))
        else:
            options += inner
    return assemble(f"What does {who(names, actor)} do?", options)
