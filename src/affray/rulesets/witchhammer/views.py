"""What a seat sees of a WitchHammer match (DESIGN.md contract 6).

Everyone sees the board, every combatant's public numbers, the revealed cards and statuses, and *that* a
combatant has committed a card (its seal and digest). Only the seat that controls a combatant (and the GM)
sees its hand and its face-down cards. The hand is hidden from others because it shrinks as cards are
placed: showing it would reveal the face-down choice. Rules: WH-02, WH-03, WH-05.

Parts that do not change between two board changes (a fighter's numbers, statuses and afflictions; the card
summaries; the map) are built once and shared by every view: views are read-only.
"""

from __future__ import annotations

from typing import Any

from affray.core.engine import Viewer, Window
from affray.core.sealed import Sealed
from affray.rulesets.witchhammer.memo import per_object
from affray.rulesets.witchhammer.state import CardDef, Fighter, WitchHammerState
from affray.rulesets.witchhammer.wounds import malus_of

Summaries = tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]
_STATIC: dict[int, tuple[Any, Summaries]] = {}
_MAPS: dict[int, tuple[Any, list[str]]] = {}


def _static(state: WitchHammerState) -> Summaries:
    """Card and status summaries, built once per setup (its card table is one shared object). Treat as read-only."""

    def build() -> Summaries:
        cards = {c: card_summary(card) for c, card in state.cards.items()}
        statuses = {k: {"name": s.name, "attack": s.attack, "defense": s.defense, "init": s.init, "malus": s.malus,
                        "move": s.move, "defenses": s.defenses, "tick_wounds": s.tick_wounds,
                        "tick_damage": s.tick_damage, "tick_poise": s.tick_poise, "skip_turn": s.skip_turn,
                        "no_poise_recovery": s.no_poise_recovery} for k, s in state.statuses.items()}
        return cards, statuses

    return per_object(_STATIC, state.cards, build)


def card_summary(card: CardDef) -> dict[str, Any]:
    return {"name": card.name, "kind": card.kind, "init": card.init, "defense": card.defense,
            "defenses": card.defenses, "below": list(card.below), "one_shot": card.one_shot, "text": card.text}


def _sealed(s: Sealed, open_: bool) -> dict[str, Any]:
    out = s.public()
    if open_:
        out["card"] = s.payload["card"]
    return out


def _board_part(state: WitchHammerState, f: Fighter) -> dict[str, Any]:
    """The part of ``f``'s view that only a board change can change (see ``WitchHammerState.board``), up to its
    afflictions: built once per change and shared by every view until the next. Read-only."""
    hit = state.board_views.get(f.id)
    if hit is not None and hit[0] == state.board:
        return hit[1]
    if not f.public:
        f.public = {"name": f.name, "side": f.side, "kind": f.kind, "size": f.size, "max_poise": f.max_poise,
                    "max_health": f.max_health, "attack": f.attack, "defense": f.defense, "init": f.init,
                    "solid_damage": f.solid_damage, "defenses": dict(f.defenses)}
    part: dict[str, Any] = {
        **f.public, "pos": f.pos, "facing": f.facing, "poise": f.poise, "health": f.health,
        "malus": malus_of(state, f), "out": f.out, "fate": f.fate,
        "mods": {"attack": f.mod_attack, "defense": f.mod_defense, "init": f.mod_init, "malus": f.mod_malus,
                 "move": f.mod_move, "defenses": f.mod_defenses},
        "statuses": [{"status": s.status.id, "name": s.status.name, "rounds": s.rounds} for s in f.statuses],
        "afflictions": list(f.afflictions),
    }
    state.board_views[f.id] = (state.board, part)
    return part


def _fighter(state: WitchHammerState, f: Fighter, mine: bool) -> dict[str, Any]:
    """``f`` as a seat sees it (``mine``: its own seat, which sees the hand and the face-down cards). Between two
    board changes only readiness, the Psych card and the filled slots change (the hand with them), so the dict
    is shared by every view until one of those does. Read-only."""
    key = (state.board, f.ready, f.psych is not None, len(f.slots))
    hit = state.fighter_views.get((f.id, mine))
    if hit is not None and hit[0] == key:
        return hit[1]
    out: dict[str, Any] = {
        **_board_part(state, f), "ready": f.ready,
        "card": f.card.id if f.card is not None else None,
        "psych": {"card": f.psych_card} if f.psych_card else (_sealed(f.psych, mine) if f.psych is not None
                                                               else None),
        "slots": [_sealed(s, mine) for s in f.slots],
    }
    if mine:
        out["hand"], out["deck"] = _own_part(state, f, key)
        out["skills"] = f.skills
    state.fighter_views[(f.id, mine)] = (key, out)
    return out


def _own_part(state: WitchHammerState, f: Fighter, key: tuple[int, bool, bool, int]
              ) -> tuple[dict[str, int], dict[str, int]]:
    """``f``'s hand and deck for its own seat. The hand changes only as ``f`` places cards, the deck only at a
    board change (one-shots spent on reveal, hands dealt): both are shared while those stay the same."""
    own = (key[0], key[2], key[3])  # readiness aside
    hit = state.own_views.get(f.id)
    if hit is not None and hit[0] == own:
        return hit[1]
    part = {c: n for c, n in f.hand.items() if n > 0}, dict(f.deck)
    state.own_views[f.id] = (own, part)
    return part


def view(state: WitchHammerState, viewer: Viewer, window: Window | None) -> dict[str, Any]:
    mine = set(state.fighters) if viewer.omniscient else {a for a in state.fighters if a in viewer.controls}
    opts = state.options
    cards, statuses = _static(state)
    # A deck's card ids never change (spent one-shots keep a count of 0), so the cards a viewer may read
    # depend only on whose decks it sees and which cards are in force.
    key = (frozenset(mine), tuple(f.card.id for f in state.fighters.values() if f.card is not None))
    shown = state.shown_cards.get(key)
    if shown is None:
        seen = set(key[1])
        for a in mine:
            seen.update(state.fighters[a].deck)
        shown = state.shown_cards[key] = {c: cards[c] for c in sorted(seen)}
    return {
        "ruleset": "witchhammer", "vignette": state.vignette, "round": state.round, "phase": state.phase,
        "seat": viewer.seat, "you": sorted(a for a in state.fighters if a in viewer.controls),
        "pending": None if window is None else {"phase": window.phase, "actors": list(window.actors),
                                                "prompt": window.prompt},
        "drama_timer": {"seconds": opts.drama_timer_seconds, "running": state.phase == "planning"}
        if opts.drama_timer else None,
        "map": per_object(_MAPS, state.grid, lambda: list(state.grid.rows)), "order": list(state.order),
        "initiative": dict(state.initiative),
        "fighters": {a: _fighter(state, f, a in mine) for a, f in state.fighters.items()},
        "cards": shown,
        "statuses": statuses,
        "outcome": None if state.outcome is None else {"winner": state.outcome.winner,
                                                       "reason": state.outcome.reason},
    }
