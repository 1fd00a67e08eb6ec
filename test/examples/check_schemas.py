"""Checks paysim's answers and the webhook bodies it sends against its own OpenAPI document.

Run with a throwaway paysim: paysim exec -- python3 check_schemas.py
Needs jsonschema (Debian: apt-get install python3-jsonschema; elsewhere: pip install jsonschema).
"""
import http.server
import json
import os
import threading
import urllib.parse
import urllib.request
import uuid

from jsonschema import Draft202012Validator, ValidationError

URL = os.environ["PAYSIM_URL"]
KEY = os.environ["PAYSIM_SECRET_KEY"]


def call(method, path, body=None):
    """One API call; answers the parsed JSON body."""
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
    if method == "POST":
        headers["Idempotency-Key"] = str(uuid.uuid4())
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(URL + path, data=data, headers=headers, method=method)) as response:
        return json.load(response)


# The document is JSON Schema 2020-12 throughout: each schema of it, with the document's
# components beside it, is a schema jsonschema validates with, its "#/components/…" $refs resolved.
document = call("GET", "/v1/openapi.json")


def validator(schema):
    return Draft202012Validator({**schema, "components": document["components"]})


def answer_schema(path, method, status):
    return document["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]


class Receiver(http.server.BaseHTTPRequestHandler):
    """Keeps the body of every webhook paysim delivers to it, and answers 200."""

    bodies = []

    def do_POST(self):
        Receiver.bodies.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()
hook = f"http://127.0.0.1:{server.server_address[1]}/webhooks"
call("POST", "/v1/webhook_endpoints", {"url": hook, "enabled_events": ["payment_intent.created"]})

# An answer, against the schema the document gives that operation's answer.
intent = call("POST", "/v1/payment_intents", {"amount": 1000})
validator(answer_schema("/v1/payment_intents", "post", "201")).validate(intent)
print("POST /v1/payment_intents answer: valid")

# A webhook body, as the receiver got it, against the Event component (once paysim says it was delivered).
call("GET", f"/v1/sandbox/webhooks/wait?object_id={intent['id']}&url={urllib.parse.quote(hook, safe='')}&timeout_ms=10000")
validator({"$ref": "#/components/schemas/Event"}).validate(Receiver.bodies[0])
print("payment_intent.created webhook body: valid")

# The schemas are as strict as paysim: an answer that is off by a type fails.
try:
    validator(answer_schema("/v1/payment_intents", "post", "201")).validate({**intent, "amount": "1000"})
    raise SystemExit("a string amount passed the schema")
except ValidationError as error:
    print(f"a string amount: refused ({error.message})")
server.shutdown()
