"""The simulation fast path: the same rules and the same fights as the full engine, without :class:`Match`
(docs/simulation.md, 'The fast path and the full engine').

:func:`play_fast` drives a ruleset's step function directly: no log of record, no seats, no per-seat redaction
beyond what each policy's observation does, a quiet journal (:mod:`affray.core.journal`: no events, no dice
records, no seal digests) and, unless asked, no validation of actions the policies took from their choices. The
dice are drawn exactly as the full engine draws them, and the policies see the same observations, so a fight on
either path is the same fight: ``tests/conformance/test_fast_path.py`` checks outcomes, rounds and every
combatant's end state for every example over hundreds of seeds.

The fight's record is its seed and its actions (:class:`FastFight`); :func:`replay_in_full` plays them again through
a :class:`Match` on the same seed, which gives every event for narration (``affray sim --sample``).

The seeds: a fight's dice come from ``FastRNG(seed)`` and its policies' choices from ``policy_rng`` of those dice
(``FastRNG(seed ^ POLICY_KEY)``, :func:`affray.core.rng.policy_rng`), as :func:`affray.ai.runner.play` gives them by
default, so the full engine and this loop play the same fight.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from affray.core.engine import GM, Action, AnyRuleset, Outcome, Rejected, Viewer
from affray.core.journal import QUIET, QUIET_TRUSTED
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.options import parse_options
from affray.core.plugin import AnyPlugin
from affray.core.policy import Policy
from affray.core.rng import FastRNG, policy_rng


class FastPathError(RuntimeError):
    """A policy chose an action the rules refused, or a fight did not end: a bug in a policy or in the rules."""


@dataclass(slots=True)
class FastFight:
    """One simulated fight: its record (the seed and the actions taken) and how it ended."""

    seed: int
    actions: list[tuple[str, Action]] = field(default_factory=list)
    outcome: Outcome | None = None
    rounds: int = 0


def viewers_of(actors: Mapping[str, str], seats: Mapping[str, str] | None = None) -> dict[str, Viewer]:
    """The viewer each actor's policy sees through: its seat's, exactly as :meth:`Match.viewer` makes it (each actor
    its own seat unless ``seats`` groups them)."""
    seating = {a: a for a in actors}
    seating.update(seats or {})
    seating[GM] = GM
    return {actor: Viewer.of_seat(seating, seating[actor]) for actor in actors}


def _viewers(
    actors: Mapping[str, str], seats: Mapping[str, str] | None, shared: dict[Hashable, object] | None
) -> dict[str, Viewer]:
    """:func:`viewers_of`, the same objects for every fight of the caller's ``shared`` store: rulesets key their
    setup-only parts by viewer there, and a key found by identity is found without comparing viewers."""
    if shared is None:
        return viewers_of(actors, seats)
    # the viewers depend on the actors' ids and the seats only (viewers_of): the names are left out of the key
    key = ("affray.sim.fast.viewers", tuple(actors), tuple(sorted(seats.items())) if seats else ())
    found = shared.get(key)
    if not isinstance(found, dict):
        found = shared[key] = viewers_of(actors, seats)
    return found


def play_fast(
    ruleset: AnyRuleset,
    setup: Mapping[str, object],
    options: object,
    policies: Mapping[str, Policy],
    seed: int,
    *,
    validate: bool = False,
    shared: dict[Hashable, object] | None = None,
    seats: Mapping[str, str] | None = None,
    max_steps: int = 200_000,
) -> tuple[object, FastFight]:
    """Play one fight to its end on the fast path; returns the final state and the fight's record.

    ``options``: parsed options (``parse_options``) or a mapping of them. ``validate``: let the rules check every
    action (a sampled share of simulated fights does). ``shared``: the setup-only memo store of the caller's
    matches of this setup (:class:`~affray.core.memo.Memo`). Every actor that must act needs a policy.
    """
    if options is None or isinstance(options, Mapping):
        options = parse_options(ruleset.options_type, options)
    rng = FastRNG(seed)
    policies_rng = policy_rng(rng)
    journal = QUIET if validate else QUIET_TRUSTED
    memo = Memo(shared)
    state, _ = ruleset.setup(setup, options, rng, journal, memo)
    viewers = _viewers(ruleset.names(state), seats, shared)
    fight = FastFight(seed)
    actions = fight.actions
    pending, step, outcome = ruleset.pending, ruleset.step, ruleset.outcome
    observe, choices = ruleset.observe, ruleset.choices
    for version in range(1, max_steps + 1):
        window = None if outcome(state) is not None else pending(state)
        if window is None:
            fight.outcome, fight.rounds = outcome(state), ruleset.rounds(state)
            return state, fight
        actors = window.actors
        actor = actors[0]
        policy = policies.get(actor)
        if policy is None:  # the first actor with a policy, else the first (a plain loop: every decision)
            for a in actors:
                if a in policies:
                    actor, policy = a, policies[a]
                    break
            else:
                raise FastPathError(f"{actor} must act but has no policy (a simulation plays every seat)")
        offered = choices(state, actor, memo)
        action = policy.choose(observe(state, viewers[actor], actor, memo), offered, policies_rng)
        result = step(state, actor, action, rng, journal)
        if isinstance(result, Rejected):
            raise FastPathError(
                f"policy {policy.name} chose a refused action for {actor}: {action} ({result.code}: {result.message})"
            )
        actions.append((actor, action))
        memo.advance(version)
    raise FastPathError(f"the fight did not end within {max_steps} actions")


def replay_in_full(
    rules: AnyPlugin | AnyRuleset,
    setup: Mapping[str, object],
    options: Mapping[str, object] | None,
    fight: FastFight,
    *,
    seats: Mapping[str, str] | None = None,
) -> Match:
    """The fight played again through a :class:`Match` on its seed, with every event (for narration and checks):
    ``rules`` is the ruleset's plug-in record (whose narrator tells it), or its rules alone.
    An action the full engine refuses is a :class:`FastPathError`: the two paths disagree, which is a bug."""
    match = Match(rules, setup, options, rng=FastRNG(fight.seed), seats=seats)
    for actor, action in fight.actions:
        result = match.act(actor, action)
        if isinstance(result, Rejected):
            raise FastPathError(
                f"the full engine refused {actor}'s {action} on replay: {result.code}: {result.message}"
            )
    return match
