"""Typed views with one envelope (DESIGN.md contract 6).

``Ruleset.view(state, viewer, memo)`` returns a :class:`View`: the same envelope in every ruleset (which ruleset and
mode, round, phase, turn order, whose turn it is, the prompt, the outcome, the viewer's seat and actors) and the same
combatant part (:class:`CombatantView`: id, name, side, controlled by the viewer or not, position where there is
one, the ruleset's health measures as named :class:`Bar` s, statuses with their remaining duration, down, dead), plus
a typed ruleset part in ``detail`` (the view's and each combatant's). One name for the combatant list:
``combatants``, in the ruleset's own order.

Views are read-only: rulesets share unchanged parts between successive views (through the match's
:class:`~affray.core.memo.Memo`). :meth:`View.to_json` is the JSON form every client reads (the web table, the API,
``--json``); :func:`view_schema` its JSON Schema (``affray schema view RULESET``).

**Panels.** A client draws a ruleset's own part with the panels the view names in ``panels``, never by guessing the
ruleset from the view's shape. A ruleset declares them once, as the class attribute ``PANELS`` of its view's detail
dataclass (:data:`PanelKind`); :func:`envelope` puts them in every view and :func:`view_schema` fixes them in the
schema. Each kind reads data of a known shape: ``grid`` the map rows ``detail.map``, the combatants' ``square``
positions and, where a ruleset tells it, their ``melee_armed`` (the squares around them are threatened); ``line``
the ``line`` positions; ``places`` the ``place`` positions and ``detail.pursuit``; ``cards`` the view's
``detail.cards`` and each combatant's ``hand``, ``psych``, ``slots`` and ``ready``; ``facts`` the :class:`Facts` of
``detail.facts`` and of each combatant's ``detail.facts``: label and value rows a ruleset fills in, so that a new
ruleset shows its own part with no change to any client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, get_args

from affray.core.engine import GM, Outcome, Viewer, Window
from affray.core.events import to_jsonable
from affray.core.json import Json, JsonObject, as_list, as_object

# Covariant: a view is read-only once built (see the module docstring), so a ``View[HudDetail, ...]`` is a
# ``View[object, object]``, which is what the generic layers read.
D = TypeVar("D", covariant=True)
C = TypeVar("C", covariant=True)
# The same, invariant, for the functions that build a view.
DB = TypeVar("DB")
CB = TypeVar("CB")


@dataclass(slots=True)
class Bar:
    """A health measure as a bar: ``name`` as the rules say it (``HP``, ``Poise``, ``Health``, ``Wounds``...)."""

    name: str
    value: int
    max: int


@dataclass(slots=True)
class Status:
    """A status or condition; ``rounds`` is the remaining duration (``None``: until something ends it)."""

    name: str
    rounds: int | None = None


@dataclass(slots=True)
class Position:
    """Where a combatant stands. ``kind``: ``square`` (a grid square ``x``, ``y``; ``facing`` where the rules use
    it), ``line`` (``x`` metres along WaRP's line) or ``place`` (``x`` is the id of a Sim HuD place; combatants sharing
    a place are engaged)."""

    kind: Literal["square", "line", "place"]
    x: float
    y: float = 0
    facing: str | None = None


#: The kinds of panel a view may ask its clients to draw (see the module docstring for the data each one reads).
PanelKind = Literal["grid", "line", "places", "cards", "facts"]
PANEL_KINDS: tuple[str, ...] = get_args(PanelKind)


@dataclass(slots=True)
class Fact:
    """One row of a ``facts`` panel: a ``label`` and its ``value``, both in words as the seat may read them."""

    label: str
    value: str


@dataclass(slots=True)
class Facts:
    """The rows of a ``facts`` panel (the view's under ``title``, or a combatant's on its card)."""

    title: str
    rows: tuple[Fact, ...]


def panels_of(detail_type: type[object]) -> tuple[PanelKind, ...]:
    """The panels a ruleset's views ask for: the ``PANELS`` of its detail dataclass (none when it declares none);
    ``TypeError`` for a kind no client knows."""
    declared: tuple[PanelKind, ...] = tuple(getattr(detail_type, "PANELS", ()))
    unknown = [p for p in declared if p not in PANEL_KINDS]
    if unknown:
        raise TypeError(f"{detail_type.__name__}.PANELS names {unknown}; the panel kinds are {list(PANEL_KINDS)}")
    return declared


@dataclass(slots=True)
class CombatantView(Generic[C]):
    """One combatant as a seat sees it; ``detail`` is the ruleset's own part. ``down``: out of the fight, by harm or
    taken out by a GM ruling (not by escape); ``dead``: dead by the rules. ``sheet``: the combatant's sheet as the
    seat may read it, in words (label and value rows the ruleset fills in from ``detail``: names, never ids; the
    numbers of a sheet the seat may not see are left out), which a client shows as it is."""

    id: str
    name: str
    side: str
    controlled: bool
    position: Position | None
    bars: tuple[Bar, ...]
    statuses: tuple[Status, ...]
    down: bool
    dead: bool
    detail: C
    sheet: tuple[Fact, ...] = ()


@dataclass(slots=True)
class Prompt:
    """Who must act now (any of ``actors``), in which ``phase``, and the question in words."""

    phase: str
    actors: tuple[str, ...]
    text: str


@dataclass(slots=True)
class OutcomeView:
    winner: str | None
    reason: str


@dataclass(slots=True)
class View(Generic[D, C]):
    """A seat's view of a match: the envelope, the combatants, the ruleset's part (``detail``) and the panels that
    draw it (``panels``, declared by the detail's type: :func:`panels_of`)."""

    ruleset: str
    mode: str
    round: int
    phase: str
    order: tuple[str, ...]
    turn: str | None
    prompt: Prompt | None
    outcome: OutcomeView | None
    seat: str
    you: tuple[str, ...]
    combatants: tuple[CombatantView[C], ...]
    detail: D
    panels: tuple[PanelKind, ...] = ()

    def combatant(self, actor: str) -> CombatantView[C]:
        """The combatant ``actor`` (``KeyError`` if there is none)."""
        for c in self.combatants:
            if c.id == actor:
                return c
        raise KeyError(actor)

    def by_id(self) -> dict[str, CombatantView[C]]:
        return {c.id: c for c in self.combatants}

    def to_json(self) -> JsonObject:
        """The JSON form (plain dicts and lists) that clients read; see :func:`view_schema`."""
        return as_object(to_jsonable(self))


def prompt_of(window: Window | None) -> Prompt | None:
    return None if window is None else Prompt(window.phase, window.actors, window.prompt)


def outcome_of(outcome: Outcome | None) -> OutcomeView | None:
    return None if outcome is None else OutcomeView(outcome.winner, outcome.reason)


def envelope(
    ruleset: str,
    *,
    mode: str,
    round: int,
    phase: str,
    order: tuple[str, ...] | list[str],
    window: Window | None,
    outcome: Outcome | None,
    viewer: Viewer,
    combatants: tuple[CombatantView[CB], ...],
    detail: DB,
    turn: str | None = None,
) -> View[DB, CB]:
    """The one envelope every ruleset's view is built with. ``turn`` defaults to the first actor due; the panels
    are those the type of ``detail`` declares (:func:`panels_of`)."""
    if turn is None and window is not None and window.actors:
        turn = window.actors[0]
    you = tuple(c.id for c in combatants if c.controlled)
    return View(
        ruleset,
        mode,
        round,
        phase,
        tuple(order),
        turn,
        prompt_of(window),
        outcome_of(outcome),
        viewer.seat,
        you,
        combatants,
        detail,
        panels_of(type(detail)),
    )


def controlled(viewer: Viewer, actor: str) -> bool:
    """Whether ``viewer``'s seat plays ``actor`` (the GM's seat plays the actors seated at ``gm``)."""
    return actor in viewer.controls or (viewer.seat == GM and actor == GM)


def view_schema(detail: type[object], combatant_detail: type[object]) -> JsonObject:
    """The JSON Schema of a ruleset's views (pydantic builds it from the dataclasses), with the panels its detail
    type declares as the one value of ``panels``."""
    from pydantic import TypeAdapter

    schema: JsonObject = TypeAdapter(View[detail, combatant_detail]).json_schema()  # type: ignore[valid-type]
    schema["title"] = f"View ({detail.__name__})"
    declared: list[Json] = [*panels_of(detail)]
    as_object(as_object(schema["properties"])["panels"]).update(const=declared, default=declared)
    schema["required"] = [*as_list(schema.get("required", [])), "panels"]
    return schema
