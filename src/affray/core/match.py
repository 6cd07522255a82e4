"""A match: its setup, the seed commitment and the action log (DESIGN.md, contract 4).

:class:`Match` drives a ruleset's step function, owns the RNG, maps seats to the actors they control,
and keeps the log of record. Replay is a fold: building a match from the same setup and seed and
submitting the same actions reproduces the state and every event exactly. Undo is "replay one action
fewer"; since each die is tied to its draw index, the same action replayed rolls the same dice.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from affray.core.engine import (
    GM,
    SPECTATOR,
    Accepted,
    Action,
    ActionSpec,
    Outcome,
    Rejected,
    Ruleset,
    StepResult,
    Viewer,
    Window,
)
from affray.core.events import Committed, Event, Revealed
from affray.core.options import options_to_dict, parse_options
from affray.core.rng import RNG, FastRNG, VerifiableRNG, new_secret_seed


@dataclass(slots=True)
class LogEntry:
    """One accepted action. ``seq``, ``seat``, ``actor`` and ``action`` are the record; ``events`` derive."""

    seq: int
    seat: str
    actor: str
    action: Action
    events: list[Event]


class ReplayError(RuntimeError):
    """A logged action was refused on replay: the log does not belong to this setup and seed."""


class Match:
    """A live match of one ruleset. See the module docstring."""

    def __init__(
        self,
        ruleset: Ruleset,
        setup: Mapping[str, Any],
        options: Mapping[str, Any] | None = None,
        *,
        seed: bytes | None = None,
        rng: RNG | None = None,
        seats: Mapping[str, str] | None = None,
        controllers: Mapping[str, str] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.setup_data = dict(setup)
        self.options = parse_options(ruleset.options_type, options)
        if rng is None:
            self.seed: bytes | None = seed if seed is not None else new_secret_seed()
            rng = VerifiableRNG(self.seed)
        else:
            self.seed = seed
        self.rng = rng
        self.commitment = rng.commitment if isinstance(rng, VerifiableRNG) else ""
        self.state, self.setup_events = ruleset.setup(self.setup_data, self.options, rng)
        actors = list(ruleset.names(self.state))
        self.seats: dict[str, str] = {a: a for a in actors}
        self.seats.update(seats or {})
        self.seats[GM] = GM
        self.controllers: dict[str, str] = {a: "human" for a in actors}
        self.controllers.update(controllers or {})
        self.controllers.setdefault(GM, "human")
        self.log: list[LogEntry] = []
        self._seating: dict[str, str] = {}
        self._viewers: dict[str, Viewer] = {}

    # -- reading -----------------------------------------------------------------------------------
    @property
    def options_dict(self) -> dict[str, Any]:
        return options_to_dict(self.options)

    def pending(self) -> Window | None:
        return None if self.outcome() is not None else self.ruleset.pending(self.state)

    def legal(self, actor: str) -> list[ActionSpec]:
        return self.ruleset.legal(self.state, actor)

    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def rounds(self) -> int:
        return self.ruleset.rounds(self.state)

    def names(self) -> dict[str, str]:
        return self.ruleset.names(self.state)

    def viewer(self, seat: str) -> Viewer:
        """The viewer for ``seat``: the GM sees all; a spectator controls nothing; a player its actors.
        Viewers are frozen, so one is kept per seat until the seating changes."""
        if self.seats != self._seating:
            self._seating, self._viewers = dict(self.seats), {}
        viewer = self._viewers.get(seat)
        if viewer is None:
            viewer = self._viewers[seat] = self._new_viewer(seat)
        return viewer

    def _new_viewer(self, seat: str) -> Viewer:
        if seat == GM:
            return Viewer(GM, frozenset(a for a, s in self.seats.items() if s == GM), True)
        if seat == SPECTATOR:
            return Viewer.spectator()
        return Viewer(seat, frozenset(a for a, s in self.seats.items() if s == seat))

    def view(self, seat: str) -> dict[str, Any]:
        return self.ruleset.view(self.state, self.viewer(seat))

    def seat_names(self) -> list[str]:
        return sorted(set(self.seats.values()))

    def events(self) -> Iterator[Event]:
        """Every event so far: setup first, then each action's events in order."""
        yield from self.setup_events
        for entry in self.log:
            yield from entry.events

    # -- acting ------------------------------------------------------------------------------------
    def submit(self, seat: str, actor: str, action: Action) -> StepResult:
        """Let ``seat`` take ``action`` for ``actor``; on acceptance the action joins the log."""
        if self.outcome() is not None:
            return Rejected("match_over", "The fight is over; no more actions can be taken.")
        if self.seats.get(actor) is None:
            return Rejected("unknown_actor", f"There is no combatant called '{actor}' in this fight.")
        if self.seats[actor] != seat:
            return Rejected("not_your_seat", f"Seat '{seat}' does not control {self.names().get(actor, actor)}.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Rejected("bad_action", "An action is an object with a 'type', e.g. {\"type\": \"defense\"}.")
        window = self.ruleset.pending(self.state)
        result = self.ruleset.step(self.state, actor, action, self.rng)
        if window is None or actor not in window.actors:
            # The ruleset words the refusal (e.g. "no attack of opportunity left"); accepting would be a bug.
            if isinstance(result, Accepted):
                raise RuntimeError(f"{self.ruleset.name} accepted an action from {actor}, who was not due to act")
            return result
        if isinstance(result, Accepted):
            self.log.append(LogEntry(len(self.log), seat, actor, action, result.events))
        return result

    def act(self, actor: str, action: Action) -> StepResult:
        """Submit for ``actor`` from the seat that controls it (library and policy convenience)."""
        return self.submit(self.seats.get(actor, actor), actor, action)

    # -- history -----------------------------------------------------------------------------------
    def fresh(self) -> Match:
        """A new match with the same setup, options, seed and seats, before any action."""
        if self.seed is None:
            raise ReplayError("this match has no seed to replay from (a simulation RNG was supplied)")
        return Match(self.ruleset, self.setup_data, self.options_dict, seed=self.seed,
                     seats=self.seats, controllers=self.controllers)

    def replayed(self, entries: list[LogEntry] | None = None) -> Match:
        """Replay ``entries`` (default: the whole log) on a fresh match; a refusal raises ReplayError."""
        match = self.fresh()
        for entry in self.log if entries is None else entries:
            result = match.submit(entry.seat, entry.actor, entry.action)
            if isinstance(result, Rejected):
                raise ReplayError(f"action #{entry.seq} by {entry.seat} was refused on replay: "
                                  f"{result.code}: {result.message}")
        return match

    def undo(self, seat: str) -> bool:
        """Take back ``seat``'s last action (and everything after it) by replaying the log up to it."""
        last = next((e.seq for e in reversed(self.log) if e.seat == seat), None)
        if last is None:
            return False
        replay = self.replayed(self.log[:last])
        self.state, self.rng, self.log = replay.state, replay.rng, replay.log
        return True

    # -- per-viewer redaction (contract 6) -----------------------------------------------------------
    def redacted_log(self, seat: str) -> list[dict[str, Any]]:
        """The log as ``seat`` may see it: others' unrevealed commits and private events hidden."""
        viewer = self.viewer(seat)
        revealed = {e.seal for e in self.events() if isinstance(e, Revealed)}
        out = []
        for entry in self.log:
            seals = [e for e in entry.events if isinstance(e, Committed)]
            hidden = any(s.seal not in revealed for s in seals) and not viewer.may_see(entry.actor)
            action = ({"type": "commit", "seals": [{"seal": s.seal, "digest": s.digest} for s in seals]}
                      if hidden else entry.action)
            out.append({"seq": entry.seq, "seat": entry.seat, "actor": entry.actor, "action": action,
                        "events": [redact_event(e, viewer) for e in entry.events]})
        return out


def redact_event(event: Event, viewer: Viewer) -> dict[str, Any]:
    """``event`` as ``viewer`` may see it."""
    audience = event.audience()
    if audience is None or viewer.omniscient or audience & viewer.controls:
        return event.to_dict()
    return event.redacted()


def simulation_match(ruleset: Ruleset, setup: Mapping[str, Any], options: Mapping[str, Any] | None,
                     seed: int, controllers: Mapping[str, str] | None = None) -> Match:
    """A match on the fast (unverifiable) RNG, for simulation."""
    return Match(ruleset, setup, options, rng=FastRNG(seed), controllers=controllers)
