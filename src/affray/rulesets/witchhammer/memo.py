"""One memo keyed by the identity of a never-mutated object (a setup's card table, a card summary).

Setups are plain data that nothing changes after ``prepare``, and every match of one setup shares its card
table; so what is derived from it (compiled cards, legal-action lists, view parts, a policy's card profiles)
can be built once for all those matches. The helper itself is :func:`affray.core.memo.per_object`.
"""

from __future__ import annotations

from affray.core.memo import per_object

__all__ = ["per_object"]
