"""The ``search`` policy: at each decision it tries its legal choices with simulated continuations and keeps the one
that wins most often for its side (docs/simulation.md, "The search policy").

It is written once over the engine's interface and names no ruleset. What it needs of one comes from its plug-in
record (:mod:`affray.core.plugin`): the rules, the policies that play the continuations (``heuristic`` where the
ruleset has one, else ``random``) and the :class:`~affray.core.plugin.Sampler` that draws whole states consistent
with what the seat may see. So the policy never reads the true state: it reads its observation, as every policy
does, and hands it to the sampler, whose knowledge holds nothing the seat may not see (``tests/ai``).

One decision:

1. **Candidates.** Every legal action when there are at most ``width``; otherwise the playout policy's own choice,
   then one action of each other kind (its ``type``), then others drawn at random, up to ``width``.
2. **Playouts.** Playout ``i`` draws a state from the seat's knowledge with its own seed, plays the candidate on it,
   and lets the playout policies play every seat to the end on the fast path (a quiet journal, trusted actions: the
   loop of :mod:`affray.sim.fast`). Every candidate is tried on the same draws and the same dice (common random
   numbers), so the comparison between candidates is not drowned in the dice's noise. A win for the actor's side
   scores 1, a draw, an escape or a playout cut at ``max_steps`` 1/2, a loss 0; plus ``health`` (1/20 by default)
   times the health margin at the end (the share of hit points the side's combatants kept, less the foes' share,
   from the ruleset's report): too little to outweigh a result, enough to tell apart choices whose playouts all
   end alike (a side that loses every playout still prefers the choice that hurts its foes most).
3. **Budget.** ``playouts``: the playouts per decision, shared out by successive halving (each round gives the
   candidates left an equal share, then keeps the better half). ``seconds``: a time limit per decision on top,
   checked between playouts (the decision then depends on the machine's speed; a playout budget alone is
   deterministic: the same seed plays the same decisions). The best mean score wins; among equals, the playout
   policy's own choice, then the first listed.

A decision with one legal action, or one the search cannot score (an actor of no side, the GM's rulings), is the
playout policy's. The policy's randomness comes from the generator it is given (the policies' stream, never the
match's dice), so a fight it plays replays exactly from its log.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from affray.core.engine import Action, ActionSpec, AnyRuleset, CombatantReport, Rejected, Viewer
from affray.core.journal import QUIET, QUIET_TRUSTED
from affray.core.memo import Memo
from affray.core.plugin import AnyPlugin, Plugin, Sampler, plugin
from affray.core.policy import Choices, Observation, Policy, RandomPolicy
from affray.core.rng import RNG, FastRNG, policy_rng
from affray.sim.fast import viewers_of

__all__ = ["Budget", "SearchPolicy", "search_factory"]

#: Seeds of the playouts: 62 bits drawn from the policy's generator once per decision.
_SEED_SPACE = 1 << 62


@dataclass(frozen=True, slots=True)
class Budget:
    """What one decision may spend, and how sure it must be to leave the playout policy's choice: ``playouts``
    simulated continuations in all (shared by the candidates), ``seconds`` of time on top if given (``None``: no
    time limit, and the decisions are deterministic), at most ``width`` candidates, ``max_steps`` actions per playout
    (a playout cut there scores as a draw), and ``margin``: a challenger replaces the playout policy's choice only
    when its mean score over their common playouts is higher by more than ``margin`` standard errors of the paired
    difference (0: any higher mean); ``health``: the weight of the health margin added to a playout's result (see
    the module docstring)."""

    playouts: int = 128
    seconds: float | None = None
    width: int = 8
    max_steps: int = 5_000
    margin: float = 1.0
    health: float = 0.05

    def __post_init__(self) -> None:
        if self.playouts < 1:
            raise ValueError(f"a search needs at least one playout per decision (got {self.playouts})")
        if self.width < 1:
            raise ValueError(f"a search needs at least one candidate (got width {self.width})")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"a time budget is a positive number of seconds (got {self.seconds})")
        if self.margin < 0:
            raise ValueError(f"the margin is a number of standard errors, 0 or more (got {self.margin})")
        if not 0 <= self.health < 0.5:
            raise ValueError(f"the health weight is at least 0 and below 1/2, a result's step (got {self.health})")


#: The budget of the ``search`` policy as ``--policy SIDE=search`` and the table name it.
DEFAULT_BUDGET = Budget()


@dataclass(slots=True)
class _Candidate:
    """A candidate and its scores, one per playout it played (the playouts are numbered alike for all)."""

    action: Action
    scores: dict[int, float] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return sum(self.scores.values()) / len(self.scores) if self.scores else 0.5


class SearchPolicy:
    """Chooses by simulated continuations (see the module docstring). ``ruleset``: the ruleset's plug-in record
    (or its name, given from outside: a scenario, the command line, a library caller), which gives the rules, the
    sampler and the playout policy (``playout``: its name; ``heuristic`` where the ruleset has one, else
    ``random``)."""

    name = "search"

    def __init__(
        self,
        ruleset: AnyPlugin | str,
        budget: Budget = DEFAULT_BUDGET,
        playout: str | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        record = ruleset if isinstance(ruleset, Plugin) else plugin(ruleset)
        if record.sampler is None:
            raise KeyError(
                f"{record.name} has no sampler, so no 'search' policy: nothing draws a state from a seat's view"
            )
        self.budget = budget
        self._rules: AnyRuleset = record.ruleset()
        self._sampler: Sampler[object] = record.sampler()
        factories: Mapping[str, Callable[[], Policy]] = {"random": RandomPolicy, **record.policies()}
        chosen = playout or ("heuristic" if "heuristic" in factories else "random")
        if chosen not in factories:
            raise KeyError(f"no policy '{chosen}' for {record.name} to play the search's continuations")
        self._factory = factories[chosen]
        self._own = self._factory()  # the playout policy's choice at the true decision (its caches apart)
        self._playout_policies: dict[str, Policy] = {}
        self._clock = clock
        #: Decisions made and playouts played, for the cost per decision (bench/bench_search.py).
        self.decisions = 0
        self.playouts = 0

    def _playout_policy(self, actor: str) -> Policy:
        policy = self._playout_policies.get(actor)
        if policy is None:
            policy = self._playout_policies[actor] = self._factory()
        return policy

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        actor = choices.actor
        default = self._own.choose(seen, choices, rng)
        listed = choices.all()
        if len(listed) < 2:
            return default
        candidates = _candidates(default, listed, self.budget.width, rng)
        base = rng.die(_SEED_SPACE) - 1
        if len(candidates) < 2:
            return default
        known = self._sampler.known(seen)
        self.decisions += 1
        best = self._search(known, actor, candidates, base)
        return default if best is None else best

    def _search(self, known: object, actor: str, candidates: list[_Candidate], base: int) -> Action | None:
        """The playout policy's choice (``candidates[0]``), unless a challenger beats it clearly (``Budget.margin``)
        over their common draws; the challengers are narrowed by successive halving, the policy's choice plays every
        round. ``None`` when the search cannot score (the actor has no side)."""
        budget = self.budget
        deadline = None if budget.seconds is None else self._clock() + budget.seconds
        stores: dict[Hashable, dict[Hashable, object]] = {}
        default, challengers = candidates[0], candidates[1:]
        rounds = max(1, math.ceil(math.log2(len(challengers))) + 1)
        spent, index = 0, 0
        for round_number in range(rounds):
            playing = [default, *challengers]
            share = max(1, (budget.playouts - spent) // (len(playing) * (rounds - round_number)))
            for _ in range(share):
                out_of_time = deadline is not None and self._clock() >= deadline
                if spent and (out_of_time or spent + len(playing) > budget.playouts):
                    return self._verdict(default, challengers, spent)
                seed = (base + index * 0x9E3779B97F4A7C15) % _SEED_SPACE  # the same draw and dice for each
                for candidate in playing:
                    score = self._playout(known, actor, candidate.action, seed, stores)
                    if score is None:
                        return None
                    candidate.scores[index] = score
                    spent += 1
                index += 1
            if len(challengers) > 1:
                challengers = _better_half(challengers)
        return self._verdict(default, challengers, spent)

    def _verdict(self, default: _Candidate, challengers: list[_Candidate], spent: int) -> Action:
        """The best challenger's action if it beats ``default`` clearly over their common playouts, else
        ``default``'s."""
        self.playouts += spent
        best = min(enumerate(challengers), key=lambda pair: (-pair[1].mean, pair[0]))[1]
        common = [i for i in best.scores if i in default.scores]
        if len(common) < 2:
            return default.action
        differences = [best.scores[i] - default.scores[i] for i in common]
        mean = sum(differences) / len(differences)
        spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1) / len(differences))
        return best.action if mean > 0 and mean > self.budget.margin * spread else default.action

    def _playout(
        self, known: object, actor: str, action: Action, seed: int, stores: dict[Hashable, dict[Hashable, object]]
    ) -> float | None:
        """One continuation: a state drawn with ``seed``, ``action`` played on it, then everyone's playout policy to
        the end. The actor's side's score (1, 1/2, 0), or ``None`` when the actor has no side."""
        rules = self._rules
        drawn = self._sampler.draw(known, FastRNG(seed))
        state = drawn.state
        side = rules.sides(state).get(actor)
        if side is None:
            return None
        store = stores.setdefault(drawn.setup, {})
        memo = Memo(store)
        viewers = _viewers(rules, state, store)
        dice = FastRNG(seed ^ 0x5DEECE66D)
        choosing = policy_rng(dice)
        result = rules.step(state, actor, action, dice, QUIET)  # checked: the draw is not the true state
        if isinstance(result, Rejected):
            raise SearchError(f"a state the sampler drew refuses {actor}'s legal {action}: {result.message}")
        pending, step, outcome = rules.pending, rules.step, rules.outcome
        observe, offered = rules.observe, rules.choices
        for version in range(1, self.budget.max_steps + 1):
            memo.advance(version)
            ended = outcome(state)
            window = None if ended is not None else pending(state)
            if window is None:
                points = 0.5 if ended is None or ended.winner is None else 1.0 if ended.winner == side else 0.0
                return points + self.budget.health * _health_margin(rules.report(state), side)
            who = window.actors[0]
            policy = self._playout_policy(who)
            chosen = policy.choose(observe(state, viewers[who], who, memo), offered(state, who, memo), choosing)
            result = step(state, who, chosen, dice, QUIET_TRUSTED)
            if isinstance(result, Rejected):
                raise SearchError(
                    f"playout policy {policy.name} chose a refused action for {who}: {chosen} "
                    f"({result.code}: {result.message})"
                )
        return 0.5 + self.budget.health * _health_margin(rules.report(state), side)


class SearchError(RuntimeError):
    """A drawn state refused a legal action, or a playout policy a refused one: a bug in a sampler or a policy."""


def _health_margin(report: Mapping[str, CombatantReport], side: str) -> float:
    """How much better ``side`` ended than its foes, in [-1, 1]: the mean share of hit points its combatants kept
    (0 for one down) less the same mean over the others (the ruleset's report, :class:`CombatantReport`)."""
    ours: list[float] = []
    theirs: list[float] = []
    for c in report.values():
        kept = 0.0 if c.down or c.hp_max <= 0 else max(0.0, min(1.0, c.hp / c.hp_max))
        (ours if c.side == side else theirs).append(kept)
    return (sum(ours) / len(ours) if ours else 0.0) - (sum(theirs) / len(theirs) if theirs else 0.0)


def _viewers(rules: AnyRuleset, state: object, store: dict[Hashable, object]) -> dict[str, Viewer]:
    """Each actor's viewer in the playouts (its own seat, as a simulation seats them), once per static store."""
    found = store.get("affray.ai.search.viewers")
    if not isinstance(found, dict):
        found = store["affray.ai.search.viewers"] = viewers_of(rules.names(state))
    return found


def _candidates(default: Action, listed: Sequence[ActionSpec], width: int, rng: RNG) -> list[_Candidate]:
    """At most ``width`` distinct actions: ``default`` first, then one of each other kind in listing order, then
    others at random (``rng``), in listing order after the first."""
    chosen = [default]
    rest = [spec.action for spec in listed if spec.action != default]
    if len(rest) + 1 <= width:
        chosen += rest
        return [_Candidate(a) for a in chosen]
    kinds = {default.get("type")}
    for action in rest:
        if len(chosen) >= width:
            break
        if action.get("type") not in kinds:
            kinds.add(action.get("type"))
            chosen.append(action)
    pool = [a for a in rest if a not in chosen]
    while len(chosen) < width and pool:
        chosen.append(pool.pop(rng.die(len(pool)) - 1))
    return [_Candidate(a) for a in chosen]


def _better_half(alive: list[_Candidate]) -> list[_Candidate]:
    """The better half of the candidates by mean score (rounded up), in their order; equals keep the earlier."""
    keep = (len(alive) + 1) // 2
    ranked = sorted(range(len(alive)), key=lambda i: (-alive[i].mean, i))[:keep]
    return [alive[i] for i in sorted(ranked)]


def search_factory(record: AnyPlugin) -> Callable[[], Policy]:
    """The ``search`` policy's factory for the ruleset of ``record`` (what :func:`affray.ai.base.get_policy`
    calls)."""
    return lambda: SearchPolicy(record)
