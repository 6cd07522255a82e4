"""Money and hats: the 1d100 starting silver, the ledger, hat values, outré hats and the party leader.

Rules: WH-37 (1d100 silver; the leader is the PC with the most valuable hat, base value plus attachments; too
many of one kind of item is outré). Rulings WH-C4 (the outré threshold), WH-C5 (ties), WH-C8 (the roll is made on
the engine's verifiable dice and its seed recorded), WH-C9 (the ledger). See ``docs/characters.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from affray.core.dice import roll_die
from affray.core.events import Rolled
from affray.core.rng import RNG, VerifiableRNG, commitment_of, derive_die
from affray.rulesets.witchhammer.characters.sheet import OUTRE_AT, Hat, Money, MoneyRoll


def roll_starting_silver(rng: VerifiableRNG, actor: str = "character", die: int = 100) -> tuple[MoneyRoll, Rolled]:
    """Roll 1d100 silver on ``rng`` (WH-37) and record it with the seed, its commitment and the draw index, so
    anyone can re-derive it (ruling WH-C8). Returns the record and the ``Rolled`` event for the log."""
    roll = roll_die(rng, die, notation=f"1d{die}")
    record = MoneyRoll(
        notation=f"1d{die}", value=roll.total, draw=roll.dice[0].draw, seed=rng.seed.hex(), commitment=rng.commitment
    )
    return record, Rolled(actor, "starting silver", roll)


def roll_problems(roll: MoneyRoll) -> list[str]:
    """Why a recorded roll does not re-derive (empty when it does, or when nothing can be checked)."""
    out = []
    sides = int(roll.notation[2:])
    if roll.value > sides:
        out.append(f"{roll.value} cannot come from {roll.notation}")
    if roll.seed is not None:
        seed = bytes.fromhex(roll.seed)
        if roll.commitment is not None and commitment_of(seed) != roll.commitment:
            out.append("the seed does not match its commitment")
        derived = derive_die(seed, roll.draw, sides)
        if derived != roll.value:
            out.append(f"draw {roll.draw} of that seed on a d{sides} is {derived}, not {roll.value}")
    return out


def hat_problems(hat: Hat, money: Money | None) -> list[str]:
    """A hat is paid for (WH-37; ruling WH-C10): the ledger spends its whole value, base plus attachments, on
    lines ``hat: NAME``. A hat that was given or inherited is a gain and a spending line, so the books show it."""
    if hat.total == 0:
        return []
    paid = -sum(e.silver for e in (money.ledger if money else []) if e.what == f"hat: {hat.name}" and e.silver < 0)
    if paid >= hat.total:
        return []
    return [
        f"a hat paid for: '{hat.name}' is worth {hat.total} silver but money.ledger spends {paid} on "
        f"'hat: {hat.name}' (WH-37, ruling WH-C10)"
    ]


def ledger_problems(money: Money) -> list[str]:
    """The silver on hand must equal the roll plus the ledger, and never go below 0 on the way (WH-C9)."""
    balance = money.roll.value
    for n, entry in enumerate(money.ledger):
        balance += entry.silver
        if balance < 0:
            return [
                f"ledger[{n}] ({entry.what}) spends {-entry.silver} silver with only {balance - entry.silver} on hand"
            ]
    if balance != money.silver:
        return [f"silver is {money.silver}, but the roll ({money.roll.value}) and the ledger make {balance}"]
    return []


def outre(hat: Hat, at: int = OUTRE_AT) -> dict[str, int]:
    """Kinds attached to ``hat`` ``at`` times or more (ruling WH-C4), with their counts. Kinds compare without
    case or surrounding spaces ('Garnet' and 'garnet ' are one kind)."""
    counts = Counter(g.kind.strip().lower() for g in hat.gems)
    return {kind: n for kind, n in sorted(counts.items()) if n >= at}


@dataclass(frozen=True, slots=True)
class Leadership:
    """Who leads (WH-37) and why. ``leader`` is ``None`` when a tie is left for the table (no dice given).

    ``ranking``: ``(who, total value, base value)`` best first; ``roll_off``: the d20 rolls of each round of a
    roll-off, in the order rolled; ``reason``: one sentence.
    """

    leader: str | None
    ranking: list[tuple[str, int, int]]
    reason: str
    tied: list[str] = field(default_factory=list)
    roll_off: list[dict[str, int]] = field(default_factory=list)


def party_leader(hats: Mapping[str, Hat | None], rng: RNG | None = None) -> Leadership:
    """The party leader: the most valuable hat, base value plus attachments (WH-37).

    Ruling WH-C5: a PC without a hat counts 0; a tie on the total goes to the finer hat (the higher base value,
    since the gems can be moved but the hat is the hat); a tie on both is a d20 roll-off among the tied, again
    until one is highest (X-4: the last tie-breaker is a seeded roll), or, without ``rng``, left to the table.
    Outré hats count at full value: the rule flags them as gauche, not cheap.
    """
    if not hats:
        raise ValueError("a party needs at least one character")
    ranking = sorted(
        ((who, h.total if h else 0, h.value if h else 0) for who, h in hats.items()), key=lambda r: (-r[1], -r[2], r[0])
    )
    best = ranking[0]
    top = [who for who, total, base in ranking if (total, base) == best[1:]]
    if len(top) == 1:
        second = ranking[1] if len(ranking) > 1 else None
        why = (
            f"{best[0]}'s hat is worth {best[1]} silver, the most in the party"
            if second is None or second[1] < best[1]
            else f"{best[0]}'s and {second[0]}'s hats are both worth {best[1]} silver; {best[0]}'s hat itself is "
            f"finer ({best[2]} against {second[2]})"
        )
        return Leadership(best[0], ranking, why)
    if rng is None:
        return Leadership(
            None,
            ranking,
            f"{', '.join(top)} tie at {best[1]} silver with hats of equal base value; "
            "the table settles it (or give dice for a roll-off)",
            tied=top,
        )
    rounds: list[dict[str, int]] = []
    contenders = sorted(top)
    while len(contenders) > 1:
        rolls = {who: rng.die(20) for who in contenders}
        rounds.append(rolls)
        high = max(rolls.values())
        contenders = [who for who in contenders if rolls[who] == high]
    return Leadership(
        contenders[0],
        ranking,
        f"{', '.join(sorted(top))} tie at {best[1]} silver with hats of equal "
        f"base value; {contenders[0]} wins the d20 roll-off",
        tied=sorted(top),
        roll_off=rounds,
    )
