"""Gestalt combat (WR-35): one roll each, summed per side; the highest total wins the fight.

Each PC rolls a combat trait of its choice and may spend Experience Pool dice; the GM rolls for the GM
characters. A side made only of GM characters keeps its total secret (its dice are GM-only events and
the views show no total) until every roll is in and the result is revealed. With a GM at the table a
close result may be overturned for good tactics; equal totals are rolled again or called a draw
(ruling WR-X10). The losing sides are beaten; the GM narrates the rest.
"""

from __future__ import annotations

from affray.core.engine import GM, Action, Rejected
from affray.core.events import Defeated, Note, RoundStarted
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.warp.attack import count_field
from affray.rulesets.warp.events import GestaltResult
from affray.rulesets.warp.mechanics import gestalt_winner
from affray.rulesets.warp.rolls import ATTACK_USES, Mods, agility_related, candidates, roll, standing
from affray.rulesets.warp.state import Decision, Fighter, Gestalt, TraitRating, WarpState
from affray.rulesets.warp.turns import finish, gm_decides


def gm_side(state: WarpState, side: str) -> bool:
    """A side of GM characters only: its gestalt total is the GM's secret."""
    return all(not f.pc for f in state.fighters.values() if f.side == side)


def combat_traits(f: Fighter) -> list[TraitRating]:
    """Traits that can serve an attack, best first."""
    found = {t.id: t for use in ATTACK_USES for t in candidates(f, use, "attack")}
    return sorted(found.values(), key=lambda t: (-t.dice, t.id))


def begin(state: WarpState, rng: RNG, events: Journal) -> None:
    state.gestalt = Gestalt()
    state.phase = "gestalt"
    _start(state, rng, events)


def _start(state: WarpState, rng: RNG, events: Journal) -> None:
    g = state.gestalt
    assert g is not None
    state.round = g.round
    events.append(RoundStarted(g.round))
    g.rolls = {}
    for f in state.fighters.values():
        if f.out:
            continue
        if f.pc:
            state.decisions.append(Decision("gestalt_roll", f.id))
        else:
            traits = combat_traits(f)
            _roll(state, rng, f, traits[0] if traits else None, 0, events)
    advance(state, rng, events)


def _roll(state: WarpState, rng: RNG, f: Fighter, trait: TraitRating | None, spend: int, events: Journal) -> None:
    g = state.gestalt
    assert g is not None
    use = "melee" if trait is None or "melee" in trait.uses else "ranged"
    mods = standing(state, f, use, agility_related(state, trait, use), Mods())
    mods.bonus.extend(["experience"] * spend)
    f.experience -= spend
    g.rolls[f.id] = roll(state, rng, f, "gestalt", trait, mods, events, secret=gm_side(state, f.side))


def gestalt_roll(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    f = state.fighters[d.actor]
    traits = combat_traits(f)
    tid = action.get("trait", traits[0].id if traits else None)
    if tid is not None and (not isinstance(tid, str) or tid not in f.traits):
        return Rejected("unknown_trait", f"{f.name} has no trait called '{tid}'.")
    if tid is not None and all(t.id != tid for t in traits):
        return Rejected("unsuitable_trait", f"{f.traits[str(tid)].name} is not a fighting trait.")
    spend = count_field(action, "experience", f.experience, "Experience Pool dice")
    if isinstance(spend, Rejected):
        return spend
    _roll(state, rng, f, f.traits[tid] if tid is not None else None, spend, events)
    return None


def totals(state: WarpState) -> dict[str, int]:
    g = state.gestalt
    assert g is not None
    out: dict[str, int] = {}
    for f in state.fighters.values():
        if f.id in g.rolls or not f.out:
            out[f.side] = out.get(f.side, 0) + g.rolls.get(f.id, 0)
    return out


def advance(state: WarpState, rng: RNG, events: Journal) -> None:
    """Once every roll is in: compare the totals (WR-35)."""
    g = state.gestalt
    if g is None or state.decisions or g.resolved or state.outcome is not None:
        return
    g.totals = totals(state)
    winner = gestalt_winner(g.totals)
    if winner is None:
        if state.options.gestalt_ties == "reroll" and g.round < state.options.round_limit:
            # the GM's total stays secret, so a tie is announced without the numbers
            events.append(Note("The totals are level: everyone rolls again."))
            g.round += 1
            _start(state, rng, events)
            return
        _finish(state, None, False, events)
        return
    if gm_decides(state) and _close(g.totals, state.options.gestalt_close_margin):
        state.decisions.append(Decision("gestalt_verdict", GM))
        return
    _finish(state, winner, False, events)


def _close(scores: dict[str, int], margin: int) -> bool:
    ranked = sorted(scores.values(), reverse=True)
    return len(ranked) > 1 and ranked[0] - ranked[1] <= margin


def runner_up(scores: dict[str, int]) -> str:
    return sorted(scores, key=lambda s: -scores[s])[1]


def gestalt_verdict(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    g = state.gestalt
    assert g is not None
    overturn = action.get("overturn", False)
    if not isinstance(overturn, bool):
        return Rejected("bad_field", "'overturn' is true or false.")
    winner = runner_up(g.totals) if overturn else gestalt_winner(g.totals)
    _finish(state, winner, overturn, events)
    return None


def _finish(state: WarpState, winner: str | None, overturned: bool, events: Journal) -> None:
    g = state.gestalt
    assert g is not None
    g.winner, g.resolved = winner, True
    events.append(GestaltResult(dict(g.totals), winner, overturned))
    for f in state.fighters.values():
        if not f.out and f.side != winner:
            f.status = "beaten"
            events.append(Defeated(f.id, "beaten"))
    reason = "the gestalt totals" + (", overturned by the GM for good tactics" if overturned else "")
    finish(state, winner, reason if winner else "equal gestalt totals", events)


HANDLERS = {
    "gestalt_roll": (("gestalt_roll",), gestalt_roll),
    "gestalt_verdict": (("gestalt_verdict",), gestalt_verdict),
}
