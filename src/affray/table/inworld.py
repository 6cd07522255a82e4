"""The in-world protocol: one short JSON answer for a script that parses little (a Second Life heads-up display,
integrations/secondlife/, docs/secondlife.md; the protocol: docs/table.md, "The in-world protocol").

Every answer is one JSON object of at most :data:`ANSWER_LIMIT` bytes of UTF-8 (the server cuts, never the script),
read field by field with ``llJsonGetValue``:

- ``v`` the version to act at; ``l`` and ``c`` the cursors of the story (the log's next record, the next chat line in
  the seat's own count) to send back; ``more`` 1 when story lines were held back for the next answer; ``from`` the
  cursors the answer's lines start at, when it has any (a display whose cursors moved on since, by another answer,
  says none of them: no line is said twice);
- ``t`` the hover text (at most :data:`HOVER_LIMIT` bytes: the character, its bars, the round and phase, whose move);
- ``n`` the name the seat's lines are said under; ``say`` the story's new public lines this display says in local
  chat (each public line is said by one display: its maker's, or the first in-world seat's for a line no in-world
  seat made); ``own`` what only this seat may read (said to the owner alone);
- ``ask`` the dialog's message (under :data:`MESSAGE_LIMIT` bytes) and ``ch`` its buttons, ``[id, label]`` or
  ``[id, label, "t"]`` for a choice that wants the owner's own words; at most 12, each label at most
  :data:`LABEL_LIMIT` bytes; an id starting ``@`` is a step or a page to read (``at=ID``), any other is acted on
  (``{"choice", "version", "id"}``);
- ``d`` for each die a choice of the tree rolls, its first such choice (``{"attack": "2.1"}``): what a die's button
  takes; ``over`` the
  outcome's sentence once the fight is over; ``ff`` 1 in a free-form scene (a view whose ``mode`` is
  ``free_form``), where a die's button rolls a free roll, and there ``fd`` what each button rolls, in ``affray roll``
  notation with the character's modifier (``{"attack": "1d13+1"}``, the ruleset's
  :attr:`~affray.core.plugin.Plugin.buttons`; none when the ruleset names none).

The choices are the seat's step trees (:mod:`affray.core.steps`, the ``steps`` the page reads: one due actor's tree,
or a step asking which actor acts), a step at a time, with a ``« Back`` button in a step below the root; a step of
more than twelve is paged by ten with ``«`` and ``»`` (the trees page themselves with ``More…``): no choice is ever
dropped. Labels two buttons would share are numbered. Call under ``table.lock``.
"""

from __future__ import annotations

import json

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
NAME_LIMIT = 63  # an object's name (the display speaks under the character's)
BUTTONS, PAGE = 12, 10  # llDialog's buttons; choices per page when paging (plus « and »)
LINE_LIMIT = 600  # bytes of one story line (local chat takes 1,023; two lines must fit an answer)
TEXT_LIMIT = 500  # characters of free text a choice takes (a chat line's)
FILL = "..."  # a free field's placeholder in a listed action
BACK = "« Back"  # the button back to the step above
NOTATION_LIMIT = 40  # bytes of a die button's name or of the free roll it makes (``1d13+2``)
FREE_FORM = "free_form"  # a view's mode where dice are free rolls, not the fight's (the display's buttons)


def root(table: Table, seat: SeatInfo) -> tuple[JsonObject, list[str]]:
    """The seat's choices now as one step tree's JSON (:func:`affray.core.steps.steps_for`, the trees the page
    reads), and the due actors in its order: one due actor's own tree, or a step that asks which actor acts first."""
    trees = table.shared.steps(table, seat)
    actors = [a for a, t in trees.items() if isinstance(t, dict)]
    if len(actors) == 1:
        only = trees[actors[0]]
        return (only if isinstance(only, dict) else {}), actors
    names = table.match.names()
    choices: list[Json] = [
        {"id": str(i), "short": cut(names.get(a, a), LABEL_LIMIT), "long": f"{names.get(a, a)} acts", "step": trees[a]}
        for i, a in enumerate(actors, 1)
    ]
    return {"prompt": "Who acts?", "choices": choices}, actors


def find(step: JsonObject, path: str) -> JsonObject | None:
    """The choice a full id names (``"2.1"``: ids of each step on the way), or None."""
    here: JsonObject | None = None
    for part in path.split("."):
        here = next((c for c in _dicts(step.get("choices")) if c.get("id") == part), None)
        if here is None:
            return None
        inner = here.get("step")
        step = inner if isinstance(inner, dict) else {}
    return here


def wants_text(action: Json) -> bool:
    """Whether a listed action takes the owner's own words: a field holding the placeholder ``...`` (a post's text,
    or deeper, a planned complex activity's)."""
    if isinstance(action, dict):
        return any(wants_text(v) for v in action.values())
    if isinstance(action, list):
        return any(wants_text(v) for v in action)
    return action == FILL


def filled(action: Json, words: str) -> Json:
    """``action`` with every placeholder ``...`` replaced by ``words``."""
    if isinstance(action, dict):
        return {k: filled(v, words) for k, v in action.items()}
    if isinstance(action, list):
        return [filled(v, words) for v in action]
    return words if action == FILL else action


def resolve(table: Table, seat: SeatInfo, choice: str, text: str | None) -> tuple[str, JsonObject]:
    """The actor and action a choice's full id names now; 409 ``bad_choice`` for none or a step, 422
    ``text_wanted`` for a choice that wants words and got none."""
    tree, actors = root(table, seat)
    node = find(tree, choice)
    action = node.get("action") if node is not None else None
    if not isinstance(action, dict) or not actors:
        raise Refusal("bad_choice", f"There is no choice '{choice}' to take now; look again.", CONFLICT)
    actor = actors[0] if len(actors) == 1 else actors[int(choice.split(".")[0]) - 1]
    if not wants_text(action):
        return actor, dict(action)
    words = " ".join((text or "").split())[:TEXT_LIMIT]
    if not words:
        raise Refusal("text_wanted", "This choice takes your own words; type them.", UNPROCESSABLE)
    done = filled(action, words)
    return actor, done if isinstance(done, dict) else {}


def answer(table: Table, seat: SeatInfo, log_since: int, chat_since: int, at: str = "") -> JsonObject:
    """The compact answer (see the module docstring) with the story from record ``log_since`` and the seat's chat
    line ``chat_since`` on, and the choices of the step and page ``at`` names (``PATH/PAGE``; ``""``: the first)."""
    match = table.match
    view = table.shared.view(match, table.match_seat(seat))  # kept, as the messages' views are
    out: JsonObject = {
        "v": match.version,
        "t": cut(hover(table, seat, view), HOVER_LIMIT),
        "n": cut(speaker(table, seat.name), NAME_LIMIT),
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
        dice = free_rolls(table, seat)
        if dice:
            out["fd"] = dice
    return _with_story(out, table, seat, log_since, chat_since)


def free_rolls(table: Table, seat: SeatInfo) -> JsonObject:
    """What each die button rolls as a free roll for the seat's first character the ruleset names dice for
    (:attr:`~affray.core.plugin.Plugin.buttons`, from the seat's own view): ``{"attack": "1d13+1", ...}``, at most
    :data:`BUTTONS` of them, each name and notation cut to :data:`NOTATION_LIMIT` bytes (an answer stays within
    its 2,048); ``{}`` when the ruleset names none."""
    loader = table.match.plugin.buttons
    if loader is None or not seat.actors:
        return {}
    dice_of_buttons = loader()
    view = table.match.view(table.match_seat(seat))
    for actor in seat.actors:
        dice = dice_of_buttons(view, actor)
        if dice:
            return {cut(name, NOTATION_LIMIT): cut(roll, NOTATION_LIMIT) for name, roll in list(dice.items())[:BUTTONS]}
    return {}


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
    elif table.shared.steps(table, seat):  # kept per seat and version, as the page's are
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
    """The dialog of step and page ``at`` (``PATH/PAGE``): its message, its buttons and the dice the tree's
    choices roll (each die's first choice, at any depth)."""
    path, _, page_text = at.partition("/")
    tree, _ = root(table, seat)
    step = tree
    if path:
        node = find(tree, path)
        inner = node.get("step") if node is not None else None
        step, path = (inner, path) if isinstance(inner, dict) else (tree, "")
    choices = _dicts(step.get("choices"))
    if not choices:
        return "", [], {}
    pages = 1 if len(choices) <= BUTTONS else -(-len(choices) // PAGE)
    page = int(page_text) % pages if page_text.isdigit() else 0
    shown = choices if pages == 1 else choices[page * PAGE : page * PAGE + PAGE]
    prompt = step.get("prompt")
    head = prompt if isinstance(prompt, str) and prompt else "Your move"
    if pages > 1:
        head += f" (page {page + 1} of {pages})"
    buttons: list[Json] = []
    lines = []
    for choice in shown:
        full = f"{path}.{choice.get('id')}" if path else str(choice.get("id"))
        short, long = str(choice.get("short") or full), str(choice.get("long") or "")
        button: list[Json] = [full if "action" in choice else f"@{full}", cut(short, LABEL_LIMIT)]
        if wants_text(choice.get("action")):
            button.append("t")
        buttons.append(button)
        if long and long != short:
            lines.append(f"{short}: {long}")
    _tell_apart(buttons)
    if pages > 1:
        buttons[:0] = [[f"@{path}/{(page - 1) % pages}", "«"], [f"@{path}/{(page + 1) % pages}", "»"]]
    if path and len(buttons) < BUTTONS:
        parent = path.rpartition(".")[0]
        buttons.append([f"@{parent}", BACK])
    return cut("\n".join([head, *lines]), MESSAGE_LIMIT), buttons, dice_of(tree)


def _tell_apart(buttons: list[Json]) -> None:
    """Number the labels two buttons would share (a dialog answers with the label: it must name one choice), and
    any that reads as a page or back button."""
    taken: set[str] = {"«", "»", BACK}
    for button in buttons:
        assert isinstance(button, list)
        label, n = str(button[1]), 1
        while label in taken:
            n += 1
            tail = f" {n}"
            label = cut(str(button[1]), LABEL_LIMIT - len(tail)) + tail
        button[1] = label
        taken.add(label)


def dice_of(tree: JsonObject, prefix: str = "") -> JsonObject:
    """For each die a leaf's action rolls (its ``die`` field), the full id of the first such leaf."""
    dice: JsonObject = {}
    for choice in _dicts(tree.get("choices")):
        full = f"{prefix}.{choice.get('id')}" if prefix else str(choice.get("id"))
        action, inner = choice.get("action"), choice.get("step")
        die = action.get("die") if isinstance(action, dict) else None
        if isinstance(die, str):
            dice.setdefault(die, full)
        elif isinstance(inner, dict):
            for name, at in dice_of(inner, full).items():
                dice.setdefault(name, at)
    return dice


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
    out["from"] = [log_since, chat_since]  # the cursors these lines start at: a display says them only from its own
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
