"""The Psych and Planning phases: cards placed face down as sealed commits, all combatants at once.

Actions (JSON): ``{"type": "psych", "card": id}`` plays a Psych card face down (at most one, optional);
``{"type": "place", "card": id}`` puts an Action card face down in the next slot (slot 1, then slot 2);
``{"type": "ready"}`` locks in (empty slots get the default card); ``{"type": "commit", "cards": [...]}`` is the
same as placing each card and then ``ready``; ``{"type": "timeout"}`` is the GM's when the Drama Timer runs out.
Each placed card becomes a ``Committed`` event (seal and digest); its name is revealed only in Violence.
``{"type": "withdraw", "slot": N}`` (option ``planning_withdraw``) takes back the last card placed, still face
down, before being ready: a ``Withdrawn`` event names the seal only, that seal is never opened, and a card placed
again in the slot gets a seal of its own (``v3.bruna.slot2.r1``). It is never in the legal list (no policy picks
it); others' placements since stand. Rules: WH-02, WH-03, WH-B18, WH-B20; DESIGN.md contracts 2 and 6.
"""

from __future__ import annotations

from functools import lru_cache, partial

from affray.core.engine import GM, Action, ActionSpec, Rejected, Window
from affray.core.events import Committed
from affray.core.fields import text, texts
from affray.core.journal import Journal
from affray.core.json import Json
from affray.core.memo import Memo
from affray.core.rng import RNG
from affray.core.sealed import Sealed
from affray.rulesets.witchhammer.actions import SLOTS
from affray.rulesets.witchhammer.events import Ready, TimedOut, Withdrawn
from affray.rulesets.witchhammer.state import ARRIVING, Fighter, WitchHammerState


def new_hands(state: WitchHammerState) -> None:
    """At a vignette's start every card not spent comes back to the hand (WH-04, WH-B19), and a combatant the GM
    added arrives (join.py)."""
    for f in state.fighters.values():
        if f.out == ARRIVING:
            f.out = ""
        f.hand = dict(f.deck)
        f.psych, f.slots, f.ready = None, [], False


def open_psych(state: WitchHammerState) -> bool:
    """Open the Psych phase for everyone holding a Psych card; False if nobody does (WH-02)."""
    cards = state.cards
    actors = []
    for f in state.fighters.values():
        if not f.out:  # able to act (Fighter.up)
            for c, n in f.hand.items():
                if n and cards[c].kind == "psych":
                    actors.append(f.id)
                    break
    if not actors:
        return False
    state.phase = "psych"
    # Everyone plays at once (simultaneous): a choice made at an earlier version of this vignette's Psych stands.
    state.window = opened("psych", tuple(actors), state.vignette)
    return True


def open_planning(state: WitchHammerState) -> None:
    """Open the Planning phase: every combatant able to act places two cards (WH-03); the GM may call time."""
    actors = []
    for f in state.fighters.values():
        up = not f.out  # Fighter.up
        f.ready = not up
        if up:
            actors.append(f.id)
    if state.options.drama_timer:
        actors.append(GM)
    state.phase = "planning"
    state.window = opened("planning", tuple(actors), state.vignette)


PROMPTS = {
    "psych": "Play a Psych card face down, or none, then be ready",
    "planning": "Place two Action cards face down, in order, then be ready",
}


@lru_cache(maxsize=1024)
def opened(phase: str, actors: tuple[str, ...], vignette: int) -> Window:
    """The window of ``phase`` (psych or planning) opened for ``actors`` in ``vignette``, everyone at once: named for
    this opening (``v3.planning``). A pure function of immutable values, memoised (bounded): the same few windows
    open fight after fight, and a window is an immutable value to share."""
    return Window(phase, actors, PROMPTS[phase], f"v{vignette}.{phase}")


def _narrow(state: WitchHammerState, actor: str) -> None:
    """``actor`` is done with this phase: it leaves the window."""
    assert state.window is not None
    state.window = state.window.without(actor)


def everyone_ready(state: WitchHammerState) -> bool:
    """Whether only the GM (who calls time, WH-B20) is left in the open window: every combatant is ready."""
    window = state.window
    return window is not None and window.actors.count(GM) == len(window.actors)


def placed(action: Action) -> list[str]:
    """The cards a psych/place/ready/commit action places, for an action taken from the legal list (a trusted
    journal): what :func:`check` returns for it without judging it."""
    kind = action["type"]
    if kind == "commit":
        cards = action["cards"]
        if type(cards) is list:
            for c in cards:  # a plain loop: every decision asks
                if type(c) is not str:
                    break
            else:
                return cards  # type: ignore[return-value]  # the action's own list of ids: read, never changed
        return texts(action, "cards")  # not a list of strings: the field's own error
    return [] if kind in ("ready", "withdraw") else [text(action, "card")]


def check(state: WitchHammerState, f: Fighter, action: Action) -> Rejected | list[str]:
    """Validate a psych/place/ready/commit action completely; return the cards to place."""
    kind = action["type"]
    if kind == "ready":
        return []
    if kind == "withdraw":
        refused = check_withdraw(state, f, action)
        return [] if refused is None else refused
    if kind in ("psych", "place"):
        cards: list[Json] = [action.get("card")]
    elif kind == "commit":
        given = action.get("cards", [])
        if not isinstance(given, list):
            return Rejected("bad_action", 'A commit lists its cards in order: {"type": "commit", "cards": [...]}.')
        cards = given
    else:
        return Rejected(
            "bad_action", f"'{kind}' is not a WitchHammer action; use psych, place, ready, commit or withdraw."
        )
    psych = state.phase == "psych"
    if (kind == "place" and psych) or (kind == "psych" and not psych):
        if kind == "place":
            return Rejected(
                "planning_closed",
                "Action cards are placed in the Planning phase, which is not open "
                "now: the cards were revealed, and this is the Psych phase.",
            )
        return Rejected("psych_closed", "The Psych phase is over; Psych cards were already revealed.")
    room = (0 if f.psych is not None else 1) if psych else SLOTS - len(f.slots)
    if len(cards) > room:
        if psych:
            return Rejected(
                "psych_already_played", f"{f.name} has already played a Psych card this vignette (at most one)."
            )
        return Rejected("slots_full", f"{f.name} already has two Action cards down; a third cannot be played.")
    wanted: dict[str, int] = {}
    chosen: list[str] = []
    for card_id in cards:
        if not isinstance(card_id, str) or f.hand.get(card_id, 0) <= wanted.get(card_id, 0):
            return Rejected("card_not_in_hand", f"{f.name} has no '{card_id}' card to play now.")
        wanted[card_id] = wanted.get(card_id, 0) + 1
        chosen.append(card_id)
        card = state.cards[card_id]
        if card.kind != ("psych" if psych else "action"):
            what = "a Psych card" if psych else "an Action card"
            return Rejected("wrong_card_kind", f"{card.name} is not {what}.")
    return chosen


def apply(state: WitchHammerState, f: Fighter, action: Action, cards: list[str], rng: RNG, journal: Journal) -> None:
    """Place ``cards`` face down and, for ready/commit, lock in (WH-02, WH-03, WH-B18); or, for withdraw, take
    back the last card placed (WH-03)."""
    if action["type"] == "withdraw":
        withdraw(state, f, journal)
        return
    psych, hand = state.phase == "psych", f.hand
    for card_id in cards:
        _commit(state, f, card_id, 0 if psych else len(f.slots) + 1, rng, journal)
        hand[card_id] -= 1
    if action["type"] in ("ready", "commit"):
        lock_in(state, f, len(cards), rng, journal)


def _commit(state: WitchHammerState, f: Fighter, card_id: str, slot: int, rng: RNG, journal: Journal) -> None:
    """``card_id`` face down in ``slot`` (0: the Psych card) as a sealed commit; a quiet journal keeps it unsalted
    and undigested (no die moves either way). Rules: WH-02, WH-03; DESIGN.md contract 6."""
    seal = seal_name(state.vignette, f.id, slot)
    again = state.withdrawn.get(seal) if state.withdrawn else None
    if again:
        seal = f"{seal}.r{again}"  # placed again after a withdrawal: a seal of its own
    payload = {"card": card_id, "slot": slot, "vignette": state.vignette}
    sealed = Sealed.commit(f.id, seal, payload, rng, loud=journal.loud)
    if slot == 0:
        f.psych = sealed
    else:
        f.slots.append(sealed)
    if journal.loud:
        journal.append(Committed(f.id, seal, sealed.digest))


@lru_cache(maxsize=4096)
def seal_name(vignette: int, actor: str, slot: int) -> str:
    """A face-down card's seal name: ``v3.bruna.slot1``, ``v3.bruna.psych`` (slot 0). A pure function of three small
    values, kept (bounded): every card placed asks, and the same few come back fight after fight."""
    return f"v{vignette}.{actor}.{'psych' if slot == 0 else f'slot{slot}'}"


def check_withdraw(state: WitchHammerState, f: Fighter, action: Action) -> Rejected | None:
    """Whether ``f`` may take back the card in ``action``'s slot: the option is on, this is the Planning phase and
    the slot is the last one filled, its card still face down (``f`` is not ready: a ready combatant has left the
    window). Rules: WH-03; option ``planning_withdraw``."""
    if not state.options.planning_withdraw:
        return Rejected("withdraw_off", "Taking back a face-down card is off in this match (planning_withdraw).")
    if state.phase != "planning":
        return Rejected(
            "planning_closed", "A card can be taken back only in the Planning phase, before the cards are revealed."
        )
    slot = action.get("slot")
    if type(slot) is not int:
        return Rejected("bad_action", 'Name the slot to take back: {"type": "withdraw", "slot": 1 or 2}.')
    if not f.slots:
        return Rejected("nothing_to_withdraw", f"{f.name} has no card face down to take back.")
    if slot != len(f.slots):
        return Rejected(
            "not_last_slot",
            f"Only the last card placed can be taken back: {f.name}'s is in slot {len(f.slots)}, not slot {slot}.",
        )
    return None


def withdraw(state: WitchHammerState, f: Fighter, journal: Journal) -> None:
    """Take back ``f``'s last card still face down: the hand gets it back, the ``Withdrawn`` event names the seal
    only, and a card placed again in that slot gets a seal of its own. Rules: WH-03; DESIGN.md contract 6."""
    sealed = f.slots.pop()
    f.hand[sealed.payload["card"]] += 1
    first = seal_name(state.vignette, f.id, len(f.slots) + 1)
    state.withdrawn[first] = state.withdrawn.get(first, 0) + 1
    if journal.loud:
        journal.append(Withdrawn(f.id, sealed.seal))


def lock_in(state: WitchHammerState, f: Fighter, placed: int, rng: RNG, journal: Journal) -> None:
    """``f`` is done with this phase; empty action slots get the default card, face down too (WH-B18)."""
    if state.phase == "planning":
        while len(f.slots) < SLOTS:
            _commit(state, f, state.options.default_card, len(f.slots) + 1, rng, journal)
    f.ready = True
    if journal.loud:
        journal.append(Ready(f.id, state.phase, placed))
    _narrow(state, f.id)


def timeout(state: WitchHammerState, rng: RNG, journal: Journal) -> Rejected | None:
    """The Drama Timer ran out: everyone still planning locks in as they are (WH-B20)."""
    if not state.options.drama_timer:
        return Rejected("no_timer", "The Drama Timer is off in this match.")
    if state.phase != "planning":
        return Rejected("planning_closed", "Time can only be called in the Planning phase.")
    late = [f for f in state.fighters.values() if f.up and not f.ready]
    journal.append(TimedOut([f.id for f in late]))
    for f in late:
        lock_in(state, f, len(f.slots), rng, journal)
    return None


def legal(state: WitchHammerState, actor: str, memo: Memo) -> list[ActionSpec]:
    """The actions ``actor`` may take in the open phase (a fresh list; its entries are shared and read-only). A
    list depends only on the phase, the room left and the hand, which repeat within a match, so each is built once
    per match (``memo.static``), from action specs each built once per match too."""
    if actor == GM:
        return [TIMEOUT]
    f = state.fighters[actor]
    psych = state.phase == "psych"
    room = (0 if f.psych is not None else 1) if psych else SLOTS - len(f.slots)
    want = "psych" if psych else "action"
    cards = state.cards
    hand = tuple(sorted([(c, n) for c, n in f.hand.items() if n > 0 and cards[c].kind == want]))
    return list(memo.static(("wh.legal", psych, room, hand), partial(_enumerate, state, memo, hand, room, psych)))


FREE = ("cards",)  # a commit's cards are a free parameter (actions.py): any cards of the hand, in order
TIMEOUT = ActionSpec({"type": "timeout"}, "call time: the Drama Timer ran out")
READY = {
    True: ActionSpec({"type": "ready"}, "ready"),
    False: ActionSpec({"type": "ready"}, "ready (empty slots: default card)"),
}


def _singles(state: WitchHammerState, card: str, psych: bool) -> tuple[ActionSpec, ActionSpec]:
    name = state.cards[card].name
    if psych:
        return (
            ActionSpec({"type": "psych", "card": card}, f"play {name} face down"),
            ActionSpec({"type": "commit", "cards": [card]}, f"{name}, then ready", free=FREE),
        )
    return (
        ActionSpec({"type": "place", "card": card}, f"place {name} face down"),
        ActionSpec({"type": "commit", "cards": [card]}, f"{name}, then ready", free=FREE),
    )


def _pair(state: WitchHammerState, a: str, b: str) -> ActionSpec:
    return ActionSpec(
        {"type": "commit", "cards": [a, b]}, f"{state.cards[a].name}, then {state.cards[b].name}", free=FREE
    )


def _enumerate(
    state: WitchHammerState, memo: Memo, hand: tuple[tuple[str, int], ...], room: int, psych: bool
) -> list[ActionSpec]:
    """Ready; then each card alone (placed, or committed); then, with two slots free, every ordered pair of cards
    (a card twice only when two copies are in hand). Rules: WH-02, WH-03, WH-B18."""
    specs = [READY[psych or not room]]
    if room == 0:
        return specs
    singles = [memo.static(("wh.single", c, psych), partial(_singles, state, c, psych)) for c, _ in hand]
    specs += [one for one, _ in singles]
    specs += [commit for _, commit in singles]
    if room >= 2:
        counts = dict(hand)
        for a, _ in hand:
            for b, _ in hand:
                if a != b or counts[a] >= 2:
                    specs.append(memo.static(("wh.pair", a, b), partial(_pair, state, a, b)))
    return specs
