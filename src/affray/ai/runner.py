"""Letting policies play: the loop that asks whoever must act for an action, until the fight ends.

Policies draw their own randomness from a generator separate from the match's dice, so a policy's
choices never shift the dice, and the log of record (actions) is all that replay needs. Unless the caller
passes one, that generator is derived from the match's seed (:func:`affray.core.rng.policy_rng`): the same seed
plays the same decisions, another seed others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import overload

from affray.ai.base import Policy, get_policy
from affray.core.engine import Action, Outcome, Rejected
from affray.core.match import Match
from affray.core.rng import RNG, policy_rng

HumanTurn = Callable[[Match, str], Action | None]


class PolicyError(RuntimeError):
    """A policy returned an action the engine refused: a bug in the policy or in ``legal``."""


def check_overrides(overrides: Mapping[str, str], actors: Iterable[str], sides: Iterable[str]) -> None:
    """Refuse ``--policy`` keys that name no combatant and no side (``KeyError`` with the names known)."""
    known = set(actors) | set(sides)
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise KeyError(
            f"--policy names no side or combatant called {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )


def policies_for(match: Match, overrides: Mapping[str, str] | None = None) -> dict[str, Policy]:
    """A policy for every actor whose controller is not ``human`` (``overrides``: actor or side -> name).
    An override naming nobody, or an unknown policy, is a ``KeyError`` with the known names."""
    sides = match.ruleset.sides(match.state)
    check_overrides(overrides or {}, match.controllers, sides.values())
    chosen: dict[str, Policy] = {}
    for actor, controller in match.controllers.items():
        name = (overrides or {}).get(actor) or (overrides or {}).get(sides.get(actor, "")) or controller
        if name != "human":
            chosen[actor] = get_policy(match.plugin, name)
    return chosen


def policy_action(match: Match, policy: Policy, actor: str, rng: RNG) -> Action:
    """``policy``'s action for ``actor`` now: its observation and choices from the match (contract 9)."""
    choices = match.choices(actor)
    if not choices:
        window = match.pending()
        raise PolicyError(f"{actor} must act in phase '{window.phase if window else '?'}' but has no legal action")
    return policy.choose(match.observe(actor), choices, rng)


@overload
def play(
    match: Match,
    policies: Mapping[str, Policy],
    rng: RNG | None = None,
    *,
    human: None = None,
    max_steps: int = 200_000,
) -> Outcome: ...


@overload
def play(
    match: Match, policies: Mapping[str, Policy], rng: RNG | None = None, *, human: HumanTurn, max_steps: int = 200_000
) -> Outcome | None: ...


def play(
    match: Match,
    policies: Mapping[str, Policy],
    rng: RNG | None = None,
    *,
    human: HumanTurn | None = None,
    max_steps: int = 200_000,
) -> Outcome | None:
    """Run the match until it ends and return its outcome; with ``human``, until a person declines to act
    (``human`` returns ``None``: the result is then ``None``). Without ``human`` a seat no policy plays is a
    :class:`PolicyError`, so the result is always an :class:`Outcome`. ``rng``: the policies' generator; by default
    one derived from the match's seed (:func:`~affray.core.rng.policy_rng`)."""
    rng = rng if rng is not None else policy_rng(match.rng)
    for _ in range(max_steps):
        window = match.pending()
        if window is None:
            outcome = match.outcome()
            if outcome is None:
                raise PolicyError("the match waits for nobody yet has no outcome")
            return outcome
        actor = next((a for a in window.actors if a in policies), window.actors[0])
        policy = policies.get(actor)
        if policy is None:
            if human is None:
                raise PolicyError(f"{actor} is played by a person but no one is at the keyboard")
            action = human(match, actor)
            if action is None:
                return None
            continue
        action = policy_action(match, policy, actor, rng)
        result = match.act(actor, action, trusted=True)  # a pick from the legal list (Match.submit)
        if isinstance(result, Rejected):
            raise PolicyError(
                f"policy {policy.name} chose a refused action for {actor}: {action} ({result.code}: {result.message})"
            )
    raise PolicyError(f"the match did not end within {max_steps} actions")
