"""The operations a ruleset offers on its sheets beyond new, check and show (``affray character NAME``).

A ruleset's :class:`~affray.core.sheetrules.SheetRules` lists them in ``operations``; the command line builds one
command per operation name from the declaration (its help, its typed parameters as
:class:`~affray.core.actions.Field` s), so a ruleset adds an operation in its own folder and nowhere else. The
declarations live in :mod:`affray.core.sheetrules`, because the plug-in record names the rules that list them; this
module is where the rulesets and the command line take them from.
"""

from __future__ import annotations

from affray.core.sheetrules import BUILT_IN as BUILT_IN
from affray.core.sheetrules import PartyReport as PartyReport
from affray.core.sheetrules import Report as Report
from affray.core.sheetrules import SheetChange as SheetChange
from affray.core.sheetrules import SheetOperation as SheetOperation
from affray.core.sheetrules import Step as Step
