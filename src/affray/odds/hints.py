"""Odds shown beside the choices at the prompt (terminal, web table), computed from the seat's view only.

Each ruleset's plug-in record may name a hinter ``(view, specs) -> [hint per spec]``; a hint is a short text such
as ``hit 46% · avg loss 1.2``. The numbers come from the same exact odds functions as ``affray odds``. The record
is the one a match carries (:attr:`affray.core.match.Match.plugin`).
"""

from __future__ import annotations

from collections.abc import Sequence

from affray.core.engine import ActionSpec
from affray.core.plugin import AnyPlugin


def hints(record: AnyPlugin, view: object, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    """A hint per spec for ``actor`` ('' where there is none), from the seat's ``view``, by the hinter of
    ``record``; never fails the prompt."""
    loader = record.hints
    if loader is None:
        return [""] * len(specs)
    try:
        return loader()(view, actor, specs)
    except (KeyError, TypeError, ValueError, IndexError):
        return [""] * len(specs)
