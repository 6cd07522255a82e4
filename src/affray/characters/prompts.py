"""Questions and answers for the interactive character builders (``affray character new``): the :class:`Prompts`
a builder asks through (in :mod:`affray.core.prompts`, because the plug-in record's builder takes it), and
:func:`finish`, which checks the finished answers as a sheet of their ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from affray.core.prompts import DONE as DONE
from affray.core.prompts import InputEnded as InputEnded
from affray.core.prompts import Prompts as Prompts
from affray.core.prompts import field_check as field_check
from affray.core.prompts import split as split


def finish(data: Mapping[str, object]) -> Any:
    """A new sheet from the answers, checked against its ruleset's schema (a :class:`ContentError` naming the
    field otherwise). Its model is the one the answers' ``ruleset`` names, picked at run time: the builder that
    called says which (its own return type)."""
    from affray.characters.sheet import parse_sheet

    return parse_sheet(data, "(new sheet)")[1]
