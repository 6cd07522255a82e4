"""What the conformance suite runs over: every registered ruleset and every example scenario."""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml

import affray
from affray.ai.base import RandomPolicy
from affray.core.adjust import Ruled
from affray.core.engine import GM, SPECTATOR
from affray.core.events import Committed
from affray.core.match import Match
from affray.core.policy import exposed
from affray.core.rng import FastRNG
from tests.sweep import sample

ROOT = Path(__file__).parents[2]


def example_scenarios() -> list[Path]:
    """Every YAML file under examples/ that is a scenario (has ``sides``)."""
    return list(_example_scenarios())


@functools.cache  # ten test modules ask at collection; parsing every example each time was two seconds of it
def _example_scenarios() -> tuple[Path, ...]:
    out = []
    for path in sorted((ROOT / "examples").rglob("*.yaml")):
        data = yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        if isinstance(data, dict) and "sides" in data:
            out.append(path)
    return tuple(out)


def scenario_id(path: Path | str) -> str:
    return str(path) if isinstance(path, str) else str(path.relative_to(ROOT / "examples"))


def toy_registered() -> None:
    """Register the toy ruleset of ``tests/core/toy.py`` through its plug-in record (as a fifth ruleset would be)."""
    from affray.core.plugin import register
    from tests.core.toy import PLUGIN

    register(PLUGIN)


def load(case: Path | str) -> affray.Scenario:
    """An example scenario file, or ``"toy"``: the toy ruleset's scenario (registering the toy first)."""
    if isinstance(case, Path):
        return affray.load_scenario(case)
    from affray.api import scenario_from_data
    from tests.core.toy import SCENARIO

    toy_registered()
    return scenario_from_data(dict(SCENARIO), "toy.yaml")


def cases() -> list[Path | str]:
    """What the conformance suite runs over: every example scenario and the toy ruleset (``make test-quick``: a
    fixed sample of each ruleset's, :func:`tests.sweep.sample`)."""
    return sample([*example_scenarios(), "toy"])


def random_playout(path: Path | str, seed: int, max_steps: int = 20_000) -> Match:
    """Play ``path`` to the end with every seat on the random policy."""
    scenario = load(path)
    match = scenario.start(seed)
    policies = {actor: RandomPolicy() for actor in match.controllers}
    affray.play(match, policies, FastRNG(seed), max_steps=max_steps)
    return match


def random_step(match: Match, rng: FastRNG) -> bool:
    """The first actor due takes a uniformly random legal action (one ``rng.die`` a step); False once nobody is
    due (the fight is over)."""
    window = match.pending()
    if window is None:
        return False
    actor = window.actors[0]
    legal = match.legal(actor)
    match.act(actor, legal[rng.die(len(legal)) - 1].action)
    return True


def secrets(match: Match) -> list[tuple[str, object]]:
    return list(match.ruleset.secrets(match.state))


def ruling_secrets(match: Match) -> list[tuple[str, object]]:
    """The changes of every GM ruling that some seats may not see (a private :class:`~affray.core.adjust.Ruled`
    event's: a WaRP extra's HP), as GM-level secrets of the combatant each changes: the change as the ruling's action
    holds it and as its event holds it (with the value it replaced). A seat's log holds neither, in the record's
    action or its events (DESIGN.md contract 6: a record is redacted as a whole)."""
    out: list[tuple[str, object]] = []
    for record in match.records:
        for event in record.events:
            if isinstance(event, Ruled) and event.private:
                for change in event.changes:
                    owner = str(change["combatant"])
                    out += [(owner, {k: v for k, v in change.items() if k != "was"}), (owner, change)]
    return out


def invariants(match: Match) -> list[str]:
    return match.ruleset.invariants(match.state)


def leaks(match: Match) -> list[str]:
    """Secrets of one seat visible in another seat's view, redacted log or policy observations, checked from
    scratch (:class:`LeakWatch` on a fresh watch). A fight checked after every step takes a :class:`LeakWatch`."""
    return LeakWatch(match).check()


@dataclass
class _SeatLog:
    """What a :class:`LeakWatch` has checked of one seat's redacted log: each record's JSON text as the seat sees
    it, the secrets already searched in all of them, and the seals revealed when they were made."""

    parts: list[str] = field(default_factory=list)
    searched: set[str] = field(default_factory=set)
    revealed: frozenset[str] = frozenset()


class LeakWatch:
    """The leak check of a fight that goes on: :meth:`check` after every step finds the same secrets as
    :func:`leaks` from scratch would, at a cost that grows with what the step added, not with the whole log.

    Secrets of one seat must not show in another seat's view, redacted log or its policies' observations — the
    GM's included: only the seat that plays an actor opens its face-down choices (``Viewer.may_open``); GM-level
    information opens to the GM too (``Viewer.may_see``). The log of record only grows, and an old record's
    redaction for a seat changes only when one of its commits is revealed (``Match.revealed``) or the seating
    changes; so per seat the watch keeps each record's redacted text and redoes only what can have changed: the
    records added since the last check, the records whose commits were revealed since (from the first of them
    on), everything when the seating changed. The view and the observations of the actors due to act (what a
    policy is shown: it observes only when its actor is due) are checked whole every time. A secret already
    searched in every kept record is searched in the new ones only; a secret new to the seat (a card just dealt, a
    GM sheet that changed) in every kept record. Each record's text is searched on its own (a secret is a JSON
    value; it does not span two records)."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self._seating: dict[str, str] = {}
        self._logs: dict[str, _SeatLog] = {}

    def check(self) -> list[str]:
        """Every leak now, one sentence each (``seat S can see A's secret ...``); empty when none. Every seat's
        view is serialised to JSON on the way (a view that is not JSON raises)."""
        match = self.match
        hidden = [(owner, secret, True) for owner, secret in secrets(match)]
        hidden += [(owner, secret, False) for owner, secret in match.ruleset.gm_secrets(match.state)]
        hidden += [(owner, secret, False) for owner, secret in ruling_secrets(match)]
        seats = sorted({*match.seat_names(), SPECTATOR, GM})
        views = {seat: json.dumps(match.view_json(seat), sort_keys=True) for seat in seats}  # raises if not JSON
        if not hidden:  # nothing to find; the kept texts catch up at the next check that has secrets
            return []
        if match.seats != self._seating:
            self._seating, self._logs = dict(match.seats), {}
        problems: list[str] = []
        for seat in seats:
            problems += self._check_seat(seat, views[seat], hidden)
        return problems

    def _check_seat(self, seat: str, shown: str, hidden: list[tuple[str, object, bool]]) -> list[str]:
        match, viewer = self.match, self.match.viewer(seat)
        log = self._logs.setdefault(seat, _SeatLog())
        fresh = self._refresh(seat, log)
        # What the seat's policies see: the observation of each of its actors due to act (the same redaction as
        # the view). A policy observes only then (ai/runner.py policy_action, table/policy_seats.py PolicySeats._turn).
        window = match.pending()
        due = set(window.actors) if window is not None else set()
        for actor in sorted(a for a, s in match.seats.items() if s == seat and a in match.controllers and a in due):
            shown += json.dumps(exposed(match.observe(actor)), sort_keys=True, default=repr)
        problems, searched = [], set()
        for owner, secret, sealed in hidden:
            if viewer.may_open(owner) if sealed else viewer.may_see(owner):
                continue
            needle = json.dumps(secret, sort_keys=True)
            records = log.parts[fresh:] if needle in log.searched else log.parts
            if needle in shown or any(needle in part for part in records):
                problems.append(f"seat {seat} can see {owner}'s secret {needle}")
            else:  # a leak found stays unsearched, so the next check finds it again
                searched.add(needle)
        log.searched = searched
        return problems

    def _refresh(self, seat: str, log: _SeatLog) -> int:
        """Bring ``log`` up to the match's records; the index from which its texts are new."""
        match = self.match
        revealed = match.revealed
        if not log.revealed <= revealed or len(log.parts) > len(match.records):  # not the watched fight's growth
            log.parts, log.searched = [], set()
        start = len(log.parts)
        opened = revealed - log.revealed
        if opened:
            start = next(
                (
                    i
                    for i, record in enumerate(match.records[:start])
                    if any(isinstance(e, Committed) and e.seal in opened for e in record.events)
                ),
                start,
            )
        log.parts[start:] = [json.dumps(item, sort_keys=True) for item in match.events_since(start, seat)]
        log.revealed = revealed
        return start


def shared_mutable_parts(a: object, b: object) -> list[str]:
    """The fields of two dataclass instances that hold one and the same mutable object (a list, a dict, a set, or a
    dataclass that is not frozen): what two matches built from one shared setup store (``Memo.static``) must never
    share, as a fight of one would change the other. A field added later is checked as well, with no change here."""
    shared = []
    for f in dataclasses.fields(a):  # type: ignore[arg-type]
        value = getattr(a, f.name)
        if value is not getattr(b, f.name):
            continue
        params = getattr(type(value), "__dataclass_params__", None)  # a dataclass's: frozen or not
        if isinstance(value, (list, dict, set, bytearray)) or (params is not None and not params.frozen):
            shared.append(f.name)
    return shared
