"""The in-world protocol: one short JSON answer for a script that parses little (a Second Life heads-up display,
integrations/secondlife/, docs/secondlife.md; the protocol: docs/table.md, "The in-world protocol").

Every answer is one JSON object of at most :data:`ANSWER_LIMIT` bytes of UTF-8 (the server cuts, never the script),
read field by field with ``llJsonGetValue``:

- ``v`` the version to act at; ``l`` and ``c`` the cursors of the story (the log's next record, the next chat line in
  the seat's own count) to send back; ``more`` 1 when story lines were held back for the next answer;
- ``t`` the hover text (at most :data:`HOVER_LIMIT` bytes: the character, its bars, the round and phase, whose move);
- ``n`` the name the seat's lines are said under; ``say`` the story's new public lines this display says in local
  chat (each public line is said by one display: its maker's, or the first in-world seat's for a line no in-world
  seat made); ``own`` what only this seat may read (said to the owner alone);
- ``ask`` the dialog's message (under :data:`MESSAGE_LIMIT` bytes) and ``ch`` its buttons, ``[id, label]`` or
  ``[id, label, "t"]`` for a choice that wants the owner's own words; at most 12, each label at most
  :data:`LABEL_LIMIT` bytes; an id starting ``@`` is a step or a page to read (``at=ID``), any other is acted on
  (``{"choice", "version", "id"}``);
- ``d`` for each die a choice of this step rolls (``{"attack": "2"}``), what a die's button takes; ``over`` the
  outcome's sentence once the fight is over; ``ff`` 1 in a free-form scene (a view whose ``mode`` is
  ``free_form``), where a die's button rolls a free roll.

The choices are the seat's legal actions (the same lists the page shows, per due actor), one choice each, paged by
ten with ``«`` and ``»`` choices when more than twelve; never dropped. Call under ``table.lock``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from affray.core.engine import SPECTATOR
from affray.core.json import Json, JsonObject
from affray.store import ChatLine
from affray.table.errors import CONFLICT, UNPROCESSABLE, Refusal
from affray.table.inworld_codes import played_inworld
from affray.table.messages import may_read, read_before, speaker
from affray.table.seats import SeatInfo
from affray.table.state import Table

ANSWER_LIMIT = 2048  # bytes of UTF-8: what Second Life hands a script of a reply by default
HOVER_LIMIT = 254  # llSetText
MESSAGE_LIMIT = 511  # llDialog's message is under 512 bytes
LABEL_LIMIT = 24  # llDialog's button
BUTTONS, PAGE = 12, 10  # llDialog's buttons; choices per page when paging (plus « and »)
LINE_LIMIT = 600  # bytes of one story line (local chat takes 1,023; two lines must fit an answer)
TEXT_LIMIT = 500  # characters of free text a choice takes (a chat line's)
FILL = "..."  # a free field's placeholder in a listed action
FREE_FORM = "free_form"  # a view's mode where dice are free rolls, not the fight's (the display's buttons)


@dataclass(slots=True)
class Choice:
    """A choice of a step: ``long`` its full label; an ``action`` for ``actor``, or ``children`` (a step);
    ``text``: the action's field the owner's own words fill."""

    long: str
    actor: str = ""
    action: JsonObject | None = None
    children: list[Choice] = field(default_factory=list)
    text: str | None = None


def tree(table: Table, seat: SeatInfo) -> list[Choice]:
    """The seat's choices now: its one due actor's legal actions, or one step per due actor."""
    names = table.match.names()
    steps = [
        Choice(f"{names.get(actor, actor)} to act", actor, children=[_choice(actor, spec) for spec in specs])
        for actor, specs in table.legal_for(seat).items()
        if specs
    ]
    return steps[0].children if len(steps) == 1 else steps


def _choice(actor: str, spec: JsonObject) -> Choice:
    action = spec.get("action")
    action = dict(action) if isinstance(action, dict) else {}
    free = spec.get("free")
    text = (
        next((f for f in free if isinstance(f, str) and action.get(f) == FILL), None)
        if isinstance(free, list)
        else None
    )
    return Choice(str(spec.get("label") or action.get("type") or "?"), actor, action, text=text)


def find(choices: list[Choice], path: str) -> Choice | None:
    """The choice a path of 1-based indexes names (``"2"``, ``"1.3"``)."""
    node: Choice | None = None
    for part in path.split("."):
        if not part.isdigit() or not 1 <= int(part) <= len(choices):
            return None
        node = choices[int(part) - 1]
        choices = node.children
    return node


def resolve(table: Table, seat: SeatInfo, choice: str, text: str | None) -> tuple[str, JsonObject]:
    """The actor and action a choice id names now; 422 ``bad_choice`` for none or a step, ``text_wanted`` for a
    choice that wants words and got none."""
    node = find(tree(table, seat), choice)
    if node is None or node.action is None:
        raise Refusal("bad_choice", f"There is no choice '{choice}' to take now; look again.", CONFLICT)
    action = dict(node.action)
    if node.text is not None:
        words = " ".join((text or "").split())
        if not words:
            raise Refusal("text_wanted", "This choice takes your own words; type them.", UNPROCESSABLE)
        action[node.text] = words[:TEXT_LIMIT]
    return node.actor, action


def answer(table: Table, seat: SeatInfo, log_since: int, chat_since: int, at: str = "") -> JsonObject:
    """The compact answer (see the module docstring) with the story from record ``log_since`` and the seat's chat
    line ``chat_since`` on, and the choices of the step and page ``at`` names (``PATH/PAGE``; ``""``: the first)."""
    match = table.match
    view = match.view_json(table.match_seat(seat))
    out: JsonObject = {
        "v": match.version,
        "t": cut(hover(table, seat, view), HOVER_LIMIT),
        "n": cut(speaker(table, seat.name), 64),
    }
    outcome = table.outcome()
    if outcome is not None:
        out["over"] = cut(str(outcome.get("reason") or outcome.get("winner") or "over"), 200)
    else:
        ask, buttons, dice = menu(table, seat, view, at)
        if buttons:
            out["ask"], out["ch"], out["d"] = ask, buttons, dice
    if view.get("mode") == FREE_FORM:
        out["ff"] = 1
    return _with_story(out, table, seat, log_since, chat_since)


def hover(table: Table, seat: SeatInfo, view: JsonObject) -> str:
    """The hover text: the seat's characters with their bars, the round and phase, and whose move it is."""
    lines = []
    for c in _combatants(view):
        if c.get("controlled") or c.get("id") in seat.actors:
            bars = " ".join(f"{b.get('name')} {b.get('value')}/{b.get('max')}" for b in _dicts(c.get("bars")))
            lines.append(f"{c.get('name', c.get('id'))}{' (down)' if c.get('down') else ''}\n{bars}".strip())
    phase = " ".join(str(view[k]) for k in ("round", "phase") if view.get(k) not in (None, ""))
    if phase:
        lines.append(f"round {phase}" if isinstance(view.get("round"), int) else phase)
    outcome = table.outcome()
    if outcome is not None:
        lines.append("the fight is over")
    elif table.paused:
        lines.append("paused by the GM")
    elif table.legal_for(seat):
        lines.append("your move")
    else:
        prompt = view.get("prompt")
        actors = prompt.get("actors") if isinstance(prompt, dict) else None
        names = match_names(table, actors if isinstance(actors, list) else [])
        lines.append(f"{names} to move" if names else "waiting")
    return "\n".join(lines)


def match_names(table: Table, actors: list[Json]) -> str:
    names = table.match.names()
    return ", ".join(names.get(a, a) for a in actors if isinstance(a, str))


def menu(table: Table, seat: SeatInfo, view: JsonObject, at: str) -> tuple[str, list[Json], JsonObject]:
    """The dialog of step and page ``at``: its message, its buttons and the dice its choices roll."""
    path, _, page_text = at.partition("/")
    root = tree(table, seat)
    choices = root if not path else (find(root, path) or Choice("")).children
    if not choices:
        path, choices = "", root
    pages = 1 if len(choices) <= BUTTONS else -(-len(choices) // PAGE)
    page = int(page_text) % pages if page_text.isdigit() else 0
    first = 0 if pages == 1 else page * PAGE
    shown = choices[first : first + (BUTTONS if pages == 1 else PAGE)]
    buttons: list[Json] = []
    lines = []
    prompt = view.get("prompt")
    head = prompt.get("text") if isinstance(prompt, dict) else None
    head = f"{head}" if isinstance(head, str) and head else "Your move"
    if pages > 1:
        head += f" (page {page + 1} of {pages})"
    for i, choice in enumerate(shown, first + 1):
        id_ = f"{path}.{i}" if path else str(i)
        label = cut(f"{i} {choice.long}", LABEL_LIMIT)
        button: list[Json] = [f"@{id_}" if choice.action is None else id_, label]
        if choice.text is not None:
            button.append("t")
        buttons.append(button)
        lines.append(f"{i}) {choice.long}")
    if pages > 1:
        buttons.insert(0, [f"@{path}/{(page - 1) % pages}", "«"])
        buttons.insert(1, [f"@{path}/{(page + 1) % pages}", "»"])
    dice: JsonObject = {}
    for i, choice in enumerate(choices, 1):
        die = (choice.action or {}).get("die")
        if isinstance(die, str) and die not in dice:
            dice[die] = f"{path}.{i}" if path else str(i)
    return cut("\n".join([head, *lines]), MESSAGE_LIMIT), buttons, dice


def _with_story(out: JsonObject, table: Table, seat: SeatInfo, log_since: int, chat_since: int) -> JsonObject:
    """``out`` with the story's new lines, as many as fit the answer's bytes, and the cursors past them."""
    match = table.match
    shared = table.shared
    records = match.records
    log_since = max(0, min(log_since, len(records)))
    mine = shared.log(match, log_since, table.match_seat(seat))
    public = shared.log(match, log_since, SPECTATOR)
    sayers = played_inworld(table)
    items: list[tuple[str, str, int, int]] = []  # (bucket, line, log cursor after, chat cursor after)
    for n, (entry, seen) in enumerate(zip(mine, public, strict=True), log_since + 1):
        text, open_text = _entry_text(entry), _entry_text(seen)
        maker = entry.get("seat") if isinstance(entry, dict) else None
        if text and text == open_text:
            if _sayer(maker, sayers) == seat.name:
                items.append(("say", text, n, chat_since))
        elif text:
            items.append(("own", text, n, chat_since))
    start = _chat_index(table, seat.name, chat_since)
    count = chat_since
    for line in table.chat[start:]:
        if not may_read(line, seat.name):
            continue
        count += 1
        text = _chat_text(table, line)
        if line.to is None and _sayer(line.seat, sayers) == seat.name:
            items.append(("say", text, len(records), count))
        elif line.to is not None:
            items.append(("own", text, len(records), count))
    out["l"], out["c"] = len(records), count
    if not items:
        return out
    out["l"], out["c"] = log_since, chat_since
    lists: dict[str, list[Json]] = {"say": [], "own": []}
    out["say"], out["own"] = lists["say"], lists["own"]
    for bucket, text, log_after, chat_after in items:
        lists[bucket].append(cut(text, LINE_LIMIT))
        if size(out) > ANSWER_LIMIT:
            lists[bucket].pop()
            out["more"] = 1
            break
        out["l"], out["c"] = log_after, chat_after
    else:
        out["l"], out["c"] = len(records), count
    for bucket in ("say", "own"):
        if not lists[bucket]:
            del out[bucket]
    while size(out) > ANSWER_LIMIT and isinstance(out.get("ask"), str):  # never: a page is ~1.2 KB at most
        out["ask"] = cut(str(out["ask"]), len(str(out["ask"]).encode()) // 2)
    return out


def _sayer(maker: object, sayers: list[str]) -> str | None:
    """Which in-world seat says a public line: its maker's, or the first in-world seat for a line another made."""
    if isinstance(maker, str) and maker in sayers:
        return maker
    return sayers[0] if sayers else None


def _entry_text(entry: Json) -> str:
    if not isinstance(entry, dict):
        return ""
    texts = [e.get("text") for e in _dicts(entry.get("events"))]
    said = " ".join(t for t in texts if isinstance(t, str) and t)
    own = entry.get("text")
    return said or (own if isinstance(own, str) else "")


def _chat_text(table: Table, line: ChatLine) -> str:
    who = speaker(table, line.seat)
    to = f" (to {speaker(table, line.to)})" if line.to is not None else ""
    roll = line.body.get("roll")
    if isinstance(roll, dict):
        dice = " ".join(str(d.get("value")) for d in _dicts(roll.get("dice")))
        return f"{who}{to} rolls {roll.get('notation')}: [{dice}] = {roll.get('total')}"
    return f"{who}{to}: {line.body.get('text', '')}"


def _chat_index(table: Table, seat: str, count: int) -> int:
    """The table's line index from which ``seat`` has read ``count`` lines (its own count: no whisper shows)."""
    low, high = 0, len(table.chat)
    while low < high:  # read_before grows with the index: the first index where it reaches ``count``
        mid = (low + high) // 2
        if read_before(table, seat, mid) < count:
            low = mid + 1
        else:
            high = mid
    return low


def _combatants(view: JsonObject) -> list[JsonObject]:
    return _dicts(view.get("combatants"))


def _dicts(value: Json) -> list[JsonObject]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` bytes of UTF-8, cut at a character's edge (an ellipsis marks a cut)."""
    data = text.encode()
    if len(data) <= limit:
        return text
    return data[: limit - 3].decode(errors="ignore") + "..."


def size(out: JsonObject) -> int:
    """The answer's bytes as the web layer writes it (compact UTF-8 JSON)."""
    return len(json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode())
