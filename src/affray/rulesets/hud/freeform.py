"""Free Form scenes (WL-00): collaborative posts in a post order, HP kept by hand, dice on demand.

On its turn a participant posts free text, optionally adjusting hit points by hand (3 each, as in Dice
Simplified); when the writers disagree, it may instead call Dice Simplified to settle one exchange with a
foe (``settle``), whose result is posted into the scene; or it may end the scene. Combat Nerdified is
offered in the view as a frame of reference.
"""

from __future__ import annotations

from affray.core.engine import Action, ActionSpec, Outcome, Rejected, StepResult
from affray.core.events import Ended, Note, RoundStarted
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.hud.combat import accepted, check_outcome, knock_out
from affray.rulesets.hud.events import HpChanged
from affray.rulesets.hud.simplified import attack_specs, close_duel, open_duel, post_order
from affray.rulesets.hud.state import HudState

MAX_POST = 4000
REFERENCE = (
    "Combat Nerdified can guide the writing: each round two actions (attack, defense or a complex "
    "activity), a free 10 m move, ripostes on a parry by 6 or more, and disengaging into pursuit."
)


def begin(state: HudState, rng: RNG, first: str | None, journal: Journal) -> None:
    post_order(state, rng, first, journal, roll_if_unclear=False)
    state.round, state.turn, state.phase = 1, 0, "post"
    journal.append(RoundStarted(1))


def legal(state: HudState, actor: str) -> list[ActionSpec]:
    if state.phase == "settle":
        from affray.rulesets.hud.simplified import respond_specs

        return respond_specs(state)
    free = ("text", "hp")  # a post's text and hand-kept HP are the writer's (free parameters of the action type)
    specs = [ActionSpec({"type": "post", "text": "..."}, "post (write your text)", (), free)]
    for f in state.active():
        specs.append(
            ActionSpec({"type": "post", "text": "...", "hp": {f.id: -1}}, f"post, and {f.name} loses 1 HP", (), free)
        )
        if f.hp < f.max_hp:
            specs.append(
                ActionSpec({"type": "post", "text": "...", "hp": {f.id: 1}}, f"post, and {f.name} heals 1 HP", (), free)
            )
    specs += attack_specs(state, actor, "settle")
    specs.append(ActionSpec({"type": "end_scene"}, "end the scene"))
    return specs


def _post(state: HudState, actor: str, action: Action, journal: Journal) -> Rejected | None:
    text, hp = action.get("text", ""), action.get("hp", {})
    if not isinstance(text, str) or len(text) > MAX_POST:
        return Rejected("bad_post", f"A post is text of at most {MAX_POST} characters.")
    if not isinstance(hp, dict) or any(
        t not in state.fighters or isinstance(d, bool) or not isinstance(d, int) for t, d in hp.items()
    ):
        return Rejected("bad_hp", "Hit point changes are {combatant id: whole number}.")
    journal.append(Note(text, actor))
    deltas = {t: d for t, d in hp.items() if isinstance(d, int)}  # every one is, as checked above
    for target, delta in deltas.items():
        f = state.fighters[target]
        new = max(0, min(f.max_hp, f.hp + delta))
        if new != f.hp:
            journal.append(HpChanged(actor, target, new - f.hp, new))
            f.hp = new
            knock_out(state, f, journal)
    return None


def step(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> StepResult:
    """A post, a call for dice, the defender's die of a settled exchange, or the end of the scene. Rule: WL-00."""
    kind = action["type"]
    if state.phase == "settle":
        result = (
            close_duel(state, rng, action, journal)
            if kind == "respond"
            else Rejected("not_allowed_now", "Settle the exchange first: respond with 'defense' or 'injury'.")
        )
    elif kind == "post":
        result = _post(state, actor, action, journal)
    elif kind == "settle":
        return _settle(state, rng, actor, action, journal)
    elif kind == "end_scene":
        state.outcome = Outcome(None, "the scene was ended")
        state.phase = "over"
        journal.append(Ended(None, "the scene was ended"))
        return accepted(journal)
    else:
        return Rejected("unknown_action_type", "In Free Form: post, settle or end_scene.")
    if result is not None:
        return result
    next_poster(state, journal)
    return accepted(journal)


def _settle(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> StepResult:
    """Call Dice Simplified for one exchange (WL-00, WL-06): the note comes before the attacker's roll."""
    mark = len(journal)
    journal.append(Note("calls for dice to settle the exchange", actor))
    result = open_duel(state, rng, actor, {**action, "type": "attack"}, journal)
    if result is not None:
        del journal[mark:]  # refused: the journal keeps nothing of it
        return result
    return accepted(journal)


def next_poster(state: HudState, journal: Journal) -> None:
    """The post passes to the next participant still in the scene (WL-00), unless the scene is over."""
    check_outcome(state, journal)
    if state.outcome is not None:
        return
    state.phase = "post"
    state.posts += 1
    if state.posts >= state.options.round_limit:
        state.outcome = Outcome(None, "the scene ran out of posts")
        journal.append(Ended(None, state.outcome.reason))
        return
    n = len(state.order)
    for _ in range(n):
        state.turn = (state.turn + 1) % n
        if state.turn == 0:
            state.round += 1
        if not state.fighters[state.order[state.turn]].out:
            return
