"""Drawing WitchHammer states for a seat: the ruleset's :class:`~affray.core.plugin.Sampler` (the ``search``
policy's look-ahead, :mod:`affray.ai.search`).

What a seat may not see (``WitchHammerRuleset.secrets`` and ``gm_secrets``, the views' ``sight``): the cards another
combatant has face down (WH-02, WH-03) and its hand, which only the seat that plays it opens; and its deck (WH-04),
which only that seat and the GM's see. :func:`known` keeps everything else of the state and takes those out: a
face-down card keeps its seal and slot but loses its card, its salt and its digest; an unopened hand and an unseen deck
are emptied; and the card table keeps only the cards the seat may read (its view's ``cards``: those in force and those
of the decks it sees, the revealed ones and the default card, WH-B18). :func:`draw` puts them back, drawn:

- an **unseen deck** is drawn from the seat's own knowledge of cards (WH-04): the cards of the decks it sees, the
  cards in force and the cards revealed this vignette, one copy each, plus the copies of its own cards this
  combatant has revealed this vignette. (A seat knows no more of a foe's cards; the draw assumes it fights with
  cards like the ones the seat has seen.)
- an **unopened hand** is its deck less the cards revealed this vignette that went back to no deck (WH-B19);
- **face-down cards** in the Psych or Planning phase are taken back into the hand, and their owner is put back in
  the open window: the continuation lets it choose again with the playout policy, as it chose without seeing the
  seat's own cards (WH-03: everyone places at once). In any other phase a face-down card is drawn at random from
  the hand (an Action card), or is the default card when the hand has none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from affray.core.engine import GM
from affray.core.plugin import Drawn, Frozen, Sampler
from affray.core.policy import Observation
from affray.core.rng import RNG
from affray.core.sealed import Sealed
from affray.rulesets.witchhammer.observe import WitchHammerObservation
from affray.rulesets.witchhammer.planning import opened
from affray.rulesets.witchhammer.setup import fresh
from affray.rulesets.witchhammer.state import CardDef, Fighter, WitchHammerState

#: The phases in which every combatant places its face-down cards at once (WH-02, WH-03).
CHOOSING = ("psych", "planning")


@dataclass(frozen=True, slots=True)
class WitchHammerKnown:
    """What one seat knows of a WitchHammer match (see the module docstring): ``redacted``, the state with what the
    seat may not see taken out; ``closed``, the combatants whose hand and face-down cards it may not open;
    ``unseen``, those whose deck it may not see; ``pool``, the cards it may read, which an unseen deck is drawn
    from."""

    redacted: Frozen[WitchHammerState]
    closed: tuple[str, ...]
    unseen: tuple[str, ...]
    pool: tuple[str, ...]


def _hidden(s: Sealed) -> Sealed:
    """A face-down card as a seat that may not open it knows it: its seal and slot, not its card."""
    payload = s.payload
    return Sealed(s.actor, s.seal, {"card": None, "slot": payload["slot"], "vignette": payload["vignette"]}, b"", "")


def _revealed(f: Fighter) -> list[str]:
    """The cards ``f`` has revealed this vignette: its Psych card and the Action cards turned so far."""
    out = [f.psych_card] if f.psych_card else []
    return out + [s.payload["card"] for s in f.slots[:f.shown]]


def known(seen: Observation) -> WitchHammerKnown:
    """What the seat of ``seen`` knows (see the module docstring)."""
    if not isinstance(seen, WitchHammerObservation):
        raise TypeError(f"the WitchHammer sampler reads a WitchHammer observation, not {type(seen).__name__}")
    state, viewer = seen._state, seen._viewer  # the ruleset's own observation; what the seat may not see goes below
    readable = {state.options.default_card}
    fighters: dict[str, Fighter] = {}
    closed, unseen = [], []
    for a, f in state.fighters.items():
        opens = viewer.may_open(a)
        sees = opens or viewer.omniscient
        g = fresh(f)
        if f.card is not None:
            readable.add(f.card.id)
        readable.update(_revealed(f))
        if sees:
            readable.update(f.deck)
        else:
            g.deck = {}
            unseen.append(a)
        if not opens:
            closed.append(a)
            g.hand = {}
            if f.psych is not None and not f.psych_card:
                g.psych = _hidden(f.psych)
            g.slots = [*f.slots[:f.shown], *(_hidden(s) for s in f.slots[f.shown:])]
        fighters[a] = g
    cards = {c: state.cards[c] for c in sorted(readable)}
    redacted = WitchHammerState(
        state.options, state.grid, cards, state.statuses, fighters, state.vignette, state.round, state.phase,
        state.window, list(state.order), dict(state.initiative), dict(state.targets), list(state.pending_fates),
        state.outcome, state.board, state.winner, state.end_reason)
    shared = (state.options, state.grid, cards, state.statuses, *cards.values(), *state.statuses.values())
    return WitchHammerKnown(Frozen(redacted, shared), tuple(closed), tuple(unseen), tuple(cards))


def _prior(knowledge: WitchHammerKnown, f: Fighter) -> dict[str, int]:
    """An unseen deck: one copy of each card the seat may read, and at least the copies ``f`` revealed."""
    deck = dict.fromkeys(knowledge.pool, 1)
    for card, count in Counter(_revealed(f)).items():
        deck[card] = max(deck.get(card, 0), count)
    return deck


def _hand(cards: dict[str, CardDef], f: Fighter) -> dict[str, int]:
    """``f``'s hand with its face-down cards taken back: its deck less what it revealed this vignette (a one-shot
    revealed has left the deck already, WH-B19)."""
    gone = Counter(c for c in _revealed(f) if not cards[c].one_shot)
    return {c: max(0, n - gone[c]) for c, n in f.deck.items()}


def _take_back(state: WitchHammerState, f: Fighter) -> bool:
    """Put ``f``'s face-down cards of the phase now open back into its hand; whether it chooses again."""
    if not f.up:
        return False
    if state.phase == "psych":
        f.psych = None
        f.ready = False
        return any(n and state.cards[c].kind == "psych" for c, n in f.hand.items())
    f.slots = []  # nothing is turned in Planning
    f.ready = False
    return True


def _draw_slots(state: WitchHammerState, f: Fighter, rng: RNG) -> None:
    """Face-down Action cards outside the choosing phases: drawn at random from the hand, else the default card."""
    for i in range(f.shown, len(f.slots)):
        held = [c for c, n in f.hand.items() if n > 0 and state.cards[c].kind == "action"]
        card = held[rng.die(len(held)) - 1] if held else state.options.default_card
        if held:
            f.hand[card] -= 1
        old = f.slots[i]
        f.slots[i] = Sealed(old.actor, old.seal, {**old.payload, "card": card}, b"", "")
    if f.psych is not None and not f.psych_card:  # a Psych card still down once Psych is over: none was placed
        f.psych = None


def draw(knowledge: WitchHammerKnown, rng: RNG) -> Drawn:
    """A whole state consistent with ``knowledge`` (see the module docstring). Its ``setup``: the decks drawn."""
    state: WitchHammerState = knowledge.redacted.copy()
    decks = []
    for a in knowledge.unseen:
        f = state.fighters[a]
        f.deck = _prior(knowledge, f)
        decks.append((a, tuple(f.deck.items())))
    choosing = state.phase in CHOOSING and state.window is not None
    again: list[str] = []
    for a in knowledge.closed:
        f = state.fighters[a]
        f.hand = _hand(state.cards, f)
        if choosing:
            if _take_back(state, f):
                again.append(a)
        else:
            _draw_slots(state, f, rng)
    if again and state.window is not None:
        window = state.window
        waiting = set(window.actors) | set(again)
        actors = [a for a in state.fighters if a in waiting] + [GM] * (GM in window.actors)
        state.window = opened(state.phase, tuple(actors), state.vignette)
    return Drawn(state, tuple(decks))


SAMPLER = Sampler(known, draw)
