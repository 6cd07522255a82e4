"""The CPU budget of the tables whose combatants the server plays (docs/table.md, "Limits: a server on a public
address").

A table where a policy plays a combatant costs the server CPU at every one of its moves, whether anyone watches or
not: 2,457 self-playing tables opened in 20 s once cost ten minutes of CPU. So the CPU the table worker spends on a
table's policy moves (``time.thread_time`` around each job, :func:`run`) is charged to the address that opened the
table, and to the server's whole budget: two token buckets of CPU seconds (:class:`CpuBudget`), each full at first
and refilled at a steady rate. Opening such a table is charged :data:`OPEN_CHARGE` too (the opening's own CPU, its
store write, and a bound on how many can be opened at once). While the opener's bucket or the whole one is spent:

- a new table with a combatant the server plays is refused ``429 cpu_budget_spent`` (:func:`admit`), before it is
  stored; a table only people play is opened as ever;
- a running table's policy does not move: its turn waits, the table stays due (in memory, not evicted), and the
  worker tries again once the buckets have refilled past zero (:class:`Paused`). People's actions go on meanwhile.

Who pays: the web layer names the payer of each request (:func:`paying`: the app's budget and the client's address);
the table remembers it (by id, in this process) when it opens, and a table rebuilt from the database after a restart
is charged to the address of the request that loads it. Outside a request (the library, a test of the service
alone) nothing is metered.

The table code calls in few places, one line each: :func:`admit` in the opening before the table is stored,
:func:`meter` on every table built (opened, rebuilt, reloaded after a lost race), and :func:`run` around every job of
the worker.
"""

from __future__ import annotations

import contextvars
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from affray.table.errors import Refusal

if TYPE_CHECKING:
    from affray.core.match import Match
    from affray.core.policy import Choices, Observation, Policy
    from affray.core.rng import RNG
    from affray.table.state import Table

ADDRESS_CPU = 30.0  # CPU seconds one address's tables may spend at once (affray serve --ai-cpu-per-address)
ADDRESS_REFILL = 600.0  # seconds in which an address's spent budget comes back whole: 0.05 CPU s a second
TOTAL_CPU = 120.0  # CPU seconds all the tables may spend at once (affray serve --ai-cpu-total)
TOTAL_REFILL = 240.0  # seconds in which the whole spent budget comes back: 0.5 CPU s a second, half a core
OPEN_CHARGE = 0.1  # CPU seconds charged for opening a table the server plays in (an opening takes 3-80 ms)
MIN_WAIT = 0.25  # seconds a paused policy waits at the least before it looks at the budget again
KEEP_PAYERS = 10_000  # tables whose payer a process remembers (the oldest are forgotten: charged to their loader)


class Bucket:
    """CPU seconds: ``burst`` at first, refilled at ``rate`` a second up to ``burst``. A charge may take it below
    zero (a move's cost is known once it is made): it is spent until it refills past zero."""

    __slots__ = ("burst", "last", "level", "rate")

    def __init__(self, burst: float, rate: float, now: float) -> None:
        self.burst, self.rate, self.level, self.last = burst, rate, burst, now

    def refill(self, now: float) -> float:
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        return self.level

    def wait(self, now: float) -> float:
        """Seconds until the bucket is past zero (0: it is now)."""
        level = self.refill(now)
        return 0.0 if level > 0 else -level / self.rate + 1e-3


class CpuBudget:
    """The per-address and the whole budget of CPU seconds (see the module docstring). Thread-safe.

    ``per_address`` and ``total``: the buckets' sizes in CPU seconds; ``refill``: the seconds in which each comes back
    whole once spent."""

    def __init__(
        self,
        per_address: float = ADDRESS_CPU,
        total: float = TOTAL_CPU,
        clock: Callable[[], float] = time.monotonic,
        refill: tuple[float, float] = (ADDRESS_REFILL, TOTAL_REFILL),
    ) -> None:
        if min(per_address, total, *refill) <= 0:
            raise ValueError("a CPU budget and its refill are positive numbers of seconds")
        self.per_address, self._clock = per_address, clock
        self.address_rate = per_address / refill[0]
        self._lock = threading.Lock()
        self.total = Bucket(total, total / refill[1], clock())
        self._addresses: dict[str, Bucket] = {}

    def _bucket(self, address: str, now: float) -> Bucket:
        found = self._addresses.get(address)
        if found is None:
            if len(self._addresses) > 10_000:  # forget the addresses whose bucket is full again
                self._addresses = {a: b for a, b in self._addresses.items() if b.refill(now) < b.burst}
            found = self._addresses[address] = Bucket(self.per_address, self.address_rate, now)
        return found

    def left(self, address: str) -> tuple[float, float]:
        """The CPU seconds left now: ``address``'s, and the whole budget's (below zero: spent)."""
        with self._lock:
            now = self._clock()
            return self._bucket(address, now).refill(now), self.total.refill(now)

    def wait(self, address: str) -> float:
        """Seconds until ``address``'s tables may spend CPU again (0: now): until both buckets are past zero."""
        with self._lock:
            now = self._clock()
            return max(self._bucket(address, now).wait(now), self.total.wait(now))

    def charge(self, address: str, seconds: float) -> None:
        with self._lock:
            now = self._clock()
            for bucket in (self._bucket(address, now), self.total):
                bucket.refill(now)
                bucket.level -= seconds

    def open(self, address: str) -> None:
        """A table the server plays in is opened for ``address``: :data:`OPEN_CHARGE`, or ``429 cpu_budget_spent``
        while either bucket is spent (nothing charged)."""
        with self._lock:
            now = self._clock()
            mine, everyone = self._bucket(address, now).wait(now), self.total.wait(now)
            if mine or everyone:
                whose = "your address's tables have" if mine >= everyone else "the tables of this server have"
                raise Refusal(
                    "cpu_budget_spent",
                    f"The server plays no more combatants for now: {whose} spent the CPU time it gives to "
                    f"combatants it plays; try again in {max(mine, everyone):.0f} s, or open a table "
                    f"whose combatants people play.",
                    429,
                )
            for bucket in (self._bucket(address, now), self.total):
                bucket.level -= OPEN_CHARGE


@dataclass(frozen=True, slots=True)
class Payer:
    """Who pays for a table's policy moves: a budget and the address charged in it."""

    budget: CpuBudget
    address: str


_paying: contextvars.ContextVar[Payer | None] = contextvars.ContextVar("affray_paying", default=None)
_payers: OrderedDict[str, Payer] = OrderedDict()  # table id -> its payer, for its rebuilds in this process
_payers_lock = threading.Lock()


class _Job(threading.local):
    payer: Payer | None = None  # the payer of the worker's job under way, once a metered policy moved in it
    running = False


_job = _Job()


def paying(budget: CpuBudget, address: str) -> contextvars.Token[Payer | None]:
    """For the rest of this request (the web layer; ``reset`` the token after): tables opened or rebuilt are charged
    to ``address`` in ``budget``."""
    return _paying.set(Payer(budget, address))


def reset(token: contextvars.Token[Payer | None]) -> None:
    _paying.reset(token)


def _current() -> Payer | None:
    """The request's payer, else (a table rebuilt inside a policy move: a lost race, a reload) the move's."""
    return _paying.get() or _job.payer


def admit(match: Match) -> None:
    """Opening ``match``'s table: ``429 cpu_budget_spent`` if the server plays one of its combatants and its payer's
    or the whole budget is spent; otherwise :data:`OPEN_CHARGE` is charged (nothing for a table only people play,
    or outside a request)."""
    payer = _current()
    if payer is not None and any(controller != "human" for controller in match.controllers.values()):
        payer.budget.open(payer.address)


def meter(table: Table) -> None:
    """Charge the moves of ``table``'s policies to its payer: the one it was opened for (remembered by its id), else
    the request's that builds it now. Nothing to do for a table only people play, or with no payer."""
    if not table.policies:
        return
    with _payers_lock:
        payer = _payers.get(table.id) or _current()
        if payer is None:
            return
        _payers[table.id] = payer
        _payers.move_to_end(table.id)
        while len(_payers) > KEEP_PAYERS:
            _payers.popitem(last=False)
    ref = weakref.ref(table)
    table.policies = {
        actor: Metered(policy.policy if isinstance(policy, Metered) else policy, payer, ref)
        for actor, policy in table.policies.items()
    }


class Paused(Exception):
    """A policy's move waits for the budget: the worker runs its job again in ``wait`` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"the CPU budget is spent for {wait:.1f} s")
        self.wait = wait


class Metered:
    """A table's policy whose moves are charged to ``payer`` and wait while its budget is spent (a
    :class:`~affray.core.policy.Policy`: everything but :meth:`choose` is the policy's own)."""

    def __init__(self, policy: Policy, payer: Payer, table: weakref.ref[Table]) -> None:
        self.policy, self.payer, self._table = policy, payer, table
        self.name = policy.name

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Any:
        wait = self.payer.budget.wait(self.payer.address)
        if wait:
            table = self._table()
            if table is not None:  # under the table's lock (the policy turn holds it): due still, kept in memory
                table.policy_due = table.version
            raise Paused(max(wait, MIN_WAIT))
        if _job.running:
            _job.payer = self.payer
        return self.policy.choose(seen, choices, rng)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.policy, name)


def run(job: Callable[[], None]) -> float | None:
    """Run one job of the worker, charging the CPU time it took (``time.thread_time``) to the payer of the policy
    that moved in it, if one did. None, or the seconds after which to run it again when its policy was
    :class:`Paused`."""
    _job.payer, _job.running = None, True
    started = time.thread_time()
    try:
        job()
    except Paused as paused:
        return paused.wait
    finally:
        payer, _job.payer, _job.running = _job.payer, None, False
        if payer is not None:
            payer.budget.charge(payer.address, time.thread_time() - started)
    return None
