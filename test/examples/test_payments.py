"""Payments and their webhooks, tested against paysim over HTTP with nothing but Python's standard library.

Run with a throwaway paysim: paysim exec -- python3 -m unittest -v test_payments.py
"""
import hashlib
import hmac
import http.server
import json
import os
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import uuid

PAYSIM_URL = os.environ.get("PAYSIM_URL")
PAYSIM_SECRET_KEY = os.environ.get("PAYSIM_SECRET_KEY")


def setUpModule():
    if not (PAYSIM_URL and PAYSIM_SECRET_KEY):
        raise RuntimeError("PAYSIM_URL and PAYSIM_SECRET_KEY are not set: run the tests with `paysim exec -- python3 -m unittest ...`")


def call(method, url, key, body=None):
    """Sends one request to paysim; returns (HTTP status, JSON answer), errors included."""
    # A fresh Idempotency-Key on every call: creations need one, and a fresh one never replays.
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": str(uuid.uuid4())}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        # Longer than the longest wait paysim holds a request for (60 s).
        with urllib.request.urlopen(request, timeout=70) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def signature_is_valid(raw_body, header, secret, tolerance_seconds=300):
    """Checks a Service-Signature header, "t=<unix seconds>,v1=<hex>", where the hex is the
    HMAC-SHA256 of "<t>.<raw body>" keyed with the whole secret, whsec_ included."""
    fields = [part.strip().split("=", 1) for part in (header or "").split(",")]
    timestamps = [value for name, value in fields if name == "t" and value.isdigit()]
    signatures = [value for name, value in fields if name == "v1"]
    if len(timestamps) != 1 or abs(time.time() - int(timestamps[0])) > tolerance_seconds:
        return False
    signed = timestamps[0].encode() + b"." + raw_body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, signature) for signature in signatures)


class Receiver(http.server.ThreadingHTTPServer):
    """A webhook endpoint on a free port. It keeps every delivery as it arrived, and answers 500
    the first time it sees an event and 200 after, so that every event is retried once."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), ReceiverHandler)
        self.url = f"http://127.0.0.1:{self.server_port}/webhooks"
        self.deliveries = []  # (Service-Event-Id, Service-Signature, raw body), in arrival order
        self.lock = threading.Lock()

    def received(self, event_id):
        with self.lock:
            return [delivery for delivery in self.deliveries if delivery[0] == event_id]


class ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        event_id = self.headers["Service-Event-Id"]
        with self.server.lock:
            first_time = all(delivery[0] != event_id for delivery in self.server.deliveries)
            self.server.deliveries.append((event_id, self.headers["Service-Signature"], body))
        self.send_response(500 if first_time else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args):
        pass  # keep the test output to the tests' own


class PaymentWebhooksTest(unittest.TestCase):
    """Each test gets a paysim instance of its own, which delivers its webhooks to a receiver of its own."""

    def setUp(self):
        self.receiver = Receiver()
        threading.Thread(target=self.receiver.serve_forever, daemon=True).start()
        self.addCleanup(self.receiver.server_close)
        self.addCleanup(self.receiver.shutdown)
        status, self.instance = call("POST", f"{PAYSIM_URL}/v1/sandbox/instances", PAYSIM_SECRET_KEY, {"forward_to": [self.receiver.url]})
        self.assertEqual(status, 201, f"starting an instance: {self.instance}")

    def tearDown(self):
        # 404 when the test has stopped the instance itself.
        status, answer = call("DELETE", f"{PAYSIM_URL}/v1/sandbox/instances/{self.instance['id']}", PAYSIM_SECRET_KEY)
        self.assertIn(status, (200, 404), f"stopping the instance: {answer}")

    def api(self, method, path, body=None):
        """A request to this test's instance, with its own key."""
        return call(method, self.instance["url"] + path, self.instance["secret_key"], body)

    def pay(self, amount):
        """Creates a payment intent and authorizes it with the test card that succeeds; it is captured at once."""
        status, intent = self.api("POST", "/v1/payment_intents", {"amount": amount, "currency": "EUR"})
        self.assertEqual(status, 201, f"creating a payment intent: {intent}")
        status, intent = self.api("POST", f"/v1/payment_intents/{intent['id']}/authorize", {"payment_method": "pm_card_visa"})
        self.assertEqual(status, 200, f"authorizing {intent.get('id')}: {intent}")
        self.assertEqual(intent["state"], "captured", "pm_card_visa is authorized and captured at once")
        return intent

    def wait_for_webhook(self, **query):
        """Holds until a delivery matches the query; on a timeout, fails with paysim's account of what did happen."""
        status, answer = self.api("GET", "/v1/sandbox/webhooks/wait?" + urllib.parse.urlencode({"timeout_ms": 10000, **query}))
        self.assertEqual(status, 200, answer.get("error", {}).get("message", answer))
        return answer["event"], answer["delivery"]

    def test_webhook_signature_verifies(self):
        intent = self.pay(4200)

        event, delivery = self.wait_for_webhook(type="payment_intent.captured", object_id=intent["id"], attempt=1)

        self.assertEqual(delivery["attempts"][0]["status_code"], 500, "the receiver answers 500 to an event's first delivery")
        received = self.receiver.received(event["id"])
        self.assertEqual(len(received), 1, f"the receiver got {event['id']} {len(received)} times")
        _, signature, body = received[0]
        self.assertTrue(signature_is_valid(body, signature, self.instance["signing_secret"]), f"Service-Signature {signature!r} does not verify")
        self.assertEqual(json.loads(body)["data"]["amount"], 4200)

    def test_tampered_webhook_fails_verification(self):
        intent = self.pay(4200)
        event, _ = self.wait_for_webhook(type="payment_intent.captured", object_id=intent["id"], attempt=1)
        _, signature, body = self.receiver.received(event["id"])[0]

        tampered = body.replace(b'"amount":4200', b'"amount":1')
        self.assertNotEqual(tampered, body, "the body holds the amount as paysim sent it")
        self.assertFalse(signature_is_valid(tampered, signature, self.instance["signing_secret"]), "a changed body must not verify")
        self.assertFalse(signature_is_valid(body, signature, "whsec_another_secret"), "another secret must not verify")

    def test_failed_webhook_is_retried_when_the_clock_moves(self):
        intent = self.pay(1500)
        event, delivery = self.wait_for_webhook(type="payment_intent.captured", object_id=intent["id"], attempt=1)
        self.assertEqual(delivery["status"], "pending", "a delivery answered with a 500 waits for its retry")

        # The first retry is due 30 s after the first attempt: move the instance's clock, not the test's.
        status, clock = self.api("POST", "/v1/sandbox/clock/advance", {"seconds": 30})
        self.assertEqual(status, 200, f"advancing the clock: {clock}")

        _, delivery = self.wait_for_webhook(type="payment_intent.captured", object_id=intent["id"], attempt=2)
        self.assertEqual(delivery["status"], "succeeded")
        self.assertEqual([attempt["status_code"] for attempt in delivery["attempts"]], [500, 200])
        received = self.receiver.received(event["id"])
        self.assertEqual(len(received), 2, f"the receiver got {event['id']} {len(received)} times")
        self.assertEqual(received[0][2], received[1][2], "a retry sends the same bytes")
        self.assertTrue(signature_is_valid(received[1][2], received[1][1], self.instance["signing_secret"]), "the retry is signed too")

    def test_stopped_instance_no_longer_answers(self):
        status, answer = call("DELETE", f"{PAYSIM_URL}/v1/sandbox/instances/{self.instance['id']}", PAYSIM_SECRET_KEY)
        self.assertEqual((status, answer.get("deleted")), (200, True), f"stopping the instance: {answer}")

        with self.assertRaises(urllib.error.URLError, msg=f"{self.instance['url']} still answers after DELETE"):
            urllib.request.urlopen(self.instance["url"] + "/health", timeout=10)
        status, listed = call("GET", f"{PAYSIM_URL}/v1/sandbox/instances", PAYSIM_SECRET_KEY)
        self.assertNotIn(self.instance["id"], [instance["id"] for instance in listed["data"]])
