"""What a seat sees of a WitchHammer match (DESIGN.md contract 6; typed views of core/view.py).

Everyone sees the board, every combatant's public numbers, the revealed cards and statuses, and *that* a
combatant has committed a card (its seal and digest). A face-down card opens, and the hand shows, only for the
seat that plays the combatant (``Viewer.may_open``): not for the GM of another seat's combatant, since the hand
shrinks as cards go down and would give the choice away. GM-level viewers (``Viewer.omniscient``) see every
deck and skill line besides. Rules: WH-02, WH-03, WH-05.

Caching goes through the match's :class:`~affray.core.memo.Memo`: the card and status tables, the map and what each
viewer may see for the life of the match; each combatant's board part (numbers, bars, statuses, position) until the
next board change, and its part per kind of viewer while nothing it shows has changed (a board change, its
readiness, its face-down cards, its reveals). Views built without a memo are built from scratch and are equal.
"""

from __future__ import annotations

from functools import partial

from affray.core.engine import Viewer, Window
from affray.core.memo import Memo
from affray.core.sealed import Sealed
from affray.core.view import Bar, CombatantView, Fact, Position, Status, View, controlled, envelope
from affray.rulesets.witchhammer.content_model import SIZES
from affray.rulesets.witchhammer.state import CardDef, Fighter, StatusDef, WitchHammerState
from affray.rulesets.witchhammer.view_types import (
    CardInfo,
    Combat,
    DramaTimer,
    FaceDown,
    Mods,
    Stats,
    StatusInfo,
    WitchHammerCombatantDetail,
    WitchHammerDetail,
)
from affray.rulesets.witchhammer.wounds import malus_of

WitchHammerView = View[WitchHammerDetail, WitchHammerCombatantDetail]
Combatant = CombatantView[WitchHammerCombatantDetail]
FACING_NAMES = {
    (0, -1): "n",
    (1, -1): "ne",
    (1, 0): "e",
    (1, 1): "se",
    (0, 1): "s",
    (-1, 1): "sw",
    (-1, 0): "w",
    (-1, -1): "nw",
}


def may_open(viewer: Viewer, actor: str) -> bool:
    """Whether ``viewer`` may read ``actor``'s face-down cards and hand: only the seat that plays it."""
    return viewer.may_open(actor)


def card_info(card: CardDef) -> CardInfo:
    return CardInfo(
        card.id, card.name, card.kind, card.init, card.defense, card.defenses, card.below, card.one_shot, card.text
    )


def status_info(s: StatusDef) -> StatusInfo:
    return StatusInfo(
        s.id,
        s.name,
        s.attack,
        s.defense,
        s.init,
        s.malus,
        s.move,
        s.defenses,
        s.tick_wounds,
        s.tick_damage,
        s.tick_poise,
        s.skip_turn,
        s.no_poise_recovery,
    )


def _tables(state: WitchHammerState, memo: Memo) -> tuple[dict[str, CardInfo], dict[str, StatusInfo]]:
    """Every card and status of the setup as view parts, once per match (a setup never changes)."""
    return memo.static(
        "wh.tables",
        lambda: (
            {c: card_info(card) for c, card in state.cards.items()},
            {k: status_info(s) for k, s in state.statuses.items()},
        ),
    )


def _face_down(s: Sealed, open_: bool) -> FaceDown:
    return FaceDown(s.seal, s.digest, s.payload["card"] if open_ else None)


# The part of a combatant's view that only a board change can change (``WitchHammerState.board``), for every viewer
# alike, built once per change: position, bars, statuses, down, dead, the Combat part and the deck.
_Board = tuple[Position, tuple[Bar, ...], tuple[Status, ...], bool, bool, Combat, dict[str, int]]


def _stats(f: Fighter) -> Stats:
    return Stats(f.kind, f.size, f.attack, f.defense, f.init, f.solid_damage, f.defenses)


def _board(state: WitchHammerState, f: Fighter) -> _Board:
    """Rules: WH-19, WH-20 (Poise, Health and Wounds as bars), WH-22 (down), WH-24 (statuses with the bearer's
    turns left; ``None`` for the rest of the vignette), WH-23 (afflictions, as lasting statuses too)."""
    bars = (
        Bar("Poise", f.poise, f.max_poise),
        Bar("Health", f.health, f.max_health),
        Bar("Wounds", max(0, f.max_health - f.health), f.max_health),
    )
    statuses = tuple(
        [Status(s.status.name, s.rounds if s.rounds >= 0 else None) for s in f.statuses]
        + [Status(a) for a in f.afflictions]
    )
    combat = Combat(
        malus_of(state, f),
        Mods(f.mod_attack, f.mod_defense, f.mod_init, f.mod_malus, f.mod_move, dict(f.mod_defenses)),
        f.out,
        f.fate,
        tuple(f.afflictions),
        f.card.id if f.card is not None else None,
        state.initiative.get(f.id),
    )
    return (
        Position("square", f.pos[0], f.pos[1], FACING_NAMES.get((f.facing[0], f.facing[1]))),
        bars,
        statuses,
        bool(f.out),
        f.out == "dead" or f.fate == "dead",
        combat,
        dict(f.deck),
    )


def combatant(state: WitchHammerState, memo: Memo, f: Fighter, sight: tuple[bool, bool, bool]) -> Combatant:
    """``f`` as a viewer with ``sight`` sees it: ``opened``, it may read ``f``'s face-down cards and hand; ``sees``,
    its sheet (deck, skills); ``mine``, its seat plays ``f``. Revealed cards are open to everyone."""
    opened, sees, mine = sight
    position, bars, statuses, down, dead, combat, deck = memo.keyed(
        ("wh.board", f.id), state.board, partial(_board, state, f)
    )
    psych = None
    if f.psych is not None:
        psych = FaceDown(f.psych.seal, f.psych.digest, f.psych_card) if f.psych_card else _face_down(f.psych, opened)
    detail = WitchHammerCombatantDetail(
        memo.static(("wh.stats", f.id), partial(_stats, f)),
        combat,
        f.ready,
        psych,
        tuple([_face_down(s, opened or i < f.shown) for i, s in enumerate(f.slots)]),
        {c: n for c, n in f.hand.items() if n > 0} if opened else None,
        deck if sees else None,
        f.skills if sees else None,
    )
    sheet = memo.keyed(("wh.sheet", f.id, sees), state.board, lambda: sheet_rows(state, detail))
    return CombatantView(f.id, f.name, f.side, mine, position, bars, statuses, down, dead, detail, sheet)


SIZE_NAMES = {n: name for name, n in SIZES.items()}
KINDS = {"pc": "player character"}


def _signed_by_aspect(values: dict[str, int]) -> str:
    return ", ".join(f"{aspect.replace('_', ' ')} {n:+d}" for aspect, n in values.items())


def sheet_rows(state: WitchHammerState, d: WitchHammerCombatantDetail) -> tuple[Fact, ...]:
    """The combatant's sheet in words (``CombatantView.sheet``): base Attack, Defense and Init (WH-11, WH-12,
    WH-06), Damage on a Solid Hit (WH-B5), aspect Defenses (WH-13, WH-14), size; the Malus (WH-20, WH-21) and the
    status modifiers in force, the card in force and this round's initiative (WH-05, WH-06), the death's-door fate;
    the skills for a seat that may see them. The hand, the deck and the slots are the cards panel's."""
    st, c = d.stats, d.combat
    rows = [
        Fact("Attack", f"{st.attack:+d}"),
        Fact("Defense", f"{st.defense:+d}"),
        Fact("Init", f"{st.init:+d}"),
        Fact("Damage on a Solid Hit", str(st.solid_damage)),
        Fact("Size", f"{SIZE_NAMES.get(st.size, str(st.size))} ({KINDS.get(st.kind, st.kind)})"),
    ]
    if st.defenses:
        rows.append(Fact("Aspect defenses", _signed_by_aspect(st.defenses)))
    if c.malus:
        rows.append(Fact("Malus", str(c.malus)))
    m = c.mods
    mods = [
        f"{what} {n:+d}"
        for what, n in (
            ("attack", m.attack),
            ("defense", m.defense),
            ("init", m.init),
            ("malus", m.malus),
            ("move", m.move),
        )
        if n
    ]
    if m.defenses:
        mods.append(_signed_by_aspect(m.defenses))
    if mods:
        rows.append(Fact("From statuses", ", ".join(mods)))
    if c.card is not None:
        card = state.cards.get(c.card)
        rows.append(Fact("Card in force", card.name if card is not None else c.card.replace("_", " ")))
    if c.initiative is not None:
        rows.append(Fact("Initiative this round", str(c.initiative)))
    if c.fate:
        rows.append(Fact("Fate", c.fate.replace("_", " ")))
    if d.skills:
        rows.append(Fact("Skills", ", ".join(f"{k.replace('_', ' ')} {n:+d}" for k, n in d.skills.items())))
    return tuple(rows)


def _in_force(state: WitchHammerState) -> tuple[str, ...]:
    return tuple(
        sorted(
            {f.card.id for f in state.fighters.values() if f.card is not None}
            | {f.psych_card for f in state.fighters.values() if f.psych_card}
        )
    )


def _cards_shown(
    state: WitchHammerState, memo: Memo, seen_decks: frozenset[str], in_force: tuple[str, ...]
) -> dict[str, CardInfo]:
    """The cards a viewer may read: those in force and those of every deck it may see (a deck's card ids never
    change: spent one-shots keep a count of 0)."""
    cards, _ = _tables(state, memo)
    seen = set(in_force)
    for a in seen_decks:
        seen.update(state.fighters[a].deck)
    return {c: cards[c] for c in sorted(seen)}


def _sight(state: WitchHammerState, viewer: Viewer) -> tuple[tuple[tuple[bool, bool, bool], ...], frozenset[str]]:
    """Per combatant, whether ``viewer`` opens its cards, sees its sheet and plays it; and whose decks it sees."""
    marks = []
    for a in state.fighters:
        opened = may_open(viewer, a)
        marks.append((opened, opened or viewer.omniscient, controlled(viewer, a)))
    return tuple(marks), frozenset(a for a, m in zip(state.fighters, marks, strict=True) if m[1])


def view(state: WitchHammerState, viewer: Viewer, window: Window | None, memo: Memo | None = None) -> WitchHammerView:
    """The typed view of ``state`` for ``viewer`` (see the module docstring). Read-only: parts are shared."""
    if memo is None:
        return _view(state, viewer, window, Memo())
    return memo.now(("wh.view", viewer, window), partial(_view, state, viewer, window, memo))


def sight(
    state: WitchHammerState, viewer: Viewer, memo: Memo
) -> tuple[tuple[tuple[bool, bool, bool], ...], frozenset[str]]:
    """What ``viewer`` may see, once per match: per combatant (in actor order) whether it opens its face-down cards
    and hand, sees its sheet and plays it; and whose decks it sees. Views and observations both read it."""
    # Named by the seat, whose name hashes at once (a Viewer hashes and compares its fields in Python: every decision
    # asks), and kept with its viewer; a store shared by matches that seat it otherwise keys by the viewer itself.
    found = memo.static(("wh.sight", viewer.seat), _seen_by, state, viewer)
    if found[0] is viewer or found[0] == viewer:
        return found[1]
    return memo.static(("wh.sight", viewer), _sight, state, viewer)


def _seen_by(
    state: WitchHammerState, viewer: Viewer
) -> tuple[Viewer, tuple[tuple[tuple[bool, bool, bool], ...], frozenset[str]]]:
    return viewer, _sight(state, viewer)


def cards_shown(state: WitchHammerState, viewer: Viewer, memo: Memo) -> dict[str, CardInfo]:
    """The cards ``viewer`` may read now (its view's ``detail.cards``): those in force and those of every deck it
    may see."""
    seen_decks = sight(state, viewer, memo)[1]
    in_force = memo.now("wh.in_force", partial(_in_force, state))
    return memo.static(("wh.cards", seen_decks, in_force), partial(_cards_shown, state, memo, seen_decks, in_force))


def status_table(state: WitchHammerState, memo: Memo) -> dict[str, StatusInfo]:
    """Every status of the setup as view parts (the view's ``detail.statuses``), once per match."""
    return _tables(state, memo)[1]


def _view(state: WitchHammerState, viewer: Viewer, window: Window | None, memo: Memo) -> WitchHammerView:
    marks = sight(state, viewer, memo)[0]
    board = state.board
    combatants = tuple(
        [
            memo.keyed(
                ("wh.combatant", f.id, sight),
                (board, f.ready, f.psych is not None, f.psych_card, len(f.slots), f.shown),
                partial(combatant, state, memo, f, sight),
            )
            for f, sight in zip(state.fighters.values(), marks, strict=True)
        ]
    )
    opts = state.options
    detail = WitchHammerDetail(
        state.vignette,
        memo.static("wh.map", lambda: tuple(state.grid.rows)),
        cards_shown(state, viewer, memo),
        status_table(state, memo),
        DramaTimer(opts.drama_timer_seconds, state.phase == "planning") if opts.drama_timer else None,
        tuple(state.pending_fates),
    )
    return envelope(
        "witchhammer",
        mode="vignettes",
        round=state.round,
        phase=state.phase,
        order=state.order,
        window=window,
        outcome=state.outcome,
        viewer=viewer,
        combatants=combatants,
        detail=detail,
    )
