"""table/: the authority over live tables (layer 4: no web framework inside). docs/table.md.

- :class:`TableService` (``service.py``): creating tables, tokens, actions, policy seats, change notices;
- :mod:`affray.table.gm`: the GM's tools, each audited;
- :mod:`affray.table.state`: a live :class:`Table`; :mod:`affray.table.messages`: what each seat receives;
- :mod:`affray.table.restore`: rebuilding from the store, checked against the commitment and the chain;
- :class:`Refusal` (``errors.py``): every refusal as code, sentence and HTTP status.
"""

from affray.table.errors import Refusal
from affray.table.messages import compact_text, seat_message
from affray.table.opening import link_for
from affray.table.seats import SeatInfo
from affray.table.service import TableService
from affray.table.state import Table
from affray.table.tokens import new_token, token_hash

__all__ = ["Refusal", "SeatInfo", "Table", "TableService", "compact_text", "link_for", "new_token", "seat_message",
           "token_hash"]
