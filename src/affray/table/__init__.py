"""table/: the authority over live tables (layer 4: no web framework inside). docs/table.md; the map of its rooms:
docs/architecture.md, "The table server, room by room".

- :class:`TableService` (``service.py``): the thin face the web layer calls, which builds the rooms below;
- the live table's data: :class:`Table` (``state.py``), :class:`SeatInfo` (``seats.py``);
- what a seat receives: ``messages.py`` (its message, the chat lines it reads, the answer to its action), the parts
  several messages share (``parts.py``), pushed by ``feed.py`` to whoever hears the table (``audience.py``);
- the ledger (``ledger.py``): every change's one path to the store, guarded, and its answer; on it, a seat's actions
  (``actions.py``), the GM's tools (``gm.py``), the chat (``chat.py``), the policy seats (``policy_seats.py``);
- the tables in memory (``registry.py``), opened (``opening.py``), loaded (``loading.py``, ``restore.py``), kept up
  with other processes (``catch_up.py``), evicted and snapshotted (``eviction.py``, ``snapshot.py``);
- :class:`Refusal` (``errors.py``): every refusal as code, sentence and HTTP status.
"""

from affray.table.errors import Refusal
from affray.table.messages import compact_text, seat_message
from affray.table.opening import link_for
from affray.table.seats import SeatInfo
from affray.table.service import TableService
from affray.table.state import Table
from affray.table.tokens import new_token, token_hash

__all__ = [
    "Refusal",
    "SeatInfo",
    "Table",
    "TableService",
    "compact_text",
    "link_for",
    "new_token",
    "seat_message",
    "token_hash",
]
