"""``GET /metrics``: what an operator watches, in the Prometheus text format (``prometheus_client``; docs/table.md,
"Metrics").

- ``affray_tables_live``: tables this process holds whose fight is not over;
- ``affray_connections_open``: open TCP connections (HTTP and WebSocket), ``affray_websockets_open``: WebSockets
  that hear a seat;
- ``affray_actions_total{result="accepted"|"refused", code}``: submissions, the refused ones by their code;
- ``affray_action_push_seconds``: a histogram of the time from an action reaching the table service to its
  change being handed to every WebSocket of its table here;
- ``affray_store_errors_total``: database calls that failed.

The numbers come from the table service's hooks (:mod:`affray.table.hooks`) and, at each scrape, from the service
and the connection guard. Each app has a registry of its own (several apps may live in one test process). The
route answers only clients on the server's own host (loopback, after uvicorn has applied a trusted proxy's
``X-Forwarded-For``): anyone else gets 403, so a public address shows no numbers.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable, Iterable

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from affray.table import Refusal, TableService
from affray.table.hooks import ServiceHooks

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
PENDING_PER_TABLE = 64  # acknowledged actions of one table waiting for their push, at most (older ones are dropped)


class Metrics(ServiceHooks):
    """The registry, the service's hooks, and the gauges read at each scrape."""

    def __init__(self, service: TableService, connections: Callable[[], int] | None = None) -> None:
        self.service, self.connections = service, connections
        self.registry = CollectorRegistry()
        self.actions = Counter(
            "affray_actions", "Submissions, by result and refusal code", ("result", "code"), registry=self.registry
        )
        self.latency = Histogram(
            "affray_action_push_seconds",
            "From an action reaching the table service to its change being handed to its table's WebSockets",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.store_errors = Counter("affray_store_errors", "Database calls that failed", registry=self.registry)
        self.registry.register(_Gauges(self))
        self._lock = threading.Lock()
        self._waiting: dict[str, list[tuple[int, float]]] = {}  # table -> (version, started) not yet pushed
        self._last_push: dict[str, tuple[int, float]] = {}  # table -> (version, when)

    # -- the service's hooks (any thread) -----------------------------------------------------------------

    def accepted(self, table_id: str, version: int, started: float) -> None:
        self.actions.labels("accepted", "").inc()
        with self._lock:
            pushed = self._last_push.get(table_id)
            if pushed is not None and pushed[0] >= version:  # its push went out before the service returned
                self.latency.observe(max(0.0, pushed[1] - started))
                return
            waiting = self._waiting.setdefault(table_id, [])
            waiting.append((version, started))
            del waiting[:-PENDING_PER_TABLE]

    def refused(self, code: str) -> None:
        self.actions.labels("refused", code).inc()

    def pushed(self, table_id: str, version: int) -> None:
        now = time.perf_counter()
        with self._lock:
            self._last_push[table_id] = (version, now)
            waiting = self._waiting.get(table_id)
            if not waiting:
                return
            for _, started in (w for w in waiting if w[0] <= version):
                self.latency.observe(now - started)
            waiting[:] = [w for w in waiting if w[0] > version]

    def store_failed(self) -> None:
        self.store_errors.inc()

    # -- the scrape ----------------------------------------------------------------------------------------

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _Gauges(Collector):
    """The gauges, read from the service and the connection guard at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[GaugeMetricFamily]:
        service = self.metrics.service
        live = sum(1 for table in service.held() if not table.over)  # loads none: an idle table out of memory
        yield GaugeMetricFamily("affray_tables_live", "Tables held in memory here whose fight is not over", value=live)
        yield GaugeMetricFamily(
            "affray_websockets_open", "WebSockets that hear a seat", value=service.audience.follower_count()
        )
        if self.metrics.connections is not None:
            yield GaugeMetricFamily(
                "affray_connections_open", "Open TCP connections (HTTP and WebSocket)", value=self.metrics.connections()
            )


def local(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def metrics_router(metrics: Metrics) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/metrics")
    def scrape(request: Request) -> Response:
        """The metrics, for a scraper on this host only."""
        if request.client is None or not local(request.client.host):
            raise Refusal("metrics_local_only", "The metrics are served to this host only.", 403)
        return Response(metrics.text(), media_type=CONTENT_TYPE_LATEST)

    return router
