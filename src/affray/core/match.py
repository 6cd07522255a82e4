"""A match: its setup, the seed commitment and the log of record (DESIGN.md, contract 4; versions and undo records).

:class:`Match` drives a ruleset's step function, owns the RNG, maps seats to the actors they control, and keeps the
log of record: a list of :class:`Record` s, each an accepted *action* or an *undo* (who asked, and back to which
version). The match's **version** is the number of records; a client names the version it chose at, and a stale
one is refused (``stale_version``) with nothing changed, except in a simultaneous window, where a choice still
stands behind other actors' moves (:mod:`affray.core.standing`).

Replay is a fold: building a match from the same setup and seed and applying the same records reproduces the state
and every event exactly. An undo does not cut the log: it is appended, and the state becomes what it was at the
version it names (replayed from the setup along the actions in force then). Since each die is tied to its draw
index, the same action after an undo rolls the same dice. A player may take back its own last action only while
nothing has been revealed since (no die rolled, no card turned), so taking back never shows anyone the coming dice or
other seats' face-down choices; the GM may rewind to any version, and the record says so.

Derived values (views, legal lists) are kept in the match's :class:`~affray.core.memo.Memo`, keyed by its version.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from affray.core.actions import by_type, refusal, ruling_refusal
from affray.core.adjust import Change, Joined, Joiner, parse, rule_on, unknown
from affray.core.checkpoint import Checkpoint, history_at
from affray.core.engine import (
    GM,
    Accepted,
    Action,
    ActionSpec,
    AnyRuleset,
    Outcome,
    Rejected,
    StepResult,
    Viewer,
    Window,
)
from affray.core.events import Event, Revealed
from affray.core.hidden import (
    NONE,
    Concealed,
    Unhidden,
    conceal_specs,
    conceal_view,
    concealed_for,
    mark_hidden,
    named,
    replaced,
    scrub,
    starting,
)
from affray.core.journal import Journal
from affray.core.json import Json, JsonMapping, JsonObject, as_object
from affray.core.memo import Memo
from affray.core.narration import PLAIN, Narrator, Story
from affray.core.options import options_to_dict, parse_options
from affray.core.plugin import AnyPlugin, Plugin
from affray.core.records import ACTION, IN_FORCE, RULING, UNDO, Line, Record, ReplayError, reveals
from affray.core.rng import OWN_SALTS, RNG, SECRET_SALTS, VerifiableRNG, new_secret_seed
from affray.core.seatlog import seat_log, story_of
from affray.core.standing import MOVED_ON, stands

if TYPE_CHECKING:
    from affray.core.policy import Choices, Observation
    from affray.core.view import View


#: Added to a hidden combatant's id to try an action as if aimed at nobody (:meth:`Match._as_unknown`): an invisible
#: separator, which no combatant id holds (ids are letters, digits, ``_`` and ``-``).
_ABSENT = "\u2063"


class UnknownActor(KeyError):
    """An actor id that names no combatant of the fight nor the GM (:meth:`Match.observe`); its text is the
    sentence."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Match:
    """A live match of one ruleset. See the module docstring.

    A match carries its ruleset's plug-in record (:attr:`plugin`), and whatever works on a match takes the part it
    needs from there (the narrator, the adjuster of GM rulings, the hints, the countdown, the policies), never from
    the registry by name."""

    def __init__(
        self,
        rules: AnyPlugin | AnyRuleset,
        setup: Mapping[str, object],
        options: Mapping[str, object] | None = None,
        *,
        seed: bytes | None = None,
        rng: RNG | None = None,
        seats: Mapping[str, str] | None = None,
        controllers: Mapping[str, str] | None = None,
        shared: dict[Hashable, object] | None = None,
        salts: str = OWN_SALTS,
        seal_key: bytes | None = None,
    ) -> None:
        """``rules``: the ruleset's plug-in record (:class:`~affray.core.plugin.Plugin`), or a ruleset alone, which
        the match holds as a record of its rules only (:meth:`Plugin.of`: the plain narrator, no GM rulings).
        ``shared``: a store for the setup-only parts of the memo (:meth:`Memo.static`), handed to every match
        of the same setup and options by whoever starts them (a scenario, a simulation chunk). ``salts``: where the
        verifiable RNG draws its seal salts (:data:`~affray.core.rng.LEGACY_SALTS` to replay a log of format 1 or
        2); ``seal_key``: the key they come from instead of the seed (:func:`affray.core.rng.seal_key` of a salt
        secret: a table's, log format 4), which makes them :data:`~affray.core.rng.SECRET_SALTS`."""
        self.plugin: AnyPlugin = rules if isinstance(rules, Plugin) else Plugin.of(rules)
        ruleset = self.ruleset = self.plugin.ruleset()
        # Its readers (the tests, the narration checks) index it deeply: loose until the setups have typed shapes.
        self.setup_data: dict[str, Any] = dict(setup)
        self.options = parse_options(ruleset.options_type, options)
        self.salts = SECRET_SALTS if seal_key is not None else salts
        self.seal_key = seal_key
        if rng is None:
            self.seed: bytes | None = seed if seed is not None else new_secret_seed()
            rng = VerifiableRNG(self.seed, salts=self.salts, seal_key=seal_key)
        else:
            self.seed = seed
        self.rng = rng
        self.commitment = rng.commitment if isinstance(rng, VerifiableRNG) else ""
        self.memo = Memo(shared)
        self._declared = by_type(ruleset.action_types())  # what submit lets reach the step (core/actions.py)
        self.state, self.setup_events = ruleset.setup(self.setup_data, self.options, rng, Journal(), self.memo)
        actors = list(ruleset.names(self.state))
        self.seats: dict[str, str] = {a: a for a in actors}
        self.seats.update(seats or {})
        self.seats[GM] = GM
        self.controllers: dict[str, str] = {a: "human" for a in actors}
        self.controllers.update(controllers or {})
        self.controllers.setdefault(GM, "human")
        self.records: list[Record] = []
        # The simultaneous key of the window open when each record was taken ("" for other windows): whether a
        # choice made at an earlier version still stands (core/standing.py).
        self._opened: list[str] = []
        self._revealed: set[str] = set()
        self._shared = shared
        self._line: Line | None = None
        self._lines: list[Line | None] = [None]  # the line in force at each version
        self._seating: dict[str, str] = {}
        self._viewers: dict[str, Viewer] = {}
        self._narrator: Narrator | None = None
        self._story: Story | None = None
        # The combatants still hidden at each version (core/hidden.py): id -> name.
        self._hidden: list[Mapping[str, str]] = [starting(self.setup_data, ruleset.names(self.state))]

    @classmethod
    def restore(
        cls,
        rules: AnyPlugin | AnyRuleset,
        setup: Mapping[str, object],
        options: Mapping[str, object] | None,
        *,
        seed: bytes,
        records: Sequence[JsonMapping],
        seats: Mapping[str, str] | None = None,
        controllers: Mapping[str, str] | None = None,
        salts: str = OWN_SALTS,
        seal_key: bytes | None = None,
    ) -> Match:
        """Rebuild a match from its log of record (``Record.to_dict`` entries); a refusal raises ReplayError."""
        match = cls(
            rules, setup, options, seed=seed, seats=seats, controllers=controllers, salts=salts, seal_key=seal_key
        )
        for entry in records:
            match.apply_record(entry)
        return match

    def checkpoint(self) -> Checkpoint:
        """The match's derived parts now (see :class:`Checkpoint`); shares the live state: pickle it at once."""
        if not isinstance(self.rng, VerifiableRNG):
            raise ReplayError("only a match on the verifiable dice can be checkpointed")
        return Checkpoint(
            self.state,
            self.rng.index,
            self.rng.salt_index,
            [r.events for r in self.records],
            list(self._opened),
            [-1 if line is None else line.index for line in self._lines],
        )

    def resume(self, checkpoint: Checkpoint, records: Sequence[JsonMapping]) -> None:
        """Put this match, fresh from its setup, at the checkpoint taken after ``records`` (``Record.to_dict``
        entries, without events); later records are applied as replay does. The caller has checked the checkpoint
        (:mod:`affray.table.snapshot`): this only puts its parts in place (:func:`~affray.core.checkpoint.history_at`
        rebuilds the records and lines)."""
        if self.records or not isinstance(self.rng, VerifiableRNG):
            raise ReplayError("a checkpoint resumes a fresh match on the verifiable dice")
        history = history_at(checkpoint, records)
        self.state, self.rng.index, self.rng.salt_index = checkpoint.state, checkpoint.dice, checkpoint.salts
        self.records, self._lines, self._opened = history.records, history.lines, list(checkpoint.opened)
        self._revealed.update(history.revealed)
        self._line = self._lines[-1]
        if any(r.kind == RULING for r in self.records):
            self._sync_seats()  # a combatant that joined mid-fight (reinforcements) is seated as on replay
        self._rehide()
        self.memo.reset(self.version)

    def _rehide(self) -> None:
        """The hidden combatants at each version, folded from the records' events (a checkpoint's history)."""
        del self._hidden[1:]
        for record in self.records:
            record.hidden = self._hidden_after(record)
            self._hidden.append(record.hidden)

    # -- reading -----------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The number of records in the log of record: what a client names when it submits."""
        return len(self.records)

    @property
    def log(self) -> list[Record]:
        """The actions in force now, in order (the records an undo took back are not among them)."""
        out = []
        line = self._line
        while line is not None:
            out.append(self.records[line.index])
            line = line.before
        out.reverse()
        return out

    @property
    def options_dict(self) -> JsonObject:
        return options_to_dict(self.options)

    def pending(self) -> Window | None:
        return None if self.outcome() is not None else self.ruleset.pending(self.state)

    def legal(self, actor: str) -> list[ActionSpec]:
        """``actor``'s legal actions now; while a combatant its seat may not see is hidden, without those that name
        it (:func:`affray.core.hidden.conceal_specs`)."""
        specs = self.ruleset.legal(self.state, actor, self.memo)
        if not self._hidden[-1]:
            return specs
        return conceal_specs(specs, concealed_for(self._hidden[-1], self.viewer(self.seats.get(actor, actor))))

    @property
    def hidden(self) -> Mapping[str, str]:
        """The combatants hidden now from every seat but the GM's (id -> name; :mod:`affray.core.hidden`)."""
        return self._hidden[-1]

    def concealed(self, seat: str) -> Mapping[str, str]:
        """The hidden combatants ``seat`` may not see now (none for the GM's seat)."""
        return concealed_for(self._hidden[-1], self.viewer(seat)) if self._hidden[-1] else NONE

    def scrubbed(self, seat: str, view: dict[str, Any]) -> dict[str, Any]:
        """A view's JSON for ``seat`` with every part that names a combatant hidden from it left out
        (:func:`affray.core.hidden.scrub`); ``view`` itself when nothing is hidden from it."""
        concealed = self.concealed(seat)
        if not concealed:
            return view
        out: dict[str, Any] = scrub(view, concealed)  # type: ignore[assignment]
        return out

    def observe(self, actor: str) -> Observation:
        """What the policy playing ``actor`` sees: a typed, read-only observation redacted for the seat that plays
        it, exactly as that seat's view is (:class:`~affray.core.policy.Observation`). An id that is no combatant
        of this fight nor the GM (whose decisions some rulesets ask for: WaRP's WR-X1) raises :class:`UnknownActor`,
        in every ruleset alike."""
        if actor not in self.seats:
            raise UnknownActor(
                f"There is no combatant called '{actor}' in this fight; its combatants are "
                f"{', '.join(sorted(a for a in self.seats if a != GM))}."
            )
        return self.ruleset.observe(self.state, self.viewer(self.seats.get(actor, actor)), actor, self.memo)

    def choices(self, actor: str) -> Choices:
        """``actor``'s legal actions now, answered on demand (:class:`~affray.core.policy.Choices`)."""
        return self.ruleset.choices(self.state, actor, self.memo)

    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def rounds(self) -> int:
        return self.ruleset.rounds(self.state)

    def names(self) -> dict[str, str]:
        return self.ruleset.names(self.state)

    def viewer(self, seat: str) -> Viewer:
        """The viewer for ``seat``: the GM sees GM-level information; a spectator controls nothing; a player its
        actors. Only the seat that controls an actor opens its face-down choices (:meth:`Viewer.may_open`).
        Viewers are frozen, so one is kept per seat until the seating changes."""
        if self.seats != self._seating:
            self._seating, self._viewers = dict(self.seats), {}
        viewer = self._viewers.get(seat)
        if viewer is None:
            viewer = self._viewers[seat] = self._new_viewer(seat)
        return viewer

    def _new_viewer(self, seat: str) -> Viewer:
        return Viewer.of_seat(self.seats, seat)

    def view(self, seat: str) -> View[object, object]:
        """What ``seat`` may see now (a typed view, see :mod:`affray.core.view`)."""
        view = self.ruleset.view(self.state, self.viewer(seat), self.memo)
        if not self._hidden[-1]:
            return view
        concealed = self.concealed(seat)
        return conceal_view(view, concealed) if concealed else mark_hidden(view, self._hidden[-1])

    def view_json(self, seat: str) -> dict[str, Any]:
        """:meth:`view` as JSON (its readers index it deeply: loose, until the view's JSON has a typed shape)."""
        view: dict[str, Any] = self.view(seat).to_json()
        return self.scrubbed(seat, view) if self._hidden[-1] else view

    def seat_names(self) -> list[str]:
        return sorted(set(self.seats.values()))

    def events(self) -> Iterator[Event]:
        """Every event of the actions in force: setup first, then each action's events in order."""
        yield from self.setup_events
        for entry in self.log:
            yield from entry.events

    # -- acting ------------------------------------------------------------------------------------
    def submit(
        self, seat: str, actor: str, action: Action, *, version: int | None = None, trusted: bool = False
    ) -> StepResult:
        """Let ``seat`` take ``action`` for ``actor``; on acceptance the action joins the log of record.

        ``version``: the version the action was chosen at. An earlier one is refused as ``stale_version`` unless the
        choice still stands: in a simultaneous window, behind other actors' moves only (:mod:`affray.core.standing`);
        the record then keeps ``chosen_at``.

        The action is validated completely before anything is kept (contract 2): no field its declared action type
        does not list, and at most :data:`~affray.core.actions.MAX_ACTION_BYTES` of JSON (``bad_field``,
        ``action_too_large``: :func:`affray.core.actions.refusal`), then the ruleset's ``step`` checks its type and
        every value against the state with the ruleset's own codes; only what passes both reaches the log of
        record. ``trusted``: the action is a policy's pick from this match's own legal list
        (:func:`affray.ai.runner.play`, a table's policy seat), an instance of its declared type by construction (the
        conformance suite checks every ``legal()`` entry), so that check is skipped: it cost the full engine
        up to a fifth of its fights per second (bench_fast.py's scenarios). The step validates the action either way.
        """
        return self._submit(seat, actor, action, version, declared=not trusted)

    def _submit(self, seat: str, actor: str, action: Action, version: int | None, *, declared: bool) -> StepResult:
        """:meth:`submit`; ``declared`` False skips the declared-type check: for a trusted action, and for a record
        of a stored log being replayed (:meth:`apply_record`), which is replayed as it was taken, so a log kept before
        the check existed still loads and verifies."""
        if self.outcome() is not None:
            return Rejected("match_over", "The fight is over; no more actions can be taken.")
        concealed = self.concealed(seat) if declared else NONE  # a replayed or a policy's action was taken as it is
        if self.seats.get(actor) is None or actor in concealed:
            return Rejected("unknown_actor", f"There is no combatant called '{actor}' in this fight.")
        window = self.ruleset.pending(self.state)
        chosen_at = None
        if version is not None and version != self.version:
            # An earlier version: it still stands only in a simultaneous window, behind other actors' moves.
            stale = stands(self.records, self._opened, window, actor, version, self.names())
            if stale is not None:
                return stale
            chosen_at = version
        if self.seats[actor] != seat:
            return Rejected("not_your_seat", f"Seat '{seat}' does not control {self.names().get(actor, actor)}.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Rejected("bad_action", 'An action is an object with a \'type\', e.g. {"type": "defense"}.')
        if declared and (refused := refusal(action, self._declared)) is not None:
            return Rejected(*refused)
        if concealed and (aimed := named(action, concealed)):
            return self._as_unknown(actor, action, aimed)
        result = self.ruleset.step(self.state, actor, action, self.rng, Journal())
        if window is None or actor not in window.actors:
            # The ruleset words the refusal (e.g. "no attack of opportunity left"); accepting would be a bug.
            if isinstance(result, Accepted):
                raise RuntimeError(f"{self.ruleset.name} accepted an action from {actor}, who was not due to act")
            return result
        if isinstance(result, Accepted):
            if self._hidden[-1]:
                self._hiding(actor, action, result.events)
            self._append(
                Record(self.version, seat, actor, action, result.events, chosen_at=chosen_at), window.simultaneous
            )
        return result

    def _as_unknown(self, actor: str, action: Action, aimed: Sequence[str]) -> Rejected:
        """The refusal of an action aimed at combatants hidden from its seat: the ruleset's own refusal of the same
        action aimed at ids no combatant has (tried on a copy of the state and dice), told with the ids it named, so
        that it reads exactly as an action aimed at nobody (core/hidden.py)."""
        probe: Json = action
        for hidden in aimed:
            probe = replaced(probe, hidden, hidden + _ABSENT)
        tried = as_object(probe)
        result = self.ruleset.step(copy.deepcopy(self.state), actor, tried, copy.deepcopy(self.rng), Journal())
        if isinstance(result, Rejected):
            return Rejected(result.code, result.message.replace(_ABSENT, ""), result.reason)
        return Rejected("unknown_target", f"There is no combatant called '{aimed[0]}' in this fight.")

    def _hiding(self, actor: str, action: Action, events: list[Event]) -> None:
        """An accepted action's part in hiding (core/hidden.py), its events added in place: a hidden combatant that
        acts on a combatant another seat plays (an event with it as ``actor`` or ``attacker`` naming that one) steps
        out of hiding (:class:`Unhidden` before that event); a record a hidden actor took, or one of the GM's seat
        whose action names a hidden combatant, is :class:`Concealed`; a policy of another seat that took an action
        naming one found it (revealed)."""
        hidden = self._hidden[-1]
        aimed = named(action, list(hidden))
        seat = self.seats.get(actor, actor)
        if aimed and actor not in hidden and not all(self.viewer(seat).may_see(a) for a in aimed):
            events[:0] = [Unhidden(a, "found") for a in aimed]
        first: dict[str, int] = {}  # each hidden combatant's first event as its actor, and whether it steps out
        out: dict[str, str] = {}
        for index, event in enumerate(events):
            if isinstance(event, Unhidden):
                continue
            data = event.to_dict()
            who = next((str(data[k]) for k in ("actor", "attacker") if isinstance(data.get(k), str)), None)
            if who is not None and who in hidden:
                first.setdefault(who, index)
                if self._acts_on_another(who, data):
                    out.setdefault(who, "acts")
            elif who is not None and who in self.seats:
                # another seat's combatant acting on it (the rules chose it: an area, an automatic target): found
                for found in self._found_by(who, data):
                    first.setdefault(found, index)
                    out.setdefault(found, "found")
        for who, index in sorted(first.items(), key=lambda item: -item[1]):
            if who in out:  # told before the first thing it does (or is done to it) in this record
                events.insert(index, Unhidden(who, out[who]))
        shown = {e.actor for e in events if isinstance(e, Unhidden)}
        left = [a for a in dict.fromkeys([actor, *aimed]) if a in hidden and a not in shown]
        if left:
            events.append(Concealed(left))

    def _found_by(self, actor: str, data: JsonObject) -> list[str]:
        """The hidden combatants an event of ``actor`` (a combatant not hidden) names, of a seat other than its own."""
        seat = self.seats[actor]
        rest = {k: v for k, v in data.items() if k not in ("actor", "attacker")}
        return [h for h in named(rest, list(self._hidden[-1])) if self.seats.get(h, GM) != seat and seat != GM]

    def _acts_on_another(self, hidden: str, data: JsonObject) -> bool:
        """Whether an event of ``hidden`` (its dict) names a combatant that another seat than the GM's plays."""
        mine = self.seats.get(hidden, GM)
        others = [a for a, s in self.seats.items() if s not in (mine, GM) and a != GM]
        return any(named({k: v for k, v in data.items() if k not in ("actor", "attacker")}, others))

    def _hidden_after(self, record: Record) -> Mapping[str, str]:
        """The combatants still hidden after ``record``: as before it, but those it revealed; an undo's, as at the
        version it goes back to."""
        if record.kind == UNDO:
            return self._hidden[record.action["to"]]  # type: ignore[index]
        before = self._hidden[-1]
        if not before:  # the common case: nobody hides (no event is looked at)
            return before
        gone = {e.actor for e in record.events if isinstance(e, Unhidden)}
        if not gone & set(before):
            return before
        left = {i: n for i, n in before.items() if i not in gone}
        return MappingProxyType(left) if left else NONE

    def act(self, actor: str, action: Action, *, version: int | None = None, trusted: bool = False) -> StepResult:
        """Submit for ``actor`` from the seat that controls it (library and policy convenience; ``trusted`` as in
        :meth:`submit`)."""
        return self.submit(self.seats.get(actor, actor), actor, action, version=version, trusted=trusted)

    def _append(self, record: Record, opened: str = "") -> None:
        record.hidden = self._hidden_after(record)
        self._hidden.append(record.hidden)
        self.records.append(record)
        self._opened.append(opened)
        # Every seal revealed by any record, kept as records come (a reveal stays public even if taken back).
        self._revealed.update(e.seal for e in record.events if isinstance(e, Revealed))
        if record.kind in IN_FORCE:
            self._line = Line(record.seq, self._line)
        self._lines.append(self._line)
        self.memo.advance(self.version)

    # -- history -----------------------------------------------------------------------------------
    def take_back(self, seat: str, *, version: int | None = None) -> StepResult:
        """Take back ``seat``'s own last action, if it is the last action in force and revealed nothing."""
        if version is not None and version != self.version:
            return Rejected("stale_version", "The fight has moved on since you chose; look again.", MOVED_ON)
        if self._line is None:
            return Rejected("nothing_to_take_back", "There is no action to take back.")
        last = self.records[self._line.index]
        if last.seat != seat:
            return Rejected(
                "not_your_action",
                "Only your own last action can be taken back, and someone has acted since; ask the GM.",
            )
        if reveals(last.events):
            return Rejected(
                "revealed_since", "That action rolled dice or turned a card; it cannot be taken back (ask the GM)."
            )
        return self._undo(seat, last.seq)

    def rewind(self, to: int, seat: str = GM, *, version: int | None = None) -> StepResult:
        """The GM takes the match back to version ``to`` (any earlier version); the record keeps that it did."""
        if version is not None and version != self.version:
            return Rejected("stale_version", "The fight has moved on since you chose; look again.", MOVED_ON)
        if seat != GM:
            return Rejected("gm_only", "Only the GM can take the fight back to an earlier point.")
        if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < self.version:
            return Rejected("bad_version", f"Choose a version from 0 to {self.version - 1}.")
        return self._undo(seat, to)

    def _undo(self, seat: str, to: int) -> StepResult:
        if self.seed is None:
            return Rejected("no_seed", "This match has no seed to replay from (a simulation RNG was supplied).")
        self._rebuild(self._lines[to])
        self._append(Record(self.version, seat, "", {"type": UNDO, "to": to}, [], UNDO))
        self.memo.reset(self.version)
        return Accepted([])

    def _rebuild(self, line: Line | None) -> None:
        """Put the state back to the end of ``line``, replaying its actions from the setup on a fresh RNG."""
        fresh, target = self.fresh(), line
        indices = []
        while line is not None:
            indices.append(line.index)
            line = line.before
        for index in reversed(indices):
            record = self.records[index]
            if record.kind == RULING:
                result: StepResult | list[Event] = fresh._changes(record.action)
            else:
                result = fresh.ruleset.step(fresh.state, record.actor, record.action, fresh.rng, Journal())
            if isinstance(result, Rejected):
                raise ReplayError(f"record #{record.seq} was refused on replay: {result.code}: {result.message}")
        self.state, self.rng, self._line = fresh.state, fresh.rng, target
        if any(r.kind == RULING for r in self.records):
            self._sync_seats()  # a take back may remove a combatant that joined mid-fight

    # -- GM rulings (core/adjust.py) -----------------------------------------------------------------
    def rule(self, seat: str, action: Action, *, version: int | None = None) -> StepResult:
        """A GM ruling: ``action`` is ``{"type": "ruling", "reason", "changes"}`` (:mod:`affray.core.adjust`). Every
        change is checked by the ruleset; a refused change, or a ruling that would break the state's invariants,
        changes nothing. On acceptance a ``gm`` record joins the log of record."""
        if version is not None and version != self.version:
            return Rejected("stale_version", "The fight has moved on since you chose; look again.", MOVED_ON)
        if seat != GM:
            return Rejected("gm_only", "Only the GM can rule on the fight.")
        if self.outcome() is not None:
            return Rejected("match_over", "The fight is over; no more rulings can be made.")
        if self.seed is None:
            return Rejected("no_seed", "This match has no seed to replay from, so a ruling could not be undone.")
        if not isinstance(action, dict) or action.get("type") != "ruling":
            return Rejected("bad_change", 'A ruling is {"type": "ruling", "reason": ..., "changes": [...]}.')
        too_large = ruling_refusal(action)
        if too_large is not None:
            return Rejected(*too_large)
        opened = self.pending()
        result = self._changes(action)
        if isinstance(result, Rejected) or self.ruleset.invariants(self.state):
            broken = "" if isinstance(result, Rejected) else "; ".join(self.ruleset.invariants(self.state))
            self._rebuild(self._line)  # put back what the changes before the refused one did
            self.memo.reset(self.version)
            return (
                result
                if isinstance(result, Rejected)
                else Rejected(
                    "invalid_ruling",
                    (f"That ruling would leave the fight in a state the rules cannot go on from ({broken})."),
                )
            )
        parsed = parse(action)
        assert not isinstance(parsed, Rejected)
        record_action: Action = {"type": "ruling", "reason": parsed[0], "changes": [c.to_dict() for c in parsed[1]]}
        self._append(
            Record(self.version, GM, "", record_action, list(result), RULING),
            opened.simultaneous if opened is not None else "",
        )
        self.memo.reset(self.version)
        return Accepted(list(result))

    def _changes(self, action: Action) -> Rejected | list[Event]:
        """Check and apply a ruling's changes to this match's state and settle what follows, with this match's dice
        (:func:`affray.core.adjust.rule_on`); the ruling's events. A ``reveal`` change is the match's own (hidden foes,
        :mod:`affray.core.hidden`): an :class:`Unhidden` event first; a ruling that changes a combatant still hidden
        after it is :class:`Concealed` from the seats that may not see it."""
        parsed = parse(action)
        if isinstance(parsed, Rejected):
            return parsed
        events: list[Event] = []
        for change in parsed[1]:
            if change.field == "add":
                joined = self._join(change)
                if isinstance(joined, Rejected):
                    return joined
                events += joined
        names, hidden = self.names(), self._hidden[-1]
        for change in parsed[1]:
            if change.field != "reveal":
                continue
            if change.combatant not in names:
                return unknown(change.combatant, sorted(names))
            if change.combatant not in hidden:
                return Rejected("not_hidden", f"{names[change.combatant]} is not hidden: every seat sees it already.")
            events.append(Unhidden(change.combatant, "gm"))
        rest = [c for c in parsed[1] if c.field not in ("reveal", "add")]
        if rest:
            adjuster = self.plugin.adjuster
            ruled = rule_on(
                None if adjuster is None else adjuster(),
                self.ruleset.title,
                self.state,
                self.rng,
                {**action, "changes": [c.to_dict() for c in rest]},
                names,
            )
            if isinstance(ruled, Rejected):
                return ruled
            events += ruled
        shown = {e.actor for e in events if isinstance(e, Unhidden)}
        touched = [c.combatant for c in rest if c.combatant in hidden and c.combatant not in shown]
        if touched:
            events.append(Concealed(list(dict.fromkeys(touched))))
        return events

    def _join(self, change: Change) -> Rejected | list[Event]:
        """Reinforcements (a ruling's ``add`` change, :mod:`affray.core.adjust`): the ruleset's adjuster adds the
        resolved entry to its side and the turn order; the match seats it at the GM's seat, played by the GM."""
        names = self.names()
        if change.combatant in names:
            return Rejected(
                "id_taken", f"The id '{change.combatant}' is {names[change.combatant]}'s already: choose another."
            )
        adjuster = self.plugin.adjuster
        joiner = None if adjuster is None else adjuster()
        if not isinstance(joiner, Joiner):
            return Rejected("no_reinforcements", "This ruleset takes no reinforcements yet.")
        journal = Journal()
        refused = joiner.add(self.state, change.value["entry"], change.name, change.value["place"], self.rng, journal)
        if isinstance(refused, Rejected):
            return refused
        name = self.names().get(change.combatant, change.combatant)
        self._sync_seats()
        return [*journal, Joined(change.combatant, name, change.name)]

    def _sync_seats(self) -> None:
        """Seats and controllers for the combatants there are now: one that joined mid-fight is played from the
        GM's seat (by the GM); one a take back removed has none."""
        names = self.names()
        self._story = None  # the names the narrator tells with: one more, or one fewer
        for gone in [a for a, s in self.seats.items() if s == GM != a and a not in names]:
            del self.seats[gone]
            self.controllers.pop(gone, None)
        for actor in names:
            self.seats.setdefault(actor, GM)
            self.controllers.setdefault(actor, "human")

    def apply_record(self, entry: Mapping[str, Any]) -> StepResult:
        """Apply one logged record (``Record.to_dict`` form) as replay does; a refusal raises ReplayError."""
        if entry.get("kind", ACTION) == UNDO:
            to = entry["action"]["to"]
            if not isinstance(to, int) or not 0 <= to <= self.version:
                raise ReplayError(f"record #{entry.get('seq')} takes the match back to an unknown version {to!r}")
            return self._undo(entry["seat"], to)
        kind = entry.get("kind", ACTION)
        if kind not in IN_FORCE:
            raise ReplayError(f"record #{entry.get('seq')} is of an unknown kind {kind!r}")
        result = (
            self.rule(entry["seat"], entry["action"])
            if kind == RULING
            else self._submit(entry["seat"], entry["actor"], entry["action"], None, declared=False)
        )
        if isinstance(result, Rejected):
            raise ReplayError(
                f"record #{entry.get('seq')} by {entry['seat']} was refused on replay: {result.code}: {result.message}"
            )
        chosen_at = entry.get("chosen_at")
        if isinstance(chosen_at, int) and not isinstance(chosen_at, bool) and 0 <= chosen_at < self.version - 1:
            self.records[-1].chosen_at = chosen_at  # informational (not an input): kept as the log said
        return result

    def fresh(self) -> Match:
        """A new match with the same setup, options, seed and seats, before any action."""
        if self.seed is None:
            raise ReplayError("this match has no seed to replay from (a simulation RNG was supplied)")
        return Match(
            self.plugin,
            self.setup_data,
            self.options_dict,
            seed=self.seed,
            seats=self.seats,
            controllers=self.controllers,
            shared=self._shared,
            salts=self.salts,
            seal_key=self.seal_key,
        )

    def replayed(self) -> Match:
        """The whole log of record replayed on a fresh match; a refusal raises ReplayError."""
        match = self.fresh()
        for record in self.records:
            match.apply_record(record.to_dict(events=False))
        return match

    # -- per-viewer redaction (contract 6) -----------------------------------------------------------
    def redacted_log(self, seat: str) -> list[dict[str, Any]]:
        """The log of record as ``seat`` may see it: others' unrevealed commits and private events hidden."""
        return self.events_since(0, seat)

    def events_since(self, version: int, seat: str, *, narrate: bool = False) -> list[dict[str, Any]]:
        """The records from ``version`` on, as ``seat`` may see them (see :meth:`redacted_log`). ``narrate``: each
        event and record also carries ``text``, its sentence in this seat's redaction (:mod:`affray.core.seatlog`)."""
        return seat_log(self, version, seat, narrate=narrate)

    @property
    def revealed(self) -> frozenset[str]:
        """Every seal some record revealed (a reveal stays public even if taken back)."""
        return frozenset(self._revealed)

    @property
    def narrator(self) -> Narrator:
        """The ruleset's narrator (:mod:`affray.core.narration`): its record's, or the plain one."""
        if self._narrator is None:
            told = self.plugin.narrator
            self._narrator = PLAIN if told is None else told()
        return self._narrator

    def story(self) -> Story:
        """The names the narrator tells this match with (:func:`affray.core.seatlog.story_of`), made once."""
        if self._story is None:
            self._story = story_of(self)
        return self._story
