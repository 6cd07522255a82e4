"""One attack node on the board: target, range, position, Defense, the roll, damage and triggered effects.

Rules: WH-09 (out of range fizzles, no roll), WH-10 (ranges), WH-11 (attack bonus), WH-12..WH-14 and WH-B16
(Defense, aspects, non-melee halving), WH-15..WH-18 (value, hits, Solid Hits, crits), WH-19 and WH-B3..WH-B5
(damage), WH-25/WH-26 (from behind, flanking), WH-B14/WH-B15 (facing, sides), WH-A3 (the flank partner).
"""

from __future__ import annotations

from affray.core.grid import behind, direction, flanks
from affray.rulesets.witchhammer import targeting
from affray.rulesets.witchhammer.effects import Turn, defense_value, locked
from affray.rulesets.witchhammer.events import Attacked, Fizzled
from affray.rulesets.witchhammer.mechanics import (
    BEHIND_BONUS,
    FLANK_BONUS,
    RANGES,
    SOLID_HIT,
    attack_roll,
    defense_against,
)
from affray.rulesets.witchhammer.state import AttackNode, Fighter, Node, WitchHammerState
from affray.rulesets.witchhammer.wounds import d20, hurt, malus_of

FollowUp = tuple[Fighter, list[Node]]


def resolve(state: WitchHammerState, turn: Turn, node: AttackNode) -> list[FollowUp]:
    """Resolve an attack node; return the triggered on-hit / on-Solid-Hit nodes with their target."""
    reach = RANGES[node["range"]]
    f = turn.actor
    if node["target"] == "each_enemy":
        foes = targeting.group(state, f, "each_enemy", reach)
        if not foes and turn.journal.loud:
            turn.journal.append(Fizzled(f.id, turn.card, "no enemy in range"))
        out: list[FollowUp] = []
        for foe in foes:
            out += strike(state, turn, foe, node)
        return out
    target = locked(state, turn, node["target"])
    if target is None or target.out:  # no one, or not up
        if turn.journal.loud:
            turn.journal.append(Fizzled(f.id, turn.card, "no target"))
        return []
    (ax, ay), (bx, by) = f.pos, target.pos
    dx, dy = ax - bx, ay - by
    if not (-reach <= dx <= reach and -reach <= dy <= reach):  # WH-09 (grid distance, inline): out of range; no roll
        if turn.journal.loud:
            turn.journal.append(Fizzled(f.id, turn.card, f"{target.name} is out of {node['range']} range"))
        return []
    return strike(state, turn, target, node)


def target_defense(state: WitchHammerState, t: Fighter, aspects: list[str]) -> int:
    """Defense against an attack with ``aspects``: full or halved normal Defense, plus the matching aspect
    Defenses, minus the Malus once. Rules: WH-12, WH-13, WH-14, WH-B16."""
    card = t.card
    normal = t.defense + t.mod_defense + (card.defense if card is not None else 0)  # the card in force's
    aspect = 0
    for a in aspects:
        if a != "melee":
            aspect += defense_value(t, a)
    return defense_against(normal, aspect, "melee" in aspects, malus_of(state, t), state.options.halve_rounding)


def position_bonus(state: WitchHammerState, f: Fighter, t: Fighter) -> tuple[int, list[str]]:
    """+5 from behind and +4 flanking; they stack. Rules: WH-25, WH-26, WH-B14, WH-B15, WH-A3."""
    (tx, ty), (fx, fy) = t.pos, f.pos
    dx, dy = fx - tx, fy - ty
    if not (-1 <= dx <= 1 and -1 <= dy <= 1) or dx == dy == 0:  # not adjacent (inline): every blow asks
        return 0, []
    bonus, tags = 0, []
    if state.options.facing != "none" and behind(f.pos, t.pos, t.facing):
        bonus, tags = BEHIND_BONUS, ["behind"]
    mode, need_attack = state.options.flank_mode, state.options.flank_partner == "attacking"
    for g in state.fighters.values():
        if g is f or g.out or g.side != f.side:
            continue
        gx, gy = g.pos
        dx, dy = gx - tx, gy - ty
        if not (-1 <= dx <= 1 and -1 <= dy <= 1) or dx == dy == 0:  # not adjacent to the target
            continue
        if need_attack and not (g.card is not None and any(n["type"] == "attack" for n in g.card.below)):
            continue
        if flanks(f.pos, g.pos, t.pos, mode):
            return bonus + FLANK_BONUS, [*tags, "flank"]
    return bonus, tags


def _bonus_damage(nodes: list[Node]) -> int:
    """Damage nodes aimed at the target add to the attack's damage before penetration (WH-B5)."""
    return sum(n["amount"] for n in nodes if n["type"] == "damage" and n["to"] == "target")


def _others(nodes: list[Node]) -> list[Node]:
    return [n for n in nodes if not (n["type"] == "damage" and n["to"] == "target")]


def strike(state: WitchHammerState, turn: Turn, t: Fighter, node: AttackNode) -> list[FollowUp]:
    """Roll one attack against ``t`` and apply it (WH-11..WH-19, WH-B4, WH-B5)."""
    f, opts = turn.actor, state.options
    pos_bonus, tags = position_bonus(state, f, t)
    bonus = node["attack"] + f.attack + f.mod_attack + malus_of(state, f) + pos_bonus
    defense = target_defense(state, t, node["aspects"])
    journal = turn.journal
    # a quiet journal records no roll: the one d20 straight from the dice (wounds.d20 draws the same)
    natural = d20(turn.rng, f.id, "attack", bonus - defense, journal) if journal.loud else turn.rng.die(20)
    r = attack_roll(natural, bonus - defense, opts.clamp_margin)
    damage, solid = r.damage, r.solid
    on_hit, on_solid = node["on_hit"], node["on_solid_hit"]
    if r.hit:
        damage += _bonus_damage(on_hit) if on_hit else 0
        if opts.solid_hit_on == "total":
            solid = damage >= SOLID_HIT
        if solid:
            damage += f.solid_damage + (_bonus_damage(on_solid) if on_solid else 0)
    if journal.loud:
        result = "fumble" if r.fumble else ("solid" if solid else ("hit" if r.hit else "miss"))
        turn.journal.append(
            Attacked(f.id, t.id, turn.card, natural, bonus, defense, r.value, damage, result, r.crit, tags)
        )
    if not turn.moved:
        f.facing = direction(f.pos, t.pos)  # WH-B14: face the target when it did not move
    crit_wounds = r.bonus_wounds if (opts.crit_wound == "always" or r.hit) else 0
    if damage or crit_wounds:
        source = f"{f.name}'s {turn.card}" if journal.loud else ""  # only events name the source
        hurt(
            state,
            t,
            damage,
            turn.rng,
            journal,
            source,
            bonus_wounds=crit_wounds,
            poise_only=node["poise_only"],
            from_attack=True,
            by=f,
        )
    follow: list[FollowUp] = []  # an empty follow-up list would resolve nothing, so none is made
    if r.hit:
        if on_hit:
            follow.append((t, _others(on_hit)))
        if solid and on_solid:
            follow.append((t, _others(on_solid)))
    return follow
