"""The combat loop: vignettes of Psych, Planning and Violence until one side is down, then the aftermath.

Rules: WH-01 (vignettes), WH-02 and WH-B24 (the Psych reveal, which no order decides: :mod:`.psych`), WH-04
(cards back to hand, one-shots spent), WH-29 and WH-B8 (the death's-door save), WH-B10 (Poise back to max after
the fight).
"""

from __future__ import annotations

from affray.core.engine import GM, Outcome, Window
from affray.core.events import Ended, PhaseStarted
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.witchhammer import planning, psych, violence
from affray.rulesets.witchhammer.effects import defense_value, end_vignette_effects
from affray.rulesets.witchhammer.events import Checked, Fate, PoiseChanged, VignetteStarted
from affray.rulesets.witchhammer.mechanics import deaths_door
from affray.rulesets.witchhammer.state import WitchHammerState
from affray.rulesets.witchhammer.wounds import crits_on, d20, malus_of


def start(state: WitchHammerState, rng: RNG, journal: Journal) -> None:
    """Begin a vignette at the Psych phase (or straight at Planning when nobody holds a Psych card)."""
    if violence.decided(state):
        finish(state, rng, journal)
        return
    if state.vignette >= state.options.vignette_limit:
        finish(state, rng, journal, limit=True)
        return
    state.vignette += 1
    if journal.loud:
        journal.append(VignetteStarted(state.vignette))
    planning.new_hands(state)
    if planning.open_psych(state):
        if journal.loud:
            journal.append(PhaseStarted("psych"))
    else:
        _to_planning(state, journal)


def _to_planning(state: WitchHammerState, journal: Journal) -> None:
    planning.open_planning(state)
    if journal.loud:
        journal.append(PhaseStarted("planning"))


def phase_done(state: WitchHammerState, rng: RNG, journal: Journal) -> None:
    """Everyone is ready: reveal the Psych cards, or run the Violence phase and the next vignette."""
    if state.phase == "psych":
        psych.reveal(state, rng, journal)
        if violence.decided(state):
            finish(state, rng, journal)
        else:
            _to_planning(state, journal)
        return
    state.phase = "violence"
    state.window = None
    if journal.loud:
        journal.append(PhaseStarted("violence"))
    over = violence.play_round(state, 1, rng, journal) or violence.play_round(state, 2, rng, journal)
    end_vignette(state, journal)
    if over:
        finish(state, rng, journal)
    else:
        start(state, rng, journal)


def end_vignette(state: WitchHammerState, journal: Journal) -> None:
    """Cards go back to the hand (one-shots were spent on reveal); vignette-long effects end (WH-02, WH-04)."""
    for f in state.fighters.values():
        f.card, f.psych, f.psych_card, f.slots, f.ready, f.shown = None, None, "", [], False, 0
        end_vignette_effects(f, journal)


def finish(state: WitchHammerState, rng: RNG, journal: Journal, limit: bool = False) -> None:
    """Combat ends: death's-door saves for downed PCs, Poise back to max, and the outcome (WH-29, WH-B10)."""
    state.window = None
    standing = sorted({f.side for f in state.fighters.values() if f.up})
    state.winner = standing[0] if len(standing) == 1 and not limit else None
    state.end_reason = (
        "the vignette limit was reached" if limit else "the other side is down" if standing else "everyone is down"
    )
    for f in state.fighters.values():
        if f.kind == "pc" and (f.out == "down" or (f.out == "removed" and f.health <= 0)):
            _deaths_door(state, f.id, rng, journal)
        if state.options.poise_reset_after_combat and f.out in ("", "down") and f.poise != f.max_poise:
            f.poise = f.max_poise
            journal.append(PoiseChanged(f.id, f.poise, "catches their breath after the fight"))
    if state.pending_fates:
        state.phase = "deaths_door"
        state.window = Window("deaths_door", (GM,), "Rule on each failed death's-door save: dies or survives")
        return
    conclude(state, journal)


def _deaths_door(state: WitchHammerState, actor: str, rng: RNG, journal: Journal) -> None:
    """Picnic Con save: d20 + Con Defense >= 1 - Health; no Malus by the ruling (WH-29, WH-B8)."""
    f = state.fighters[actor]
    con = defense_value(f, "con")
    malus = malus_of(state, f) if state.options.deaths_door_malus else 0
    natural = d20(rng, f.id, "death's-door save", con + malus, journal)
    result = deaths_door(natural, con, f.health, malus, crits=crits_on(state, "check"))
    journal.append(Checked(f.id, "death's-door save", result.total, result.difficulty, result.success))
    if result.success:
        f.health, f.fate = 0, "stable"
        journal.append(Fate(f.id, "stable", 0))
    elif state.options.deaths_door_failure == "gm_decides":
        f.fate = "awaiting the GM"
        state.pending_fates.append(f.id)
        journal.append(Fate(f.id, f.fate, f.health))
    else:
        f.out, f.fate = "dead", "dead"
        journal.append(Fate(f.id, "dead", f.health))


def rule_fate(state: WitchHammerState, actor: str, fate: str, journal: Journal) -> None:
    """The GM's override of a failed death's-door save (WH-B8, option ``deaths_door_failure``)."""
    f = state.fighters[actor]
    state.pending_fates.remove(actor)
    if fate == "dies":
        f.out, f.fate = "dead", "dead"
    else:
        f.health, f.fate = 0, "stable"
    journal.append(Fate(actor, f.fate, f.health))
    if not state.pending_fates:
        state.window = None
        conclude(state, journal)


def conclude(state: WitchHammerState, journal: Journal) -> None:
    state.phase = "over"
    details = {
        f.id: {"health": f.health, "poise": f.poise, "out": f.out, "fate": f.fate, "afflictions": list(f.afflictions)}
        for f in state.fighters.values()
    }
    state.outcome = Outcome(state.winner, state.end_reason, details)
    journal.append(Ended(state.winner, state.end_reason))
