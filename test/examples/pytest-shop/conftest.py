"""Fixtures for a shop's pytest suite against paysim, one sandbox per pytest-xdist worker.

Run with a throwaway paysim: paysim exec -- python3 -m pytest -n 4
"""
import http.server
import json
import os
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest

PAYSIM_URL = os.environ.get("PAYSIM_URL")
PAYSIM_SECRET_KEY = os.environ.get("PAYSIM_SECRET_KEY")
# pytest-xdist names its workers gw0, gw1, …; without -n there is one process, "main".
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")


def call(method, url, key, body=None, idempotency_key=None):
    """Sends one request to paysim; returns (HTTP status, headers, JSON answer), errors included."""
    headers = {"Authorization": f"Bearer {key}"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=70) as response:
            return response.status, response.headers, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.load(error)


class Receiver(http.server.ThreadingHTTPServer):
    """This worker's webhook endpoint, on a free port: it answers 200 at once and keeps what it got."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), ReceiverHandler)
        self.url = f"http://127.0.0.1:{self.server_port}/webhooks"
        self.events = []  # (Service-Event-Id, raw body), in arrival order
        self.lock = threading.Lock()


class ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with self.server.lock:
            self.server.events.append((self.headers["Service-Event-Id"], body))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args):
        pass


class Sandbox:
    """This worker's paysim instance: calls go to its own URL with its own key."""

    def __init__(self, instance):
        self.instance = instance

    def api(self, method, path, body=None, idempotency_key=None):
        # A creation's key is made once per creation, by the caller, so that a retry can reuse it.
        if method == "POST" and idempotency_key is None:
            idempotency_key = str(uuid.uuid4())
        return call(method, self.instance["url"] + path, self.instance["secret_key"], body, idempotency_key)

    def wait_for_event(self, **query):
        """Holds until an event matches the query (GET /v1/sandbox/events/wait) instead of polling."""
        status, _, answer = self.api("GET", "/v1/sandbox/events/wait?" + urllib.parse.urlencode({"timeout_ms": 10000, **query}))
        assert status == 200, answer
        return answer


@pytest.fixture(scope="session")
def receiver():
    server = Receiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def paysim(receiver):
    """One instance per worker for the whole session, delivering to the worker's receiver.

    Its Idempotency-Key is new on every run: a fixed key would replay the instance an earlier run
    started, and stopped, on a paysim that is still running.
    """
    if not (PAYSIM_URL and PAYSIM_SECRET_KEY):
        pytest.exit("PAYSIM_URL and PAYSIM_SECRET_KEY are not set: run the suite with `paysim exec -- python3 -m pytest`")
    status, _, instance = call(
        "POST",
        f"{PAYSIM_URL}/v1/sandbox/instances",
        PAYSIM_SECRET_KEY,
        {"name": f"Shop {WORKER}", "forward_to": [receiver.url], "payouts": "manual"},
        idempotency_key=f"{WORKER}-{uuid.uuid4()}",
    )
    assert status == 201, instance
    yield Sandbox(instance)
    # The instance stops before the receiver closes (it was set up after it).
    status, _, answer = call("DELETE", f"{PAYSIM_URL}/v1/sandbox/instances/{instance['id']}", PAYSIM_SECRET_KEY)
    assert status == 200, answer


@pytest.fixture(autouse=True)
def clean_sandbox(paysim, receiver):
    """Every test starts from an empty sandbox: the reset deletes the worker's payments, payouts and events."""
    status, _, answer = paysim.api("POST", "/v1/sandbox/reset")
    assert status == 200, answer
    with receiver.lock:
        receiver.events.clear()
