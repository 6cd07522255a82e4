"""The log as one seat may see it, and told in sentences (DESIGN.md contract 6).

:func:`seat_log` is :meth:`affray.core.match.Match.events_since`: the records from a version on, each redacted as a
whole for the seat's :class:`~affray.core.engine.Viewer`, its action as its events (:func:`shown_action`): others'
unrevealed commits sealed, private events redacted, and a GM ruling's changes the seat may not see left out of its
action as of its events (a WaRP ruling on a GM character's HP names the combatant, never the bar or value). Told
(``narrate``), every event and record carries ``text``, its sentence as the ruleset's narrator tells it from what
that seat sees (a redacted event is told from its redaction only, so the sentence never says more than the seat may
know), and every roll ``lead``, the sentence without its dice (:mod:`affray.core.narration`).

Hidden foes (:mod:`affray.core.hidden`): a record concealed from the seat (its :class:`~affray.core.hidden.Concealed`
event not shown to it) is read as "The GM acts.", with no actor nor action; in it as in any other record, an event
that names a combatant still hidden from the seat after that record is left out, and so is any part of the action
that names one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from affray.core.adjust import Ruled
from affray.core.engine import GM, Viewer
from affray.core.events import Committed, Event, Rolled
from affray.core.hidden import CONCEALED, GM_ACTS, NONE, Concealed, concealed_for, mentions, scrub
from affray.core.json import Json, JsonObject, as_list
from affray.core.narration import Narrator, Story
from affray.core.records import RULING

if TYPE_CHECKING:
    from affray.core.match import Match
    from affray.core.records import Record as LogRecord


def redact_event(event: Event, viewer: Viewer) -> JsonObject:
    """``event`` as ``viewer`` may see it. A private event shows in full to its audience; the GM sees it too unless
    it is about a face-down choice (``sealed``) of an actor the GM does not play."""
    return event.to_dict() if shown_in_full(event, viewer) else event.redacted()


def narrated(event: Event, viewer: Viewer, narrator: Narrator, story: Story) -> JsonObject:
    """``event`` as ``viewer`` may see it (:func:`redact_event`), with its sentence (``text``) told from what that
    viewer sees; a roll also carries ``lead``, the sentence without its dice."""
    if not shown_in_full(event, viewer):
        shown = event.redacted()
        shown["text"] = narrator.hidden(shown, story)
        return shown
    shown = event.to_dict()
    shown["text"] = narrator.sentence(event, story)
    if isinstance(event, Rolled):
        shown["lead"] = narrator.lead(event, story)
    return shown


def seat_log(match: Match, version: int, seat: str, *, narrate: bool = False) -> list[JsonObject]:
    """The records of ``match`` from ``version`` on as ``seat`` may see them (see the module docstring)."""
    viewer = match.viewer(seat)
    revealed = match.revealed
    story = match.story() if narrate else None
    narrator = match.narrator if narrate else None
    return [
        seat_entry(entry, viewer, sealed_to(entry, viewer, revealed), narrator, story)
        for entry in match.records[max(0, version) :]
    ]


def sealed_to(entry: LogRecord, viewer: Viewer, revealed: Collection[str]) -> bool:
    """Whether ``entry`` is a commit still face down to ``viewer`` (its seals not yet revealed, not its own)."""
    return any(e.seal not in revealed for e in entry.events if isinstance(e, Committed)) and not viewer.may_open(
        entry.actor
    )


def visibility(entry: LogRecord, viewer: Viewer, revealed: Collection[str]) -> tuple[bool, ...]:
    """Everything of ``viewer`` that :func:`seat_entry` reads: whether the entry is sealed to it, then for each event
    whether it is shown in full; where a combatant is hidden after the entry, also whether the viewer may read the
    entry at all and, for its action and each event, whether it names a combatant hidden from the viewer. Two viewers
    with the same visibility of an entry are told the same entry (what lets the table server build it once for every
    seat that sees it so)."""
    seen = (sealed_to(entry, viewer, revealed), *(shown_in_full(e, viewer) for e in entry.events))
    concealed = concealed_for(entry.hidden, viewer) if entry.hidden else NONE
    if not concealed and not any(isinstance(e, Concealed) for e in entry.events):
        return seen
    return (
        *seen,
        concealed_from(entry, viewer),
        mentions(entry.action, concealed),
        *(mentions(redact_event(e, viewer), concealed) for e in entry.events),
    )


def concealed_from(entry: LogRecord, viewer: Viewer) -> bool:
    """Whether ``viewer`` reads ``entry`` as "The GM acts." only (a hidden combatant's record it may not see)."""
    return any(isinstance(e, Concealed) and not shown_in_full(e, viewer) for e in entry.events)


def shown_in_full(event: Event, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees ``event`` in full (:func:`redact_event`), not its redaction."""
    audience = event.audience()
    return audience is None or bool(audience & viewer.controls) or (viewer.omniscient and not event.sealed)


def seat_entry(
    entry: LogRecord, viewer: Viewer, hidden: bool, narrator: Narrator | None, story: Story | None
) -> JsonObject:
    """One record as ``viewer`` sees it (``hidden``: :func:`sealed_to`), told when a narrator and story are given."""
    if entry.hidden or any(isinstance(e, Concealed) for e in entry.events):
        return _hiding_entry(entry, viewer, hidden, narrator, story)
    item: JsonObject = {
        "seq": entry.seq,
        "kind": entry.kind,
        "seat": entry.seat,
        "actor": entry.actor,
        "action": shown_action(entry, viewer, hidden),
    }
    if entry.chosen_at is not None:
        item["chosen_at"] = entry.chosen_at
    if story is None or narrator is None:
        item["events"] = [redact_event(e, viewer) for e in entry.events]
    else:
        item["events"] = [narrated(e, viewer, narrator, story) for e in entry.events]
        item["text"] = narrator.headline(item, story)
    return item


def _hiding_entry(
    entry: LogRecord, viewer: Viewer, hidden: bool, narrator: Narrator | None, story: Story | None
) -> JsonObject:
    """:func:`seat_entry` of a record made while a combatant was hidden (:mod:`affray.core.hidden`): a record the
    viewer may not see (:func:`concealed_from`) as the GM's, its action ``{"type": "concealed"}``; its events, and any
    other record's, without those that name a combatant hidden from the viewer."""
    concealed = concealed_for(entry.hidden, viewer)
    item: JsonObject = {"seq": entry.seq, "kind": entry.kind}
    if concealed_from(entry, viewer):
        item.update(seat=GM, actor="", action={"type": CONCEALED})
    else:
        item.update(seat=entry.seat, actor=entry.actor, action=scrub(shown_action(entry, viewer, hidden), concealed))
        if entry.chosen_at is not None:
            item["chosen_at"] = entry.chosen_at
    if story is None or narrator is None:
        shown = [redact_event(e, viewer) for e in entry.events]
    else:
        shown = [narrated(e, viewer, narrator, story) for e in entry.events]
    item["events"] = [e for e in shown if not mentions(e, concealed)]
    if story is not None and narrator is not None:
        item["text"] = GM_ACTS if item["actor"] == "" and entry.kind != "undo" else narrator.headline(item, story)
    return item


def shown_action(entry: LogRecord, viewer: Viewer, hidden: bool) -> Json:
    """``entry``'s action as ``viewer`` may see it, redacted as its events are (``hidden``: :func:`sealed_to`):

    - a commit still face down to the viewer: :func:`commit_form`, never the payload;
    - a GM ruling with changes the viewer may not see (a private :class:`~affray.core.adjust.Ruled` event it is
      shown redacted): :func:`ruling_without` them;
    - anything else as it was taken.

    Depends only on what :func:`visibility` holds, so the table's shared parts stay keyed right."""
    if hidden:
        return commit_form([(e.seal, e.digest) for e in entry.events if isinstance(e, Committed)])
    if entry.kind != RULING:
        return entry.action
    unseen = [
        change
        for event in entry.events
        if isinstance(event, Ruled) and event.private and not shown_in_full(event, viewer)
        for change in event.changes
    ]
    return ruling_without(entry.action, unseen) if unseen else entry.action


def commit_form(seals: Iterable[tuple[str, str]]) -> JsonObject:
    """A face-down commit's action as a seat that may not open it reads it: ``{"type": "commit", "seals": [{seal,
    digest}]}`` (the hash chain's public form too, :mod:`affray.core.chain`)."""
    return {"type": "commit", "seals": [{"seal": seal, "digest": digest} for seal, digest in seals]}


def ruling_without(action: Mapping[str, Json], unseen: Sequence[Mapping[str, Json]]) -> JsonObject:
    """A GM ruling's action without the changes ``unseen`` (a private ``ruled`` event's, each the action's change
    with the value it replaced, ``was``: :func:`affray.core.adjust.apply_changes`), and ``unseen``: the combatants
    they were about, as the redacted event says (:meth:`~affray.core.adjust.Ruled.redacted`)."""
    withheld = [{key: value for key, value in change.items() if key != "was"} for change in unseen]
    changes = [c for c in as_list(action.get("changes", [])) if c not in withheld]
    return {
        "type": action.get("type"),
        "reason": action.get("reason", ""),
        "changes": changes,
        "unseen": list[Json](sorted({str(change.get("combatant")) for change in unseen})),
    }


def story_of(match: Match) -> Story:
    """The names a match is told with: the combatants' display names, each seat's (its combatants' names joined,
    where the seat is not named after one of them; the GM's seat as "The GM") and the content's (the narrator's
    :meth:`~affray.core.narration.Narrator.terms`)."""
    names = match.names()
    seats: dict[str, list[str]] = {}
    for actor, seat in match.seats.items():
        if actor != GM:
            seats.setdefault(seat, []).append(names.get(actor, actor))
    shown = {seat: " and ".join(who) for seat, who in seats.items() if seat not in names}
    story = match.narrator.story(match.setup_data, {**shown, GM: "The GM", **names})
    labels = {f"action:{t.type}": t.label for t in match.ruleset.action_types()}
    return Story(dict(story.items()), {**labels, **story.terms})
