"""The memo's bounded caches (core.memo.Memo.cache): large when the static store is shared by many matches, small
when one live match owns it; a full cache starts again; Spellchrome's listings are the same either way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from affray.core.match import Match
from affray.core.memo import Cache, Memo
from affray.core.rng import FastRNG
from affray.rulesets.spellchrome import legal, offers
from affray.rulesets.spellchrome.legal import LISTINGS_OWN, LISTINGS_SHARED, MOVES_KEY
from affray.rulesets.spellchrome.offers import SPECS_OWN
from affray.table.scenarios import resolve_scenario


def test_a_cache_is_bounded_by_who_owns_the_store() -> None:
    own, shared = Memo(), Memo({})
    assert not own.shared and shared.shared
    assert own.cache("k", 50, 3).limit == 3 and shared.cache("k", 50, 3).limit == 50
    assert own.cache("k", 99, 99) is own.cache("k", 50, 3)  # made once, on first use


def test_a_full_cache_starts_again() -> None:
    cache: Cache[int, str] = Cache(2)
    assert cache.keep(1, "a") == "a" and cache.keep(2, "b") == "b"
    assert cache.keep(3, "c") == "c" and dict(cache) == {3: "c"}


def test_values_under_a_fixed_key_last_until_the_state_is_rebuilt_and_stay_out_of_the_shared_store() -> None:
    """Memo.keyed with a fixed key (the observers' windows on the combatants): built once, kept across versions
    (advance), dropped when the memo resets (undo, rewind), and never put in the static store that other matches
    share; its arguments reach the builder only when it builds."""
    shared: dict[Any, Any] = {}
    memo, made = Memo(shared), []

    def build(a: int, *, b: int) -> list[int]:
        made.append(a)
        return [a, b]

    first = memo.keyed("k", None, build, 1, b=2)
    memo.advance(5)
    assert memo.keyed("k", None, build, 3, b=4) is first == [1, 2] and made == [1]
    memo.reset(5)
    assert memo.keyed("k", None, build, 3, b=4) == [3, 4] and made == [1, 3]
    assert shared == {} and Memo(shared).keyed("k", None, build, 5, b=6) == [5, 6]


def _playout(shared: dict[Any, Any] | None) -> tuple[list[list[dict[str, Any]]], Match]:
    checked, _ = resolve_scenario("spellchrome/crossroads_2v2")
    match = Match(checked.plugin, checked.setup, checked.options, rng=FastRNG(3), shared=shared)
    rng, listings = random.Random(3), []
    for _ in range(120):
        window = match.pending()
        if window is None or match.outcome() is not None:
            break
        actor = window.actors[0]
        specs = match.legal(actor)
        listings.append([s.to_dict() for s in specs])
        match.submit(match.seats[actor], actor, rng.choice(specs).action, version=match.version)
    return listings, match


def test_spellchrome_lists_the_same_under_either_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    shared, _ = _playout({})
    own, owned = _playout(None)
    assert owned.memo.cache("spellchrome.specs", 0, 0).limit == SPECS_OWN
    # bounds so small that the live match's caches start again many times in one fight: the listings do not change
    monkeypatch.setattr(legal, "LISTINGS_OWN", 3)
    monkeypatch.setattr(offers, "SPECS_OWN", 20)
    tight, squeezed = _playout(None)
    assert own == shared == tight and len(own) > 30
    assert len(squeezed.memo.cache(MOVES_KEY, LISTINGS_SHARED, LISTINGS_OWN)) <= 3
    assert len(squeezed.memo.cache("spellchrome.specs", 0, 0)) <= 20


def test_release_drops_the_versions_values_only() -> None:
    """Memo.release (a table server, once a version is sent): what Memo.now kept is built again when next asked;
    what Memo.keyed and Memo.static keep stays."""
    memo, made = Memo(), []

    def build(name: str) -> list[str]:
        made.append(name)
        return [name]

    for _ in range(2):
        memo.now("view", lambda: build("view"))
        memo.keyed("part", 1, build, "part")
        memo.static("map", build, "map")
    memo.release()
    assert memo.now("view", lambda: build("view")) == ["view"]
    memo.keyed("part", 1, build, "part")
    memo.static("map", build, "map")
    assert made == ["view", "part", "map", "view"]
