"""Decisions the fight waits for, outside anyone's turn.

- ``initiative``: a PC may spend Experience Pool dice on its initiative roll (WR-04, WR-05);
- ``defend``: a defender with a real choice picks its trait, spends experience dice, or, outnumbered under
  option ``gang_up_choice: kept``, picks which attackers it defends against normally (WR-08, WR-09, WR-31,
  WR-B17);
- ``ruling`` (the GM): bonus or penalty dice for claims and circumstances, the predictable flag, the
  special-effect margin, a missile's cover and darkness (WR-14, WR-17, WR-30, WR-31);
- ``plea``: a dying PC gives a reason to live or lets go; ``verdict`` (the GM): accept, refuse or roll
  (WR-26);
- ``serious`` (the GM): the kind of a serious wound (WR-34).

A GM ruling adds none of its own: what must run after it runs at once (:func:`affray.rulesets.warp.leave.settle`).
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.dice import roll_die
from affray.core.engine import GM, Action, Rejected
from affray.core.events import Rolled
from affray.core.journal import Journal
from affray.core.json import JsonObject
from affray.core.rng import RNG
from affray.rulesets.warp.attack import count_field
from affray.rulesets.warp.events import Plea, Ruled, Verdict
from affray.rulesets.warp.gang import choose_gang, engaged, gang_choice_needed
from affray.rulesets.warp.mechanics import COVER, DARKNESS, MAX_GM_DICE
from affray.rulesets.warp.resolution import defense_options
from affray.rulesets.warp.rolls import fighting_capacity
from affray.rulesets.warp.state import Decision, Fighter, TraitRating, WarpState
from affray.rulesets.warp.turns import gm_decides
from affray.rulesets.warp.wounds import record_serious

Handler = Callable[[WarpState, RNG, Decision, Action, Journal], Rejected | None]


def initiative(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    f = state.fighters[d.actor]
    spend = count_field(action, "experience", f.experience, "Experience Pool dice")
    if isinstance(spend, Rejected):
        return spend
    f.initiative_experience = spend
    return None


def _defense_trait(f: Fighter, options: list[TraitRating | None], action: Action) -> Rejected | str | None:
    if "trait" not in action:
        top = options[0]
        return None if top is None else str(top.id)
    tid = action["trait"]
    if tid is None:
        return None
    if not isinstance(tid, str) or tid not in f.traits:
        return Rejected("unknown_trait", f"{f.name} has no trait called '{tid}'.")
    if all(o is None or o.id != tid for o in options):
        return Rejected(
            "unsuitable_trait",
            f"{f.traits[tid].name} cannot defend now (wrong use, or already used to attack this round: WR-09).",
        )
    return tid


def _normal(state: WarpState, d: Decision, action: Action) -> Rejected | list[str] | None:
    a = state.attack
    assert a is not None
    if not gang_choice_needed(state, a):
        return None
    t = state.fighters[a.target]
    close = engaged(state, t)
    need = min(fighting_capacity(t), len(close))
    normal = action.get("normal")
    if not isinstance(normal, list) or len(set(map(str, normal))) != need or any(n not in close for n in normal):
        return Rejected(
            "bad_choice",
            f"Outnumbered: name exactly {need} of {', '.join(close)} in 'normal', "
            "the attackers defended against normally (WR-31).",
        )
    return [str(n) for n in normal]


def defend(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    a = state.attack
    assert a is not None
    t = state.fighters[a.target]
    trait = _defense_trait(t, defense_options(state, a), action)
    if isinstance(trait, Rejected):
        return trait
    spend = count_field(action, "experience", t.experience, "Experience Pool dice")
    if isinstance(spend, Rejected):
        return spend
    dodge = action.get("dodge", True)
    if not isinstance(dodge, bool):
        return Rejected("bad_field", "'dodge' is true or false.")
    normal = _normal(state, d, action)
    if isinstance(normal, Rejected):
        return normal
    a.defense_trait, a.dodge, a.defense_experience = trait, dodge, spend
    t.experience -= spend
    if normal is not None:
        choose_gang(state, t, normal, events)
    return None


def _gm_count(action: Action, key: str, low: int = 0) -> Rejected | int:
    value = action.get(key, low)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_GM_DICE * 4:
        return Rejected("bad_count", f"'{key}' must be a whole number from {low} (got {value!r}).")
    return value


def ruling(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    a = state.attack
    assert a is not None
    bonus, penalty, margin = _gm_count(action, "bonus"), _gm_count(action, "penalty"), _gm_count(action, "margin")
    if isinstance(bonus, Rejected):
        return bonus
    if isinstance(penalty, Rejected):
        return penalty
    if isinstance(margin, Rejected):
        return margin
    if bonus > MAX_GM_DICE or penalty > MAX_GM_DICE:
        return Rejected("bad_count", f"The GM grants at most {MAX_GM_DICE} bonus or penalty dice at once.")
    cover, dark = action.get("cover", a.cover), action.get("darkness", a.darkness)
    if cover not in COVER or dark not in DARKNESS:
        return Rejected("bad_field", f"cover is one of {', '.join(COVER)}; darkness one of {', '.join(DARKNESS)}.")
    flag = action.get("predictable", False)
    if not isinstance(flag, bool):
        return Rejected("bad_field", "'predictable' is true or false.")
    a.gm_bonus, a.gm_penalty = bonus, penalty
    a.margin, a.cover, a.darkness, a.gm_predictable = margin, str(cover), str(dark), flag
    keys = ("bonus", "penalty", "predictable", "margin", "cover", "darkness")
    shown: JsonObject = {k: action[k] for k in keys if k in action}
    events.append(Ruled(a.attacker, shown))
    return None


def plea(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    f = state.fighters[d.actor]
    if action["type"] == "let_go":
        events.append(Plea(f.id, ""))
        _settle(f, False, "let go", events)
        return None
    reason = action.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        return Rejected("bad_field", 'Tell the GM the reason to live: {"type": "plea", "reason": "..."}.')
    events.append(Plea(f.id, reason.strip()))
    if gm_decides(state):
        state.decisions.append(Decision("verdict", GM, f.id, {"reason": reason.strip()}))
        return None
    rule = state.options.reason_to_live
    if rule == "roll":
        _roll_for_life(state, rng, f, events)
    else:
        _settle(f, rule == "accept", f"the GM's standing answer: {rule}", events)
    return None


def _roll_for_life(state: WarpState, rng: RNG, f: Fighter, events: Journal) -> None:
    r = roll_die(rng, 6)
    events.append(Rolled(GM, "reason to live", r))
    _settle(f, r.total >= state.options.reason_to_live_roll, f"the GM rolls {r.total}", events)


def _settle(f: Fighter, lives: bool, how: str, events: Journal) -> None:
    f.status = "down" if lives else "dead"
    f.down_state = "clinging to life: needs medical attention" if lives else "dead"
    events.append(Verdict(f.id, lives, how))


def verdict(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    f = state.fighters[d.about]
    if action.get("roll") is True:
        _roll_for_life(state, rng, f, events)
        return None
    lives = action.get("lives")
    if not isinstance(lives, bool):
        return Rejected("bad_field", 'Answer with {"type": "verdict", "lives": true/false} or {"roll": true}.')
    _settle(f, lives, "the GM " + ("accepts the reason" if lives else "refuses the reason"), events)
    return None


def serious(state: WarpState, rng: RNG, d: Decision, action: Action, events: Journal) -> Rejected | None:
    kind = action.get("wound")
    if kind not in ("mis_heal", "fatal", "none"):
        return Rejected("bad_field", "'wound' is mis_heal, fatal or none (WR-34).")
    loss = action.get("daily_loss", state.options.serious_wound_daily_loss)
    if kind == "fatal" and (isinstance(loss, bool) or not isinstance(loss, int) or not 1 <= loss <= 15):
        return Rejected("bad_count", "A fatal wound costs 1 to 15 HP a day (WR-34).")
    record_serious(
        state, state.fighters[d.about], str(kind), loss if kind == "fatal" and isinstance(loss, int) else 0, events
    )
    return None


HANDLERS: dict[str, tuple[tuple[str, ...], Handler]] = {
    "initiative": (("initiative",), initiative),
    "defend": (("defend",), defend),
    "ruling": (("rule",), ruling),
    "plea": (("plea", "let_go"), plea),
    "verdict": (("verdict",), verdict),
    "serious": (("serious",), serious),
}
