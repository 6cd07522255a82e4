"""Drawing WaRP states for a seat: the ruleset's :class:`~affray.core.plugin.Sampler` (the ``search`` policy's
look-ahead, :mod:`affray.ai.search`).

What a seat may not see (``WarpRuleset.gm_secrets`` and ``secrets``, the views): a GM character's numbers, unless the
seat is the GM's or plays it (hit points, temporary damage, the recovery ceiling, experience, traits and flaws, the
weapons it carries beyond the one in hand, its armour's dice, its trait locks, the cover it could reach, its serious
wounds and the size of its initiative pool); the trait and Experience Pool dice of an attack it declared, which the
attack's view leaves out; and in gestalt combat (WR-35) a GM side's rolls until the result. WaRP has no face-down
choice. :func:`known` keeps everything else of the state, takes those out, and keeps what everyone sees of such a
character: its name, side, place, status, whether it looks Messed Up (WR-24), the weapon in hand and the names of
the armour it wears. :func:`draw` puts them back, drawn:

- a **closed sheet** is one of the GM characters of the ruleset's own content (the public stat blocks), drawn
  among those that carry the weapon in hand and wear that armour (else among those that carry the weapon, else among
  them all); its hit points are full when it does not look Messed Up, else drawn among the values that look so;
- an **attack** a closed character declared uses its best trait for the attack and no Experience Pool dice;
- a **hidden gestalt roll** is rolled again for the drawn character, with its best combat trait (as the GM rolls
  them, WR-35).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from affray.core.journal import QUIET
from affray.core.plugin import Drawn, Frozen, Sampler
from affray.core.policy import Observation
from affray.core.rng import RNG
from affray.rulesets.warp.content_model import WarpCombatant
from affray.rulesets.warp.gestalt import combat_traits, gm_side
from affray.rulesets.warp.mechanics import messed_up
from affray.rulesets.warp.observe import WarpObservation
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.rolls import Mods, agility_related, best, roll, standing
from affray.rulesets.warp.ruleset import builtin_content
from affray.rulesets.warp.setup import CombatantSetup, _combatant, build_fighter
from affray.rulesets.warp.state import UNARMED, Fighter, Protection, WarpState


@dataclass(frozen=True, slots=True)
class WarpKnown:
    """What one seat knows of a WaRP match (see the module docstring): ``redacted``, the state with what the seat may
    not see taken out; ``closed``, the characters whose numbers it may not see; ``rolled``, the characters whose
    gestalt roll it may not see."""

    redacted: Frozen[WarpState]
    closed: tuple[str, ...]
    rolled: tuple[str, ...]


def _close(f: Fighter) -> None:
    """Take out of ``f`` the numbers of a closed sheet (see the module docstring), keeping what everyone sees."""
    f.hp = f.max_hp = f.ceiling = f.stun = f.experience = 0
    f.traits, f.flaws, f.locks, f.serious = {}, [], {}, []
    f.arms = {w: a for w, a in f.arms.items() if w in (f.wielding, UNARMED)}
    f.carried = {f.wielding: 1} if f.wielding != UNARMED else {}
    f.armour = Protection(f.armour.names)
    f.cover_nearby = "none"
    f.initiative_pool = f.initiative_experience = 0


def known(seen: Observation) -> WarpKnown:
    """What the seat of ``seen`` knows (see the module docstring)."""
    if not isinstance(seen, WarpObservation):
        raise TypeError(f"the WaRP sampler reads a WaRP observation, not {type(seen).__name__}")
    state, viewer = seen._state, seen._viewer  # the ruleset's own observation; what the seat may not see goes below
    copy: WarpState = Frozen(state, (state.options, state.maneuvers)).copy()
    closed = [a for a, f in state.fighters.items() if not (f.pc or viewer.may_see(a))]
    for a in closed:
        _close(copy.fighters[a])
    attack = copy.attack
    if attack is not None and attack.attacker in closed:
        attack.trait, attack.experience = None, 0
    if attack is not None and attack.target in closed:
        attack.defense_trait, attack.defense_experience = None, 0
    rolled: list[str] = []
    g = copy.gestalt
    if g is not None and not g.resolved and not viewer.omniscient:
        rolled = [a for a in g.rolls if gm_side(state, state.fighters[a].side) and not viewer.may_see(a)]
        for a in rolled:
            del g.rolls[a]
        hidden = {state.fighters[a].side for a in rolled}
        g.totals = {side: total for side, total in g.totals.items() if side not in hidden}
    redacted = Frozen(copy, (state.options, state.maneuvers))
    return WarpKnown(redacted, tuple(closed), tuple(rolled))


@lru_cache(maxsize=64)
def _stat_block(character: str) -> CombatantSetup:
    """A GM character of the built-in content as a setup builds it (read-only: the content never changes)."""
    return _combatant(f"content: {character}", "", WarpCombatant(id="drawn", use=character), builtin_content())


def _stat_blocks(f: Fighter) -> list[str]:
    """The content's GM characters ``f`` could be, from what everyone sees of it (see the module docstring)."""
    content = builtin_content()
    characters = content.sections.get("characters", {})
    armour = content.sections.get("armour", {})
    gm = [cid for cid, ch in sorted(characters.items()) if not ch.pc]
    wielding = [cid for cid in gm if f.wielding == UNARMED or f.wielding in characters[cid].weapons]
    worn = [
        cid
        for cid in wielding
        if tuple(armour[a].name for a in characters[cid].armour if a in armour) == f.armour.names
    ]
    return worn or wielding or gm


def _open(f: Fighter, options: WarpOptions, rng: RNG) -> str:
    """Draw the numbers of ``f``'s closed sheet (see the module docstring); the content character drawn."""
    blocks = _stat_blocks(f)
    if not blocks:  # no GM character in the content: an untrained character of the default hit points (WR-B9)
        f.max_hp = f.hp = f.ceiling = options.default_hp
        return ""
    block = blocks[rng.die(len(blocks)) - 1]
    d = build_fighter(_stat_block(block), options)
    wielded = f.arms.get(f.wielding)
    f.traits, f.flaws, f.experience, f.max_hp = d.traits, d.flaws, d.experience, d.max_hp
    f.arms = {**d.arms, **({f.wielding: wielded} if wielded is not None else {})}
    f.carried = {**d.carried, **({f.wielding: max(1, d.carried.get(f.wielding, 0))} if f.wielding != UNARMED else {})}
    a = d.armour
    f.armour = Protection(f.armour.names, a.dice, a.flat, a.bullet_dice, a.penalty_dice)
    looks = [h for h in range(1, d.max_hp + 1) if messed_up(h, d.max_hp, options.half_hp_is_messed_up) == f.messed]
    if f.out or not f.messed or not looks:
        f.hp = d.max_hp if not f.out else min(0, f.hp)
    else:
        f.hp = looks[rng.die(len(looks)) - 1]
    f.ceiling = max(f.hp, 0)
    return block


def _reroll(state: WarpState, f: Fighter, rng: RNG) -> int:
    """A gestalt roll as the GM makes it for a GM character: its best combat trait, no Experience (WR-35)."""
    traits = combat_traits(f)
    trait = traits[0] if traits else None
    use = "melee" if trait is None or "melee" in trait.uses else "ranged"
    mods = standing(state, f, use, agility_related(state, trait, use), Mods())
    return roll(state, rng, f, "gestalt", trait, mods, QUIET, secret=True)


def draw(knowledge: WarpKnown, rng: RNG) -> Drawn:
    """A whole state consistent with ``knowledge`` (see the module docstring). Its ``setup``: the characters'
    content characters drawn (their traits, weapons and armour, which static views are built from)."""
    state: WarpState = knowledge.redacted.copy()
    drawn = []
    for a in knowledge.closed:
        drawn.append((a, _open(state.fighters[a], state.options, rng)))
    attack = state.attack
    if attack is not None and attack.attacker in knowledge.closed:
        trait = best(state.fighters[attack.attacker], attack.mode, "attack", attack.weapon)
        attack.trait = trait.id if trait is not None else None
    g = state.gestalt
    if g is not None:
        for a in knowledge.rolled:
            g.rolls[a] = _reroll(state, state.fighters[a], rng)
    return Drawn(state, tuple(drawn))


SAMPLER = Sampler(known, draw)
