"""The Sim HuD's choices as a tree of steps in words (:mod:`affray.core.steps`; the page and the in-world HuD).

A Combat Nerdified declaration (WL-10) is chosen an action at a time: the first action (with its target or weapon),
then the second, and so on; an additional action (WL-17, -2 to every roll this round) is its own branch first. A
level of more than a dozen actions is grouped by kind (attack, then whom). Every other choice is its action, then
its target, then its die (Dice Simplified, WL-B1) or its variant. The labels name fighters and weapons by name,
with the odds of the seat's hints (:mod:`affray.rulesets.hud.hints`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from affray.core.engine import ActionSpec
from affray.core.json import Json, JsonObject, as_object
from affray.core.steps import (
    MAX_CHOICES,
    MAX_SHORT_BYTES,
    Branch,
    Leaf,
    Option,
    Paired,
    Step,
    assemble,
    by_fields,
    capital,
    cut,
    fitted,
    group_by,
    nicknames,
    who,
    with_hint,
)
from affray.rulesets.hud.views import HudView

#: Each action kind of the root step: its short label, and its long one (the rule it carries out in words).
KINDS: Mapping[str, tuple[str, str]] = {
    "attack": ("Attack", "Attack a foe"),
    "settle": ("Settle", "Settle one exchange with Dice Simplified"),
    "respond": ("Answer", "Answer the attack"),
    "post": ("Post", "Post into the scene"),
    "end_scene": ("End the scene", "End the scene"),
    "emergency_attack": ("Emergency attack", "An emergency attack (-2 to every roll next round)"),
    "emergency_complex": ("Emergency activity", "An emergency complex activity (-2 to every roll next round)"),
}
#: Each die in words on its button (WL-B1: Attack or Damage for the attacker, Defense or Injury for the defender).
DICE = {"attack": "Roll Attack", "damage": "Roll Damage", "defense": "Roll Defense", "injury": "Roll Injury"}


def _item_words(item: JsonObject, names: Mapping[str, str]) -> tuple[str, str]:
    """A plan item's short and long words (WL-10, WL-18..WL-20, WL-B13); a foe's nickname on a button its whole
    name does not fit (``names`` holds them under ``"nick:" + id``)."""
    kind = item.get("type")
    target = names.get(str(item.get("target")), "")
    nick = names.get(f"nick:{item.get('target')}", target)
    weapon = names.get(str(item.get("weapon")), "")
    words: dict[Json, tuple[str, str]] = {
        "attack": (fitted("Attack ", target, nick), f"attack {target}"),
        "defense": ("Defense", "keep a defense"),
        "charge": (fitted("Charge ", target, nick), f"charge {target} (2 actions, -4 Attack)"),
        "close": (fitted("Close on ", target, nick), f"close on {target} (the free move)"),
        "rearm": (f"Rearm: {weapon}", f"sheathe and draw the {weapon}"),
        "draw": (f"Draw {weapon}", f"draw the {weapon}"),
        "emergency_rearm": (f"Drop, draw {weapon}", f"drop what is in hand and draw the {weapon}"),
        "pick_up": (f"Pick up {weapon}", f"pick up the {weapon}"),
        "complex": ("Complex activity", "a complex activity"),
    }
    return words.get(kind, (str(kind).replace("_", " ").capitalize(), str(kind).replace("_", " ")))


def _plan(spec: ActionSpec) -> list[JsonObject]:
    plan = spec.action.get("plan")
    return [as_object(item) for item in plan] if isinstance(plan, list) else []


def declaration_long(spec: ActionSpec, hint: str, names: Mapping[str, str]) -> str:
    """A whole declaration in words: "Attack Vesna of the Lynx, then keep a defense, vs Vesna...: hit 46%"."""
    said = ", then ".join(_item_words(item, names)[1] for item in _plan(spec))
    if spec.action.get("additional"):
        said = f"with an additional action (-2 to every roll this round): {said}"
    return with_hint(said, hint)


def _plan_options(paired: Sequence[Paired], depth: int, names: Mapping[str, str], so_far: str) -> list[Option]:
    """The plans of ``paired`` (all alike up to item ``depth``) grouped by their item at ``depth``, then the next;
    a level of more than a dozen items grouped by kind first."""
    done = [p for p in paired if len(_plan(p[0])) <= depth]
    going = [p for p in paired if len(_plan(p[0])) > depth]
    out: list[Option] = [
        Leaf(spec.action, "That is all", declaration_long(spec, hint, names)) for spec, hint in done
    ]  # a plan that ends here while longer ones go on (none among the listed ones: each fills the round)
    groups = group_by(going, lambda p: repr(sorted(_plan(p[0])[depth].items())))
    options: list[tuple[str, Option]] = []
    for _, members in groups:
        item = _plan(members[0][0])[depth]
        short, words = _item_words(item, names)
        said = f"{so_far}, then {words}" if so_far else words
        if len(members) == 1 and len(_plan(members[0][0])) == depth + 1:
            spec, hint = members[0]
            option: Option = Leaf(spec.action, short, declaration_long(spec, hint, names))
        else:
            inner = _plan_options(members, depth + 1, names, said)
            option = Branch(short, capital(said), capital(f"{said}, then what?"), tuple(inner))
        options.append((str(item.get("type")), option))
    if len(options) + len(out) > MAX_CHOICES:  # too many for one step: by kind first (attack, then whom)
        for kind, members_of in group_by(options, lambda o: o[0]):
            if len(members_of) == 1:
                out.append(members_of[0][1])
                continue
            short = _item_words({"type": kind, "target": "", "weapon": ""}, {})[0].rstrip(": ")
            out.append(
                Branch(
                    short,
                    capital(f"{so_far}, then {short.lower()}" if so_far else short),
                    "Which one?",
                    tuple(o for _, o in members_of),
                )
            )
    else:
        out += [o for _, o in options]
    return out


def _declarations(paired: Sequence[Paired], names: Mapping[str, str]) -> list[Option]:
    """The declarations: the plain ones item by item, then those with an additional action (WL-17) as one branch."""
    plain = [p for p in paired if not p[0].action.get("additional")]
    extra = [p for p in paired if p[0].action.get("additional")]
    out = _plan_options(plain, 0, names, "")
    if extra:
        out.append(
            Branch(
                "+1 action (-2)",
                "Take an additional action: -2 to every roll this round",
                "With the additional action: first?",
                tuple(_plan_options(extra, 0, names, "")),
            )
        )
    return out


def _names(view: HudView, actor: str) -> dict[str, str]:
    """Fighters and weapons by name, and each fighter's nickname under ``"nick:" + id``."""
    names = {c.id: c.name for c in view.combatants}
    names.update({f"nick:{key}": nick for key, nick in nicknames(names).items()})
    for c in view.combatants:
        names.update({w.id: w.name for w in c.detail.weapons})
    me = view.by_id().get(actor)  # None for the GM's own calls
    if me is not None:
        names.update({w.id: w.name for w in me.detail.weapons})  # one's own weapons by the names one knows them by
    return names


def _post_long(spec: ActionSpec, hint: str) -> str:
    return with_hint(spec.label, hint)


def steps(view: HudView, actor: str, specs: Sequence[ActionSpec], hints: Sequence[str]) -> Step:
    """``actor``'s legal actions as a tree (see the module docstring), from the seat's view only."""
    names = _names(view, actor)
    paired = list(zip(specs, hints, strict=True))
    options: list[Option] = []
    for kind, members in group_by(paired, lambda p: str(p[0].action.get("type"))):
        if kind == "declare":
            options += _declarations(members, names)
            continue
        short, long = KINDS.get(kind, (capital(members[0][0].label), capital(members[0][0].label)))
        if kind in ("attack", "settle"):
            prompt, inner = by_fields(members, ["target", "die"], {**names, **DICE}, long, {"target": "Whom?"})
        elif kind == "respond":
            prompt, inner = by_fields(members, ["die"], DICE, long)
        elif kind == "post":
            inner = [
                Leaf(s.action, "Just post" if not s.action.get("hp") else _hp_short(s.action, names), _post_long(s, h))
                for s, h in members
            ]
            prompt = "Post, and change hit points?"
        elif kind == "emergency_attack":
            prompt, inner = by_fields(members, ["target"], names, long, {"target": "Whom?"})
        else:  # a reaction, a pursuit's choice, end the scene: its own words
            inner = [Leaf(s.action, capital(s.label), with_hint(s.label, h)) for s, h in members]
            prompt = "Which one?"
        if len(inner) == 1 and isinstance(inner[0], Leaf) and kind not in KINDS:
            options.append(inner[0])
        else:
            options.append(Branch(short, long, prompt, tuple(inner)))
    me = who(names, actor)
    declaring = any(p[0].action.get("type") == "declare" for p in paired)
    return assemble(f"{me}'s first action this round?" if declaring else f"What does {me} do?", options)


def _hp_short(action: Mapping[str, Json], names: Mapping[str, str]) -> str:
    hp = action.get("hp")
    if not isinstance(hp, dict) or not hp:
        return "Just post"
    fighter, change = next(iter(hp.items()))
    amount = change if isinstance(change, int) else 0
    tail = f" {'+' if amount > 0 else '-'}{abs(amount)} HP"
    name = names.get(fighter, fighter)
    if len(f"{name}{tail}".encode()) <= MAX_SHORT_BYTES:
        return f"{name}{tail}"
    return cut(names.get(f"nick:{fighter}", name), MAX_SHORT_BYTES - len(tail)) + tail
