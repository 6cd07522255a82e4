"""A ruleset's rules version raised for one test, as a rule change raises it (``Plugin.rules_version``): the
registry's record of the ruleset is replaced by a copy with that version (the record is frozen), and put back by
``monkeypatch`` after the test."""

from __future__ import annotations

import dataclasses

import pytest

from affray.core import plugin as registry


def run_rules_version(monkeypatch: pytest.MonkeyPatch, ruleset: str, version: str) -> None:
    """From now until the test ends this affray runs ``ruleset``'s rules as version ``version``."""
    record = registry.plugin(ruleset)
    monkeypatch.setitem(registry._PLUGINS, ruleset, dataclasses.replace(record, rules_version=version))
