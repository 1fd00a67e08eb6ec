"""Python's common HTTP clients creating one payment intent on a paysim, configured as their docs
recommend (and, per case, with the mistake each invites). Run by test/clients/python-clients.test.ts:

    python3 retrying_clients.py CASE

with PAYSIM_URL and PAYSIM_SECRET_KEY set; prints one JSON line: the last answer's status and
Request-Id.
"""

import json
import os
import sys
import time
import uuid

import httpx
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

URL = os.environ["PAYSIM_URL"] + "/v1/payment_intents"
AUTH = {"Authorization": "Bearer " + os.environ["PAYSIM_SECRET_KEY"]}
ORDER = {"amount": 4200, "description": "Order 42"}


def requests_session(**retry_options):
    """A requests Session whose adapter retries with urllib3's Retry: POST is not in its default
    allowed_methods, and a creation that carries an Idempotency-Key is safe to add."""
    options = {
        "total": 4,
        "backoff_factor": 0.01,
        "status_forcelist": [429, 500, 502, 503, 504],
        "allowed_methods": Retry.DEFAULT_ALLOWED_METHODS | {"POST"},
        "raise_on_status": False,
    }
    options.update(retry_options)
    session = requests.Session()
    session.mount("http://", HTTPAdapter(max_retries=Retry(**options)))
    return session


def requests_correct():
    return requests_session().post(URL, json=ORDER, headers={**AUTH, "Idempotency-Key": str(uuid.uuid4())})


def requests_without_retry_after():
    session = requests_session(respect_retry_after_header=False)
    return session.post(URL, json=ORDER, headers={**AUTH, "Idempotency-Key": str(uuid.uuid4())})


def requests_retrying_409():
    # The order's key is reused for a changed order: paysim answers 409, which the Retry takes.
    session = requests_session(status_forcelist=[409, 429, 500, 502, 503, 504], total=2)
    key = str(uuid.uuid4())
    first = session.post(URL, json=ORDER, headers={**AUTH, "Idempotency-Key": key})
    assert first.status_code == 201, first.text
    return session.post(URL, json={**ORDER, "amount": 4300}, headers={**AUTH, "Idempotency-Key": key})


RETRIED_STATUSES = {429, 500, 502, 503, 504}


def httpx_create(new_key_per_attempt=False, read_retry_after=True):
    """httpx's transport retries only failed connections; its docs leave the rest to a loop of
    your own: one key per creation, made before the loop, and Retry-After waited."""
    key = str(uuid.uuid4())
    with httpx.Client(transport=httpx.HTTPTransport(retries=2), timeout=0.5) as client:
        for attempt in range(5):
            if new_key_per_attempt:
                key = str(uuid.uuid4())
            try:
                response = client.post(URL, json=ORDER, headers={**AUTH, "Idempotency-Key": key})
            except (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError):
                time.sleep(0.01 * 2**attempt)
                continue
            if response.status_code not in RETRIED_STATUSES:
                return response
            wait = int(response.headers.get("Retry-After", "0")) if read_retry_after else 0
            time.sleep(max(wait, 0.01 * 2**attempt))
        return response


CASES = {
    "requests-correct": requests_correct,
    "requests-without-retry-after": requests_without_retry_after,
    "requests-retrying-409": requests_retrying_409,
    "httpx-correct": httpx_create,
    "httpx-new-key-per-attempt": lambda: httpx_create(new_key_per_attempt=True),
    "httpx-without-retry-after": lambda: httpx_create(read_retry_after=False),
}

if __name__ == "__main__":
    answer = CASES[sys.argv[1]]()
    print(json.dumps({"status": answer.status_code, "request_id": answer.headers.get("Request-Id")}))
