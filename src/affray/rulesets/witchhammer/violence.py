"""The Violence phase: two rounds, each revealing one slot for everyone and resolving in initiative order.

Rules: WH-04 (two rounds, slot 1 then slot 2), WH-05 (above the line on reveal, below on the card's turn),
WH-06 and WH-B12 (initiative and its ties), WH-24/WH-B11 (ongoing effects at the bearer's slot), WH-A1 (target
lock), WH-A2 (fixed or live order), WH-A6 (a character at 0 Health or less takes no turns).
"""

from __future__ import annotations

from operator import itemgetter

from affray.core.events import Revealed, RoundStarted
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.witchhammer import nodes, targeting
from affray.rulesets.witchhammer.effects import Turn, expire, tick
from affray.rulesets.witchhammer.events import CardPlayed, Fizzled, InitiativeSet
from affray.rulesets.witchhammer.mechanics import initiative
from affray.rulesets.witchhammer.state import CardDef, Fighter, WitchHammerState
from affray.rulesets.witchhammer.wounds import d20, malus_of

SELECTOR_KEYS = ("target", "reference", "to")


def reveal(state: WitchHammerState, f: Fighter, slot: int, journal: Journal) -> CardDef:
    """Open ``f``'s sealed card for ``slot`` (0 = Psych), check it against its commitment, and spend a one-shot
    (WH-02, WH-04). A card that does not match its hash raises :class:`~affray.core.sealed.SealBroken`."""
    sealed = f.psych if slot == 0 else f.slots[slot - 1]
    assert sealed is not None
    payload = sealed.reveal()
    card = state.cards[payload["card"]]
    if journal.loud:
        journal.append(Revealed(f.id, sealed.seal, payload))
        journal.append(CardPlayed(f.id, card.id, card.name, slot))
    if card.one_shot and f.deck.get(card.id, 0) > 0:
        f.deck[card.id] -= 1  # discarded for the rest of the Adventure (WH-04, WH-B19)
    return card


def init_of(state: WitchHammerState, f: Fighter) -> int:
    """Card Init + base Init + status Init + Malus (WH-06, WH-20)."""
    card = f.card.init if f.card is not None else 0
    return initiative(card, f.init + f.mod_init, malus_of(state, f))


def order(state: WitchHammerState, actors: list[Fighter], rng: RNG, journal: Journal) -> list[Fighter]:
    """Highest Init first; ties by current Poise, then (WH-B12) higher base Init, PCs before monsters, and a
    seeded d20 roll-off among whoever is still tied."""
    base = state.options.initiative_ties == "base_then_pcs"
    initiatives = state.initiative
    keyed: list[tuple[tuple[int, int, int, int], Fighter]] = []
    for f in actors:
        value = initiatives[f.id] = init_of(state, f)
        key = (-value, -f.poise, -f.init, 0 if f.kind == "pc" else 1) if base else (-value, -f.poise, 0, 0)
        keyed.append((key, f))
    keyed.sort(key=itemgetter(0))  # stable: equal keys keep the actor order for the roll-off
    out: list[Fighter] = []
    i, n = 0, len(keyed)
    while i < n:  # runs of equal keys, in order (itertools.groupby, without its objects: every round asks)
        key = keyed[i][0]
        j = i + 1
        while j < n and keyed[j][0] == key:
            j += 1
        if j - i == 1:
            out.append(keyed[i][1])
        else:
            out += _roll_off([kf[1] for kf in keyed[i:j]], rng, journal)
        i = j
    return out


def _roll_off(tied: list[Fighter], rng: RNG, journal: Journal) -> list[Fighter]:
    """A d20 each, highest first; whoever ties again rolls again (X-4)."""
    rolls = {f.id: [d20(rng, f.id, "initiative roll-off", 0, journal)] for f in tied}
    while True:
        seen: dict[tuple[int, ...], list[str]] = {}
        for a, r in rolls.items():
            seen.setdefault(tuple(r), []).append(a)
        clashes = [group for group in seen.values() if len(group) > 1]
        if not clashes:
            break
        for group in clashes:
            for a in group:
                rolls[a].append(d20(rng, a, "initiative roll-off", 0, journal))
    return sorted(tied, key=lambda f: [-v for v in rolls[f.id]])


def _lock_targets(state: WitchHammerState, f: Fighter) -> None:
    """WH-A1 'reveal': every selector on the card picks its combatant now."""
    assert f.card is not None
    for node in f.card.below:
        for key in SELECTOR_KEYS:
            sel = node.get(key)
            if isinstance(sel, str) and sel.endswith(("_enemy", "_ally")) and not sel.startswith("each_"):
                chosen = targeting.pick(state, f, sel)
                if chosen is not None:
                    state.targets[(f.id, sel)] = chosen.id


def play_round(state: WitchHammerState, slot: int, rng: RNG, journal: Journal) -> bool:
    """Reveal slot ``slot`` for everyone able to act and resolve the cards; True if the fight is over."""
    state.round += 1
    if journal.loud:
        journal.append(RoundStarted(state.round))
    acting = []
    for f in state.fighters.values():  # able to act and a card in the slot, revealed (plain loops: every round)
        if not f.out and len(f.slots) >= slot:
            acting.append(f)
            f.card = reveal(state, f, slot, journal)
            f.shown = slot
    state.targets.clear()
    if state.options.target_lock == "reveal":
        for f in acting:
            _lock_targets(state, f)
    queue = order(state, acting, rng, journal)
    state.order = ids = []
    for f in queue:
        ids.append(f.id)
    if journal.loud:
        journal.append(InitiativeSet([f.id for f in queue], [state.initiative[f.id] for f in queue]))
    live = state.options.initiative_updates == "live"
    while queue:
        f = queue.pop(0)
        take_turn(state, f, rng, journal)
        if decided(state):
            return True
        if live and queue:
            queue.sort(key=lambda g: (-init_of(state, g), -g.poise, g.order))
    return False


def take_turn(state: WitchHammerState, f: Fighter, rng: RNG, journal: Journal) -> None:
    """``f``'s turn: ongoing effects tick, then the card's below-the-line part unless stunned (WH-24, WH-B11)."""
    if f.out or f.card is None:  # not able to act (WH-22, WH-A6), or nothing revealed
        return
    card = f.card
    stunned = f.stunned
    if f.ticking and (not stunned or state.options.tick_when_stunned):  # a status that ticks (most of them do not)
        tick(state, f, rng, journal)
    if not f.out:
        if stunned:
            if journal.loud:
                journal.append(Fizzled(f.id, card.name, "stunned"))
        elif card.below:
            nodes.run(state, Turn(f, card.name, rng, journal), card.below)
    expire(f, journal)


def decided(state: WitchHammerState) -> bool:
    """True when at most one side still has a combatant able to act (WH-01)."""
    side = None
    for f in state.fighters.values():
        if not f.out:  # able to act (Fighter.up), read directly on this per-turn path
            if side is None:
                side = f.side
            elif f.side != side:
                return False
    return True
