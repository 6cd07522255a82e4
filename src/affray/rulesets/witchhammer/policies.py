"""A heuristic policy for WitchHammer, working only from what its seat observes and its choices (core/policy.py).

Planning: it scores every Action card in hand by what it would do from where the combatant stands, using
the exact mean damage of the ruleset's own :func:`~affray.rulesets.witchhammer.mechanics.attack` over the
d20 (cached by attack margin), plus the worth of its Defense against the foes who can reach it, Poise
regained when winded, and status effects; then it fills slot 1 with the best card and slot 2 with the best
of the rest from where slot 1 leaves it, and commits both at once. Psych: it plays its best reusable Psych
card, and a one-shot only in the first vignette. It never looks at other combatants' face-down cards: it reads
the typed observation (:mod:`affray.rulesets.witchhammer.observe`), which shows what the seat's view shows.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from affray.core.engine import Action
from affray.core.policy import Choices, Observation, Policy
from affray.core.rng import RNG
from affray.rulesets.witchhammer.mechanics import RANGES, SOLID_HIT, attack, defense_against
from affray.rulesets.witchhammer.observe import SeenFighter, WitchHammerObservation
from affray.rulesets.witchhammer.state import Node
from affray.rulesets.witchhammer.view_types import CardInfo, StatusInfo

Card = CardInfo
READY: Action = {"type": "ready"}


@cache
def mean_damage(margin: int, on_hit: int, on_solid: int) -> tuple[float, float]:
    """Mean damage and hit chance of an attack with ``margin`` = bonus - defense, over the 20 d20 faces (a pure
    function of three small integers)."""
    total, hits = 0.0, 0
    for natural in range(1, 21):
        r = attack(natural, margin, 0)
        if r.hit:
            hits += 1
            total += r.damage + on_hit + (on_solid if r.damage >= SOLID_HIT else 0)
        total += r.bonus_wounds * 2  # a Crit's Wound hurts more than a point of Poise
    return total / 20, hits / 20


def status_worth(status: StatusInfo | None) -> float:
    """A rough worth of a status, whoever it lands on."""
    if status is None:
        return 0.0
    worth: float = (
        abs(status.attack) * 1.5
        + abs(status.defense)
        + abs(status.init) * 0.3
        + abs(status.malus) * 2
        + abs(status.move) * 0.3
    )
    return float(worth + status.tick_wounds * 3 + status.tick_damage + (4 if status.skip_turn else 0))


@dataclass(frozen=True, slots=True)
class Strike:
    attack: int
    aspects: tuple[str, ...]
    reach: int
    on_hit: int
    on_solid: int
    extras: float
    area: bool


@dataclass(frozen=True, slots=True)
class Profile:
    """What a card does, digested once per card: guard, steps (signed, + toward), strikes, Poise."""

    kind: str
    guard: float
    steps: tuple[tuple[int, Strike | None], ...]
    recover: int
    cost: float


def digest(card: Card, statuses: Mapping[str, StatusInfo]) -> Profile:
    """The card's :class:`Profile` (a pure function of the card and the status table)."""
    steps: list[tuple[int, Strike | None]] = []
    recover, cost = 0, 3.0 if card.one_shot else 0.0
    for node in card.nodes():
        if node["type"] == "move":
            steps.append((node["distance"] if node["direction"] == "toward" else -node["distance"], None))
        elif node["type"] == "attack":
            dmg = [n["amount"] for n in node["on_hit"] if n["type"] == "damage"]
            solid = [n["amount"] for n in node["on_solid_hit"] if n["type"] == "damage"]
            extras = sum(status_worth(statuses.get(n["status"])) for n in node["on_hit"] if n["type"] == "effect")
            steps.append(
                (
                    0,
                    Strike(
                        node["attack"],
                        tuple(node["aspects"]),
                        RANGES[node["range"]],
                        sum(dmg),
                        sum(solid),
                        extras,
                        node["target"] == "each_enemy",
                    ),
                )
            )
        elif node["type"] == "recover":
            recover += node["poise"]
        elif node["type"] == "damage" and node["to"] == "self":
            cost += 0.5 * node["amount"]
    return Profile(card.kind, card.defense + 0.2 * card.init, tuple(steps), recover, cost)


class Digests:
    """One policy's digests of one match's cards: card profiles, Psych worths and plans, remembered while the
    observed status table is the same object (the match's memo keeps it for the whole match, and for every match
    sharing its setup store; a match without one starts afresh). Plans repeat: every vignette of a scenario starts
    from few situations."""

    # no __slots__: one object per policy, and mypyc's compiled build (bench/mypyc_build.py) allows none

    def __init__(self) -> None:
        self.table: object = None
        self.profiles: dict[str, tuple[Card, Profile]] = {}
        self.psych: dict[str, tuple[bool, bool, float]] = {}  # card id -> (a Psych card, one-shot, worth)
        self.plans: dict[Hashable, list[str]] = {}  # by the situation a plan answers (Planner.plan's key)
        # the Psych card played from a hand (and whether one-shots are out): a few hands, again and again
        self.choices: dict[tuple[tuple[tuple[str, ...], tuple[int, ...]], bool], str | None] = {}

    def follow(self, statuses: Mapping[str, StatusInfo]) -> None:
        if statuses is not self.table:
            self.table = statuses
            self.profiles, self.psych, self.plans, self.choices = {}, {}, {}, {}

    def profile(self, card: Card, statuses: Mapping[str, StatusInfo]) -> Profile:
        hit = self.profiles.get(card.id)
        if hit is None or hit[0] is not card:
            hit = self.profiles[card.id] = (card, digest(card, statuses))
        return hit[1]


class Planner:
    """Scores cards for one combatant from what its seat observes."""

    def __init__(self, seen: WitchHammerObservation, me: SeenFighter, digests: Digests | None = None) -> None:
        self.seen = seen
        self.me = me
        # the hand as its cards and their free copies: what the plans and Psych choices are keyed by
        self.held: tuple[tuple[str, ...], tuple[int, ...]] = me.held or ((), ())
        self._cards: Mapping[str, Card] | None = None
        self.statuses: Mapping[str, StatusInfo] = seen.statuses
        self.digests = digests if digests is not None else Digests()
        if self.statuses is not self.digests.table:  # Digests.follow's question, asked here first: every decision
            self.digests.follow(self.statuses)
        # filled by _plan, when a plan is not remembered: Defense by aspects, a strike's worth when in reach
        self.defense: dict[tuple[str, ...], int]
        self.strikes: dict[Strike, float]

    @property
    def cards(self) -> Mapping[str, Card]:
        """The cards the seat may read, asked of the observation only when a digest is missing."""
        if self._cards is None:
            self._cards = self.seen.cards
        return self._cards

    def _survey(self) -> None:
        """Who the foes are, the nearest (the first listed among equals) and its distance, how many threaten
        (within 5 squares), and the bonuses: what plan() scores from."""
        me = self.me
        x, y = me.at
        foes = self.seen.enemies
        nearest, gap, threats = None, 0, 0
        for c in foes:
            cx, cy = c.at
            dx, dy = x - cx, y - cy
            dx, dy = (dx if dx >= 0 else -dx), (dy if dy >= 0 else -dy)
            d = dx if dx > dy else dy  # _dist, inline (no max, no abs): this runs for every decision
            if nearest is None or d < gap:
                nearest, gap = c, d
            if d <= 5:
                threats += 1
        self.foes, self.foe, self.gap, self.threats = foes, nearest, gap, max(1, threats)
        self.aim = nearest.guard if nearest is not None else None  # the nearest foe's Defense numbers
        self.bonus = me.attack_bonus
        self.step_bonus = me.mod_move
        self.solid = me.solid_damage

    def _defense(self, aspects: tuple[str, ...]) -> int:
        if aspects not in self.defense:
            assert self.aim is not None
            defense, mod_defense, sheet_items, mod_items, malus = self.aim
            normal = defense + mod_defense + 1  # +1: a typical face-down card's Defense
            sheet, mods = dict(sheet_items), dict(mod_items)
            aspect = sum(sheet.get(a, 0) + mods.get(a, 0) for a in aspects if a != "melee")
            self.defense[aspects] = defense_against(normal, aspect, "melee" in aspects, malus)
        return self.defense[aspects]

    def _strike(self, strike: Strike) -> float:
        worth = self.strikes.get(strike)
        if worth is None:
            margin = strike.attack + self.bonus - self._defense(strike.aspects)
            mean, chance = mean_damage(max(-40, min(40, margin)), strike.on_hit, strike.on_solid + self.solid)
            hits = len(self.foes) if strike.area else 1
            worth = self.strikes[strike] = (mean + chance * strike.extras) * hits * 1.6
        return worth

    def score(self, p: Profile, gap: int, missing: int) -> tuple[float, int]:
        """The card's worth if played ``gap`` squares from the nearest foe, and the gap it leaves."""
        worth = p.guard * 0.9 * self.threats - p.cost + 0.6 * min(missing, p.recover)
        for step, strike in p.steps:
            if strike is None:
                step += self.step_bonus if step > 0 else -self.step_bonus
                gap = max(1, gap - step) if step > 0 else gap - step
            elif gap > strike.reach or self.foe is None:
                worth -= 1.0
            else:
                worth += self._strike(strike)
        return worth, gap

    def plan(self) -> list[str]:
        """The cards for the empty slots; remembered for the match by everything the scores read, since the same
        situations come back."""
        self._survey()
        me, gap = self.me, self.gap
        missing = me.max_poise - me.poise
        held = self.held
        key = (
            held,
            me.placed,
            gap,
            missing,
            self.threats,
            self.bonus,
            self.step_bonus,
            self.solid,
            len(self.foes),
            self.aim,
        )
        memo = self.digests.plans
        chosen = memo.get(key)
        if chosen is None:
            if len(memo) >= 20_000:
                memo.clear()
            chosen = memo[key] = self._plan(held, gap, missing)
        return list(chosen)

    def _plan(self, held: tuple[tuple[str, ...], tuple[int, ...]], gap: int, missing: int) -> list[str]:
        self.defense, self.strikes = {}, {}
        hand = {c: n for c, n in zip(*held, strict=True) if n > 0 and self.cards[c].kind == "action"}
        profiles = {c: self.digests.profile(self.cards[c], self.statuses) for c in hand}
        chosen: list[str] = []
        for _ in range(2 - self.me.placed):
            best: tuple[float, str, int] | None = None
            for c, p in profiles.items():
                if hand[c] > 0:
                    worth, after = self.score(p, gap, missing)
                    if best is None or worth > best[0]:
                        best = (worth, c, after)
            if best is None:
                break
            chosen.append(best[1])
            hand[best[1]] -= 1
            missing = max(0, missing - profiles[best[1]].recover)
            gap = best[2]
        return chosen

    def psych(self) -> str | None:
        """The best Psych card in hand (a one-shot only in the first vignette), remembered by the hand."""
        later = self.seen.vignette > 1
        key = (self.held, later)
        memo = self.digests.choices
        chosen = memo.get(key, "")
        if chosen == "":
            if len(memo) >= 20_000:
                memo.clear()
            chosen = memo[key] = self._psych(later)
        return chosen

    @staticmethod
    def remembered_psych(seen: WitchHammerObservation, me: SeenFighter, digests: Digests) -> str | None:
        """:meth:`psych`'s answer when ``digests`` remember it, without making a planner (half of the decisions are
        Psych ones, and most are remembered); ``""`` when they do not."""
        statuses = seen.statuses
        if statuses is not digests.table:
            digests.follow(statuses)
        return digests.choices.get((me.held or ((), ()), seen.vignette > 1), "")

    def _psych(self, later: bool) -> str | None:
        best: tuple[float, str] | None = None
        digests = self.digests.psych  # by card id: the digests follow the setup's tables (Digests.follow)
        for c, n in zip(*self.held, strict=True):
            hit = digests.get(c)
            if hit is None:
                card = self.cards[c]
                psych = card.kind == "psych"
                hit = digests[c] = (psych, card.one_shot, self._psych_worth(card.nodes()) if psych else 0.0)
            if n <= 0 or not hit[0] or (hit[1] and later):
                continue
            if best is None or hit[2] > best[0]:
                best = (hit[2], c)
        return best[1] if best is not None else None

    def _psych_worth(self, nodes: Sequence[Node]) -> float:
        worth = 0.0
        for node in nodes:
            status = node["status"] if node["type"] == "effect" else ""
            poise = node["poise"] if node["type"] == "recover" else 0
            worth += status_worth(self.statuses.get(status)) + poise * 0.3
            if node["type"] == "save" or node["type"] == "check":  # the only nodes with outcomes of their own
                worth += 0.5 * (self._psych_worth(node["on_fail"]) + self._psych_worth(node["on_success"]))
        return worth


def observed(seen: Observation) -> WitchHammerObservation:
    """``seen`` as the WitchHammer observation it must be (``Ruleset.observe`` makes it)."""
    if not isinstance(seen, WitchHammerObservation):
        raise TypeError(f"a WitchHammer policy reads a WitchHammerObservation, not {type(seen).__name__}")
    return seen


class WitchHammerHeuristic:
    """Plans both Action cards at once by their scores (see the module docstring); in any other window (the GM's
    ruling on a failed death's-door save) the first listed action."""

    name = "heuristic"

    def __init__(self) -> None:
        self.digests = Digests()

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        obs = seen if type(seen) is WitchHammerObservation else observed(seen)  # observed(), at once when it is one
        phase, me = obs.phase, obs.me
        if phase not in ("psych", "planning") or me is None:
            return choices.all()[0].action
        cards: list[str]
        if phase == "psych":
            placed = me.psych_placed
            card = None
            if not placed:
                card = Planner.remembered_psych(obs, me, self.digests)
                if card == "":
                    card = Planner(obs, me, self.digests).psych()
            cards = [card] if card is not None else []
        else:
            placed = me.placed > 0
            cards = Planner(obs, me, self.digests).plan()
        wanted: Action = {"type": "commit", "cards": [*cards]} if cards else {"type": "ready"}
        if not placed:
            return wanted  # nothing placed yet: every ordered pair of cards in hand is listed (planning.legal)
        return wanted if choices.allows(wanted) else {"type": "ready"}


class Printed(Protocol):
    """What a steady plan reads of a card (a view's :class:`CardInfo` or the state's ``CardDef``)."""

    @property
    def kind(self) -> str: ...

    @property
    def one_shot(self) -> bool: ...


def steady_plan(deck: Mapping[str, int], cards: Mapping[str, Printed]) -> list[str]:
    """The steady plan: the first two reusable Action cards of the deck, in deck order (a card owned twice may
    fill both slots). Empty slots take the default card (WH-B18)."""
    plan: list[str] = []
    for card_id, copies in deck.items():
        card = cards.get(card_id)
        if card is None or card.kind != "action" or card.one_shot or copies <= 0:
            continue
        plan += [card_id] * min(copies, 2 - len(plan))
        if len(plan) == 2:
            break
    return plan


class WitchHammerSteady:
    """A fixed card plan whose one-on-one duels :mod:`affray.rulesets.witchhammer.duel` solves exactly.

    Every vignette the same two Action cards (:func:`steady_plan`: the first two reusable ones in deck order;
    a scenario's ``deck:`` list names them), and never a Psych card.
    """

    name = "steady"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        obs = observed(seen)
        me = obs.me
        if obs.phase != "planning" or me is None or me.placed:
            return {"type": "ready"} if choices.allows(READY) else choices.all()[0].action
        return {"type": "commit", "cards": [*steady_plan(me.deck or {}, obs.cards)]}


#: The policies this ruleset offers, by name (its plug-in record lists them; ``random`` serves every ruleset).
#: The ruleset's policies by name, as its plug-in record hands them out (each a factory of a fresh policy).
POLICIES: dict[str, Callable[[], Policy]] = {"heuristic": WitchHammerHeuristic, "steady": WitchHammerSteady}
