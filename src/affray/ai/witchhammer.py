"""A heuristic policy for WitchHammer, working only from the seat's view and the legal actions.

Planning: it scores every Action card in hand by what it would do from where the combatant stands, using
the exact mean damage of the ruleset's own :func:`~affray.rulesets.witchhammer.mechanics.attack` over the
d20 (cached by attack margin), plus the worth of its Defense against the foes who can reach it, Poise
regained when winded, and status effects; then it fills slot 1 with the best card and slot 2 with the best
of the rest from where slot 1 leaves it, and commits both at once. Psych: it plays its best reusable Psych
card, and a one-shot only in the first vignette. It never looks at other combatants' face-down cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from affray.core.engine import Action, ActionSpec
from affray.core.rng import RNG
from affray.rulesets.witchhammer.mechanics import RANGES, SOLID_HIT, attack, defense_against

Fighter = dict[str, Any]


def _dist(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@cache
def mean_damage(margin: int, on_hit: int, on_solid: int) -> tuple[float, float]:
    """Mean damage and hit chance of an attack with ``margin`` = bonus - defense, over the 20 d20 faces."""
    total, hits = 0.0, 0
    for natural in range(1, 21):
        r = attack(natural, margin, 0)
        if r.hit:
            hits += 1
            damage = r.damage + on_hit
            total += damage + (on_solid if r.damage >= SOLID_HIT else 0)
        total += r.bonus_wounds * 2  # a Crit's Wound hurts more than a point of Poise
    return total / 20, hits / 20


def _defense(target: Fighter, aspects: list[str], statuses: dict[str, Any]) -> int:
    normal = target["defense"] + target["mods"]["defense"] + 1  # +1: a typical face-down card's Defense
    aspect = sum(target["defenses"].get(a, 0) + target["mods"]["defenses"].get(a, 0) for a in aspects if a != "melee")
    return defense_against(normal, aspect, "melee" in aspects, target["malus"])


def _status_worth(status: dict[str, Any] | None) -> float:
    if status is None:
        return 0.0
    worth: float = (abs(status["attack"]) * 1.5 + abs(status["defense"]) + abs(status["init"]) * 0.3
             + abs(status["malus"]) * 2 + abs(status["move"]) * 0.3)
    worth += status["tick_wounds"] * 3 + status["tick_damage"] + (4 if status["skip_turn"] else 0)
    return worth


class Planner:
    """Scores cards for one combatant from one view."""

    def __init__(self, view: dict[str, Any], actor: str) -> None:
        self.view = view
        self.me: Fighter = view["fighters"][actor]
        self.cards: dict[str, Any] = view["cards"]
        self.statuses: dict[str, Any] = view["statuses"]
        self.foes = [f for f in view["fighters"].values() if not f["out"] and f["side"] != self.me["side"]]
        pos = self.me["pos"]
        self.threats = sum(1 for f in self.foes if _dist(pos, f["pos"]) <= 5)

    def nearest(self, pos: Sequence[int]) -> Fighter | None:
        return min(self.foes, key=lambda f: _dist(pos, f["pos"])) if self.foes else None

    def score(self, card_id: str, gap: int) -> tuple[float, int]:
        """The card's worth if played ``gap`` squares from the nearest foe, and the gap it leaves."""
        card = self.cards[card_id]
        me = self.me
        worth = (card["defense"] + 0.2 * card["init"]) * 0.9 * max(self.threats, 1)
        missing = me["max_poise"] - me["poise"]
        for node in card["below"]:
            kind = node["type"]
            if kind == "move":
                step = node["distance"] + me["mods"]["move"]
                gap = max(1, gap - step) if node["direction"] == "toward" else gap + step
            elif kind == "attack":
                worth += self._attack_worth(node, gap)
            elif kind == "recover":
                worth += 0.6 * min(missing, node["poise"])
                missing = max(0, missing - node["poise"])
            elif kind == "damage" and node["to"] == "self":
                worth -= 0.5 * node["amount"]
        if card["one_shot"]:
            worth -= 3
        return worth, gap

    def _attack_worth(self, node: dict[str, Any], gap: int) -> float:
        if gap > RANGES[node["range"]]:
            return -1.0
        foe = self.nearest(self.me["pos"])
        if foe is None:
            return 0.0
        me = self.me
        bonus = node["attack"] + me["attack"] + me["mods"]["attack"] + me["malus"]
        margin = bonus - _defense(foe, node["aspects"], self.statuses)
        on_hit = sum(n["amount"] for n in node["on_hit"] if n["type"] == "damage")
        on_solid = me["solid_damage"] + sum(n["amount"] for n in node["on_solid_hit"] if n["type"] == "damage")
        mean, chance = mean_damage(max(-40, min(40, margin)), on_hit, on_solid)
        extras = sum(_status_worth(self.statuses.get(n.get("status", ""))) for n in node["on_hit"])
        hits = len(self.foes) if node["target"] == "each_enemy" else 1
        return (mean + chance * extras) * hits * 1.6

    def plan(self) -> list[str]:
        hand = dict(self.me["hand"])
        playable = [c for c, n in hand.items() if n > 0 and self.cards[c]["kind"] == "action"]
        foe = self.nearest(self.me["pos"])
        gap = _dist(self.me["pos"], foe["pos"]) if foe is not None else 0
        chosen: list[str] = []
        for _ in range(2 - len(self.me["slots"])):
            best: tuple[float, str, int] | None = None
            for c in playable:
                if hand[c] <= 0:
                    continue
                worth, after = self.score(c, gap)
                if best is None or worth > best[0]:
                    best = (worth, c, after)
            if best is None:
                break
            chosen.append(best[1])
            hand[best[1]] -= 1
            gap = best[2]
        return chosen

    def psych(self) -> str | None:
        best: tuple[float, str] | None = None
        for c, n in self.me["hand"].items():
            card = self.cards[c]
            if n <= 0 or card["kind"] != "psych" or (card["one_shot"] and self.view["vignette"] > 1):
                continue
            worth = 0.0
            for node in card["below"]:
                worth += _status_worth(self.statuses.get(node.get("status", ""))) + node.get("poise", 0) * 0.3
                worth += sum(_status_worth(self.statuses.get(s.get("status", ""))) for s in node.get("on_fail", []))
                for sub in node.get("on_success", []):
                    worth += sum(_status_worth(self.statuses.get(s.get("status", ""))) for s in sub.get("on_fail", []))
            if best is None or worth > best[0]:
                best = (worth, c)
        return best[1] if best is not None else None


class WitchHammerHeuristic:
    name = "heuristic"

    def choose(self, view: dict[str, Any], legal: Sequence[ActionSpec], rng: RNG) -> Action:
        phase = view["pending"]["phase"]
        if phase not in ("psych", "planning"):
            return legal[0].action
        planner = Planner(view, view["acting"])
        cards: list[str]
        if phase == "psych":
            card = planner.psych() if planner.me["psych"] is None else None
            cards = [card] if card is not None else []
        else:
            cards = planner.plan()
        wanted: Action = {"type": "commit", "cards": cards} if cards else {"type": "ready"}
        if (planner.me["psych"] is None) if phase == "psych" else not planner.me["slots"]:
            return wanted  # nothing placed yet: every ordered pair of cards in hand is listed (planning.legal)
        for spec in legal:
            if spec.action == wanted:
                return spec.action
        return {"type": "ready"}
