"""Emergency additional actions after the declarations (WL-17, WL-B6; option ``emergency_actions``).

The additional action "can be added at any time in the round, even when the actions were declared". Taken as an
emergency it costs -2 to every roll for the whole next round (the Initiative roll is never penalised), and at most
one additional action is taken per round (WL-B6). Besides the emergency defense offered when an attack comes and
no defense is left (:mod:`affray.rulesets.hud.nerdified`), a combatant is asked at the end of its initiative step
whether it adds an emergency attack on a foe it can reach or a complex activity, or carries on.
"""

from __future__ import annotations

from affray.core.engine import Action, ActionSpec, Rejected, StepResult
from affray.core.fields import text
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.hud.combat import accepted, can_reach
from affray.rulesets.hud.events import EmergencyAction
from affray.rulesets.hud.mechanics import ADDITIONAL_ACTION_PENALTY
from affray.rulesets.hud.nerdified import can_emergency, run, start_exchange
from affray.rulesets.hud.state import HudState

MAX_TEXT = 500
COMPLEX_TEXT = "an emergency complex activity"


def _offered(state: HudState, actor: str) -> bool:
    return state.phase == "emergency" and actor == state.emergency_actor and can_emergency(state, state.fighters[actor])


def choices(state: HudState, actor: str) -> list[ActionSpec]:
    """An emergency attack on each foe ``actor`` can reach, a complex activity, or carrying on."""
    f = state.fighters[actor]
    if not _offered(state, actor):
        return []
    # the note warns of the penalty: its code "penalty" (ActionSpec.warnings) is what a client decides on
    specs = [
        ActionSpec(
            {"type": "emergency_attack", "target": e.id},
            f"emergency attack on {e.name} (-2 all next round)",
            ("-2 to all rolls next round",),
            warnings=("penalty",),
        )
        for e in state.enemies(actor)
        if can_reach(f, e)
    ]
    specs.append(
        ActionSpec(
            {"type": "emergency_complex", "text": COMPLEX_TEXT},
            "emergency complex activity (-2 all next round)",
            ("-2 to all rolls next round",),
            ("text",),
            ("penalty",),
        )
    )
    specs.append(ActionSpec({"type": "carry_on"}, "carry on (no emergency action)"))
    return specs


def kinds(state: HudState, actor: str) -> frozenset[str]:
    """The action types :func:`choices` lists, without building it."""
    if not _offered(state, actor):
        return frozenset()
    f = state.fighters[actor]
    reach = any(can_reach(f, e) for e in state.enemies(actor))
    return EMERGENCY_KINDS | ATTACK_KIND if reach else EMERGENCY_KINDS


EMERGENCY_KINDS = frozenset({"emergency_complex", "carry_on"})
ATTACK_KIND = frozenset({"emergency_attack"})


def _check(state: HudState, actor: str, action: Action) -> Rejected | None:
    kind = action.get("type")
    if kind == "emergency_attack":
        target = action.get("target")
        foe = state.fighters.get(target) if isinstance(target, str) else None
        f = state.fighters[actor]
        if foe is None or foe.out or foe.side == f.side:
            return Rejected("bad_target", f"'{target}' is not a foe still in the fight.")
        if not can_reach(f, foe):
            return Rejected("out_of_reach", f"{foe.name} is out of reach of an emergency attack.")
    elif kind == "emergency_complex":
        text = action.get("text", COMPLEX_TEXT)
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            return Rejected("bad_text", f"A complex activity is described in at most {MAX_TEXT} characters.")
    elif kind != "carry_on":
        return Rejected("not_allowed_now", "Now the choices are: emergency_attack, emergency_complex, carry_on.")
    return None


def act(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> StepResult:
    """Apply the answer to the emergency prompt, then go on with the round. Rules: WL-17, WL-B6."""
    error = _check(state, actor, action) if journal.validate else None  # trusted: taken from choices()
    if error is not None:
        return error
    state.phase, state.emergency_actor = "act", ""
    kind = action["type"]
    if kind != "carry_on":
        f = state.fighters[actor]
        f.additional_used += 1
        f.penalty_next += ADDITIONAL_ACTION_PENALTY
        if kind == "emergency_attack":
            target = text(action, "target")
            journal.append(EmergencyAction(actor, "attack", target))
            start_exchange(state, rng, actor, target, "attack", journal)
        else:
            journal.append(EmergencyAction(actor, "complex activity", text=str(action.get("text", COMPLEX_TEXT))))
    if state.exchange is None and state.pursuit is None:
        run(state, rng, journal)
    return accepted(journal)
