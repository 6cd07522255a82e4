"""Every choice in steps and in words: an actor's legal actions as one tree of small steps.

A wall of combination buttons ("emergency_rearm long_dagger, defense, defense") is no way to choose. The same
legal actions, as a :class:`Step` tree, are chosen a part at a time: the action, then its target, then its weapon
or trait... Each :class:`Choice` carries a ``short`` label that fits a dialog button (at most
:data:`MAX_SHORT_BYTES` bytes of UTF-8: Second Life's ``llDialog``) and a ``long`` one for the page, which says
what the choice costs and its odds where the ruleset's hints give them ("Attack Vesna with the long dagger — hit
58%"). A step offers at most :data:`MAX_CHOICES` choices (a dialog's twelve buttons): more are grouped, or the last
one opens a "More..." step. The web page and the in-world HuD read the same tree (docs/table.md, "Steps").

The tree's leaves are exactly the actor's legal actions (:func:`leaves`), the objects ``legal`` lists, so choosing a
leaf submits what choosing from the flat list would. A choice's id is a short path segment unique within its step;
its full id is the path from the root, ``"2.1.3"`` (:func:`find`).

Each ruleset's record may give its own builder (:attr:`affray.core.plugin.Plugin.steps`: the order of the steps,
the prompts and the labels in its words); :func:`default_steps` builds one for any ruleset from the legal
:class:`~affray.core.engine.ActionSpec` list alone (by action type, then by each field in the
:class:`~affray.core.actions.ActionType`'s order). Builders assemble their trees from :class:`Leaf` and
:class:`Branch` with :func:`assemble`, which keeps the constraints (:func:`problems` checks them).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from affray.core.engine import GM, Action, ActionSpec
from affray.core.json import Json, JsonObject

if TYPE_CHECKING:
    from affray.core.actions import ActionType
    from affray.core.plugin import AnyPlugin

#: The most choices one step offers: a Second Life dialog's twelve buttons.
MAX_CHOICES = 12
#: The most bytes of UTF-8 a choice's short label holds: a Second Life dialog button's.
MAX_SHORT_BYTES = 24
#: What stands for a cut label's end.
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of a step: ``id`` (unique within its step), ``short`` (a dialog button's words), ``long`` (the
    page's sentence), and either the ``action`` it submits (a leaf) or the ``step`` it opens, never both."""

    id: str
    short: str
    long: str
    action: Action | None = None
    step: Step | None = None

    def __post_init__(self) -> None:
        if (self.action is None) == (self.step is None):
            raise ValueError(f"choice {self.id!r} must hold exactly one of an action and a step")

    def to_json(self) -> JsonObject:
        out: JsonObject = {"id": self.id, "short": self.short, "long": self.long}
        if self.action is not None:
            out["action"] = self.action
        elif self.step is not None:
            out["step"] = self.step.to_json()
        return out


@dataclass(frozen=True, slots=True)
class Step:
    """A question (``prompt``) and its choices, at most :data:`MAX_CHOICES` of them."""

    prompt: str
    choices: tuple[Choice, ...]

    def to_json(self) -> JsonObject:
        return {"prompt": self.prompt, "choices": [c.to_json() for c in self.choices]}


def find(step: Step, path: str | Sequence[str]) -> Action | Step | None:
    """What the choice at ``path`` (``"2.1.3"``, or its segments) holds: its action, or the step it opens; the root
    step for an empty path; ``None`` when no choice has that path."""
    parts = [p for p in path.split(".") if p] if isinstance(path, str) else list(path)
    here: Step = step
    for index, part in enumerate(parts):
        choice = next((c for c in here.choices if c.id == part), None)
        if choice is None:
            return None
        if choice.action is not None:
            return choice.action if index == len(parts) - 1 else None
        assert choice.step is not None
        here = choice.step
    return here


def leaves(step: Step) -> list[Action]:
    """Every action of the tree, depth first in the choices' order."""
    out: list[Action] = []
    for choice in step.choices:
        if choice.action is not None:
            out.append(choice.action)
        elif choice.step is not None:
            out += leaves(choice.step)
    return out


def paths(step: Step, prefix: str = "") -> list[tuple[str, Choice]]:
    """Every choice of the tree with its full id, depth first."""
    out: list[tuple[str, Choice]] = []
    for choice in step.choices:
        full = f"{prefix}.{choice.id}" if prefix else choice.id
        out.append((full, choice))
        if choice.step is not None:
            out += paths(choice.step, full)
    return out


def problems(step: Step, where: str = "") -> list[str]:
    """What breaks the tree's constraints (empty when none): a step with no choice or more than
    :data:`MAX_CHOICES`, an id that is empty, holds a dot or repeats within its step, a short label that is empty,
    longer than :data:`MAX_SHORT_BYTES` bytes of UTF-8 or repeats within its step, an empty long label or prompt."""
    at = where or "the root step"
    out: list[str] = []
    if not step.prompt:
        out.append(f"{at} has no prompt")
    if not step.choices:
        out.append(f"{at} has no choice")
    if len(step.choices) > MAX_CHOICES:
        out.append(f"{at} has {len(step.choices)} choices, more than {MAX_CHOICES}")
    ids = [c.id for c in step.choices]
    shorts = [c.short for c in step.choices]
    for choice in step.choices:
        full = f"{where}.{choice.id}" if where else choice.id
        if not choice.id or "." in choice.id:
            out.append(f"choice {full!r} has an id that is empty or holds a dot")
        if ids.count(choice.id) > 1:
            out.append(f"choice {full!r}: its id repeats within its step")
        size = len(choice.short.encode("utf-8"))
        if not choice.short or size > MAX_SHORT_BYTES:
            out.append(f"choice {full!r}: short label {choice.short!r} has {size} bytes (1 to {MAX_SHORT_BYTES})")
        if shorts.count(choice.short) > 1:
            out.append(f"choice {full!r}: short label {choice.short!r} repeats within its step")
        if not choice.long:
            out.append(f"choice {full!r} has no long label")
        if choice.step is not None:
            out += problems(choice.step, full)
    return out


# -- building a tree ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Leaf:
    """A legal action as a builder offers it: its ``short`` and ``long`` labels (the long one a whole sentence)."""

    action: Action
    short: str
    long: str


@dataclass(frozen=True, slots=True)
class Branch:
    """A group of options behind one choice: its labels, and the ``prompt`` of the step it opens."""

    short: str
    long: str
    prompt: str
    options: tuple[Option, ...]


Option = Leaf | Branch
T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


def cut(text: str, limit: int = MAX_SHORT_BYTES) -> str:
    """``text`` cut to ``limit`` bytes of UTF-8, ending in :data:`ELLIPSIS` when cut (never inside a character)."""
    text = " ".join(text.split())
    if len(text.encode("utf-8")) <= limit:
        return text
    room = limit - len(ELLIPSIS.encode("utf-8"))
    out = text.encode("utf-8")[:room].decode("utf-8", "ignore").rstrip(" ,;:-—·(")
    return out + ELLIPSIS


#: Where a long name's first part ends: "Vesna of the Lynx", "Bors the Ferryman's Son", "Dock Thug with a Scar".
CONNECTORS = (" of ", " the ", " with ", " in ", " who ", " from ")


def nicknames(names: Mapping[str, str]) -> dict[str, str]:
    """Each name as a button holds it beside a verb: the part before its first connector ("Vesna of the Lynx":
    "Vesna"), or the last word of a name without one ("Watch Sergeant Hald": "Hald"); the whole name where two
    nicknames would read alike ("Dock Thug with a Scar", "Dock Thug in a Beanie")."""
    short: dict[str, str] = {}
    for key, name in names.items():
        cuts = [name.find(c) for c in CONNECTORS if name.find(c) > 0]
        short[key] = name[: min(cuts)] if cuts else name.rsplit(" ", 1)[-1]
    alike: dict[str, int] = {}
    for nick in short.values():
        alike[nick] = alike.get(nick, 0) + 1
    return {key: nick if alike[nick] == 1 else names[key] for key, nick in short.items()}


def fitted(head: str, name: str, nick: str) -> str:
    """``head`` and ``name`` when they fit a button (:data:`MAX_SHORT_BYTES`), else ``head`` and ``nick``."""
    whole = f"{head}{name}"
    return whole if len(whole.encode("utf-8")) <= MAX_SHORT_BYTES else f"{head}{nick}"


def capital(text: str) -> str:
    """``text`` with its first letter in capitals (a button's or a sentence's start)."""
    return text[:1].upper() + text[1:]


def group_by(items: Sequence[T], key: Callable[[T], K]) -> list[tuple[K, list[T]]]:
    """``items`` grouped by ``key``, the groups in the order of their first item, each in the items' order."""
    groups: dict[K, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return list(groups.items())


#: A rule ID in brackets, as some listings' labels end (``"(WR-06)"``): help text, not words to choose by.
RULE_ID = re.compile(r"\s*\((?:[A-Z]{2,3}-[A-Z]?\d+[a-z]?(?:,\s*)?)+\)")


def plain(label: str) -> str:
    """``label`` without the rule IDs in brackets it may hold."""
    return RULE_ID.sub("", label) if "(" in label else label


def with_hint(label: str, hint: str) -> str:
    """A long label with its odds (``"attack Vesna with the long dagger — hit 58%"``), capitalised, without rule IDs
    (:func:`plain`)."""
    label = plain(label)
    return capital(f"{label} — {hint}" if hint else label)


def _collapse(option: Option) -> Option:
    """A branch without choice to make (one option) is that option, under the branch's short label; an empty one
    is dropped by the caller."""
    if isinstance(option, Leaf):
        return option
    inner = tuple(_collapse(o) for o in option.options if _has_leaf(o))
    if len(inner) == 1:
        only = inner[0]
        if isinstance(only, Leaf):
            return Leaf(only.action, option.short, only.long)
        return Branch(option.short, only.long, only.prompt, only.options)
    return Branch(option.short, option.long, option.prompt, inner)


def leaves_of(option: Option) -> list[Action]:
    """The actions under an option."""
    if isinstance(option, Leaf):
        return [option.action]
    return [a for o in option.options for a in leaves_of(o)]


def _has_leaf(option: Option) -> bool:
    return isinstance(option, Leaf) or any(_has_leaf(o) for o in option.options)


def _unique_shorts(options: Sequence[Option]) -> list[str]:
    """Each option's short label, cut to fit, and told apart where two would read alike (a number after it)."""
    shorts = [cut(plain(o.short)) or "?" for o in options]
    seen: dict[str, int] = {}
    for s in shorts:
        seen[s] = seen.get(s, 0) + 1
    counts: dict[str, int] = {}
    out = []
    for s in shorts:
        if seen[s] == 1:
            out.append(s)
            continue
        counts[s] = counts.get(s, 0) + 1
        tail = f" {counts[s]}"
        out.append(cut(s, MAX_SHORT_BYTES - len(tail)) + tail)
    return out


def _step(prompt: str, options: Sequence[Option]) -> Step:
    """The step offering ``options``: at most :data:`MAX_CHOICES` choices, the last a "More..." step when there are
    more (itself paged the same way)."""
    kept = list(options)
    if len(kept) > MAX_CHOICES:
        rest = kept[MAX_CHOICES - 1 :]
        more = Branch("More…", f"More choices ({len(rest)})", prompt, tuple(rest))
        kept = [*kept[: MAX_CHOICES - 1], more]
    shorts = _unique_shorts(kept)
    choices = []
    for index, (option, short) in enumerate(zip(kept, shorts, strict=True), 1):
        if isinstance(option, Leaf):
            choices.append(Choice(str(index), short, option.long, action=option.action))
        else:
            choices.append(Choice(str(index), short, option.long, step=_step(option.prompt, option.options)))
    return Step(prompt, tuple(choices))


def assemble(prompt: str, options: Sequence[Option]) -> Step:
    """The tree of ``options`` under the question ``prompt``: branches with one option collapsed into it (no step
    without a choice to make), empty ones dropped, each step paged to at most :data:`MAX_CHOICES` choices, short
    labels cut to :data:`MAX_SHORT_BYTES` bytes and told apart, ids numbered from 1. A root of one branch is that
    branch's step."""
    kept = [_collapse(o) for o in options if _has_leaf(o)]
    if len(kept) == 1 and isinstance(kept[0], Branch):
        return _step(kept[0].prompt, kept[0].options)
    return _step(prompt, kept)


# -- the generic default ----------------------------------------------------------------------------------------------


def words(value: Json, names: Mapping[str, str]) -> str:
    """A field's value in words: a combatant's name, a square as ``(x, y)``, an id with its underscores as spaces."""
    if isinstance(value, str):
        return names.get(value, value.replace("_", " "))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"({value[0]}, {value[1]})"
    if isinstance(value, list):
        return ", ".join(words(v, names) for v in value)
    if value is None:
        return "none"
    return str(value)


#: A legal action with its odds hint (``""`` where there is none).
Paired = tuple[ActionSpec, str]


def _value_key(name: str, paired: Paired) -> str:
    return repr(paired[0].action.get(name))


def spec_long(spec: ActionSpec, hint: str) -> str:
    """A leaf's long label from the spec's own and its hint."""
    return with_hint(spec.label, hint)


def by_fields(
    paired: Sequence[Paired],
    fields: Sequence[str],
    names: Mapping[str, str],
    label: str,
    prompts: Mapping[str, str] | None = None,
    long: Callable[[ActionSpec, str], str] = spec_long,
) -> tuple[str, list[Option]]:
    """The options of ``paired`` grouped by the first of ``fields`` whose values differ among them (each value in
    :func:`words`), then by the next within each group; with the prompt of the step that offers them
    (``prompts[field]``, else "Which FIELD?"). A group's long label is ``label`` and its values so far; a leaf's is
    ``long(spec, hint)``. When no field tells the specs apart, each is a leaf under its own label. A field that all
    of them share (one target) is said before the prompt ("Tamsin Rook: with which weapon?")."""
    settled: list[str] = []
    for index, name in enumerate(fields):
        groups = group_by(paired, functools.partial(_value_key, name))
        if len(groups) < 2:
            value = paired[0][0].action.get(name) if paired else None
            if value is not None:
                settled.append(words(value, names))
            continue
        out: list[Option] = []
        for _, members in groups:
            value = members[0][0].action.get(name)
            said = words(value, names)
            if len(members) == 1:
                spec, hint = members[0]
                out.append(Leaf(spec.action, capital(said), long(spec, hint)))
                continue
            deeper = f"{label}: {said}" if ": " not in label else f"{label}, {said}"
            inner_prompt, inner = by_fields(members, fields[index + 1 :], names, deeper, prompts, long)
            out.append(Branch(capital(said), capital(deeper), inner_prompt, tuple(inner)))
        prompt = (prompts or {}).get(name, f"Which {name.replace('_', ' ')}?")
        return (f"{', '.join(settled)}: {prompt[:1].lower()}{prompt[1:]}" if settled else prompt), out
    return "Which one?", [Leaf(spec.action, capital(spec.label), long(spec, hint)) for spec, hint in paired]


def default_steps(
    types: Sequence[ActionType],
    names: Mapping[str, str],
    actor: str,
    specs: Sequence[ActionSpec],
    hints: Sequence[str],
) -> Step:
    """A tree for any ruleset: by action type (its declared label), then by each field in its declared order
    (combatants by ``names``, other values in plain words), each leaf's long label the spec's own with its hint."""
    declared = {t.type: t for t in types}
    paired = list(zip(specs, hints, strict=True))
    options: list[Option] = []
    for kind, members in group_by(paired, lambda s: str(s[0].action.get("type"))):
        t = declared.get(kind)
        label = capital(t.label if t is not None else kind.replace("_", " "))
        prompt, inner = by_fields(members, [f.name for f in t.fields] if t is not None else [], names, label)
        options.append(Branch(label, label, prompt, tuple(inner)))
    return assemble(f"What does {who(names, actor)} do?", options)


def who(names: Mapping[str, str], actor: str) -> str:
    """The actor's name for a prompt: a combatant's name, "the GM" for the GM's own calls."""
    return names.get(actor, "the GM" if actor == GM else actor)


#: A ruleset's own builder (:attr:`affray.core.plugin.Plugin.steps`): ``(view, actor, specs, hints) -> Step``, from
#: the seat's view (the ruleset's own type, as its hinter reads it: the registry cannot name it, hence ``...``), the
#: actor, its legal actions and their hints (one text per spec).
StepBuilder = Callable[..., Step]


def steps_for(record: AnyPlugin, view: object, actor: str, specs: Sequence[ActionSpec], hints: Sequence[str]) -> Step:
    """``actor``'s legal ``specs`` as a tree, built from what the seat sees (its ``view``) by the ruleset's own
    builder (:attr:`~affray.core.plugin.Plugin.steps`), else by :func:`default_steps`."""
    loader = record.steps
    if loader is not None:
        built: Step = loader()(view, actor, specs, hints)
        return built
    combatants = getattr(view, "combatants", ())
    names = {str(c.id): str(c.name) for c in combatants}
    return default_steps(record.ruleset().action_types(), names, actor, specs, hints)
