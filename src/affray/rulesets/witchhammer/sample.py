"""Drawing WitchHammer states for a seat: the ruleset's :class:`~affray.core.plugin.Sampler` (the ``search``
policy's look-ahead, :mod:`affray.ai.search`).

What a seat may not see (``WitchHammerRuleset.secrets`` and ``gm_secrets``, the views' ``sight``): the cards another
combatant has face down (WH-02, WH-03) and its hand, which only the seat that plays it opens; and its deck (WH-04),
which only that seat and the GM's see. :func:`known` keeps everything else of the state and takes those out: a
face-down card keeps its seal and slot but loses its card, its salt and its digest; an unopened hand and an unseen deck
are emptied; and the card table keeps only the cards the seat may read (its view's ``cards``: those in force and those
of the decks it sees, the revealed ones and the default card, WH-B18). :func:`draw` puts them back, drawn:

- an **unseen deck** is the deck of a character or monster of the ruleset's own content (the public stat blocks,
  WH-03, WH-04, and under option ``general_school_deck: all`` a PC's General cards, WH-A5) whose stat line is the one
  everyone sees of it (kind, size, maximum Poise and Health, Attack, Defense, Init, Solid Hit damage, aspect
  Defenses), drawn among them when several fit; with the cards it revealed this vignette. A combatant no stat block
  fits (its own sheet file) is taken to fight with cards like the ones the seat may read: those of the decks it
  sees, those in force and those revealed, one copy each.
- an **unopened hand** is its deck less the cards revealed this vignette that went back to no deck (WH-B19);
- **face-down cards** in the Psych or Planning phase are taken back into the hand, and their owner is put back in
  the open window: the continuation lets it choose again with the playout policy, as it chose without seeing the
  seat's own cards (WH-03: everyone places at once). In any other phase a face-down card is drawn at random from
  the hand (an Action card), or is the default card when the hand has none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from affray.core.engine import GM
from affray.core.plugin import Drawn, Frozen, Sampler
from affray.core.policy import Observation
from affray.core.rng import RNG
from affray.core.sealed import Sealed
from affray.rulesets.witchhammer.content_model import WitchHammerCombatant
from affray.rulesets.witchhammer.observe import WitchHammerObservation
from affray.rulesets.witchhammer.options import WitchHammerOptions
from affray.rulesets.witchhammer.planning import opened
from affray.rulesets.witchhammer.ruleset import builtin_content
from affray.rulesets.witchhammer.setup import GENERAL, CombatantSetup, _card, _combatant, fresh
from affray.rulesets.witchhammer.state import CardDef, Fighter, WitchHammerState

#: What everyone sees of a combatant's sheet (its view's stats and bars): kind, size, maximum Poise and Health,
#: Attack, Defense, Init, Solid Hit damage and aspect Defenses.
Line = tuple[str, int, int, int, int, int, int, int, tuple[tuple[str, int], ...]]

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
    return out + [s.payload["card"] for s in f.slots[: f.shown]]


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
            g.slots = [*f.slots[: f.shown], *(_hidden(s) for s in f.slots[f.shown :])]
        fighters[a] = g
    cards = {c: state.cards[c] for c in sorted(readable)}
    redacted = WitchHammerState(
        state.options,
        state.grid,
        cards,
        state.statuses,
        fighters,
        state.vignette,
        state.round,
        state.phase,
        state.window,
        list(state.order),
        dict(state.initiative),
        dict(state.targets),
        list(state.pending_fates),
        state.outcome,
        state.board,
        state.winner,
        state.end_reason,
    )
    shared = (state.options, state.grid, cards, state.statuses, *cards.values(), *state.statuses.values())
    return WitchHammerKnown(Frozen(redacted, shared), tuple(closed), tuple(unseen), tuple(cards))


def _line(f: Fighter) -> Line:
    return (
        f.kind,
        f.size,
        f.max_poise,
        f.max_health,
        f.attack,
        f.defense,
        f.init,
        f.solid_damage,
        tuple(sorted(f.defenses.items())),
    )


def _block_line(c: CombatantSetup) -> Line:
    return (
        c["kind"],
        c["size"],
        c["poise"],
        c["health"],
        c["attack"],
        c["defense"],
        c["init"],
        c["solid_damage"],
        tuple(sorted(c["defenses"].items())),
    )


@lru_cache(maxsize=1)
def _stat_blocks() -> tuple[tuple[Line, tuple[tuple[str, int], ...]], ...]:
    """Every character and monster of the built-in content: its stat line as a setup builds it, and its deck
    (read-only: the content never changes)."""
    content = builtin_content()
    out = []
    for section in ("characters", "monsters"):
        for use in sorted(content.sections.get(section, {})):
            c = _combatant(f"content: {use}", "", WitchHammerCombatant(id="drawn", use=use, at=(0, 0)), content)
            out.append((_block_line(c), tuple(c["deck"].items())))
    return tuple(out)


@lru_cache(maxsize=1)
def _general() -> tuple[str, ...]:
    """The General school's cards of the built-in content (every PC's too under ``general_school_deck: all``)."""
    return tuple(sorted(k for k, card in builtin_content().sections.get("cards", {}).items() if card.school == GENERAL))


@lru_cache(maxsize=256)
def _card_def(card: str) -> CardDef:
    """A card of the built-in content, as the state holds it (``setup.compile_content``)."""
    c = _card(builtin_content().require("cards", card, "cards"))
    return CardDef(
        card,
        c["name"],
        c["kind"],
        c["init"],
        c["defense"],
        dict(c["defenses"]),
        tuple(c["below"]),
        c["one_shot"],
        c["text"],
    )


def _prior(knowledge: WitchHammerKnown, f: Fighter, options: WitchHammerOptions, rng: RNG) -> dict[str, int]:
    """An unseen deck (see the module docstring), with at least the copies ``f`` revealed this vignette."""
    line = _line(f)
    decks = [dict(deck) for block, deck in _stat_blocks() if block == line]
    if decks:
        deck = decks[rng.die(len(decks)) - 1] if len(decks) > 1 else decks[0]
        if f.kind == "pc" and options.general_school_deck == "all":
            for card in _general():
                deck.setdefault(card, 1)
    else:
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
        f.deck = _prior(knowledge, f, state.options, rng)
        decks.append((a, tuple(f.deck.items())))
    missing = [c for _, deck in decks for c, _ in deck if c not in state.cards]
    if missing:  # the content's cards the drawn decks hold that the seat could not read
        state.cards = {**state.cards, **{c: _card_def(c) for c in sorted(set(missing))}}
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
