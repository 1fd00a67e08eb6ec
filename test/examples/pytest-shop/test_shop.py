"""A shop's payments and payouts, ten tests, each on its worker's own paysim instance (conftest.py)."""


def pay(paysim, amount, payment_method="pm_card_visa"):
    status, _, intent = paysim.api("POST", "/v1/payment_intents", {"amount": amount, "currency": "EUR"})
    assert status == 201, intent
    status, _, intent = paysim.api("POST", f"/v1/payment_intents/{intent['id']}/authorize", {"payment_method": payment_method})
    assert status == 200, intent
    return intent


def test_a_card_payment_is_captured_at_once(paysim):
    assert pay(paysim, 4200)["state"] == "captured"


def test_a_declined_card_fails_the_payment(paysim):
    intent = pay(paysim, 1500, "pm_card_declined")
    assert (intent["state"], intent["failure_reason"]) == ("failed", "card_declined")


def test_a_manual_capture_waits_for_the_shop(paysim):
    status, _, intent = paysim.api("POST", "/v1/payment_intents", {"amount": 900, "capture_method": "manual"})
    assert status == 201, intent
    status, _, intent = paysim.api("POST", f"/v1/payment_intents/{intent['id']}/authorize", {"payment_method": "pm_card_mastercard"})
    assert intent["state"] == "authorized"
    status, _, intent = paysim.api("POST", f"/v1/payment_intents/{intent['id']}/capture")
    assert (status, intent["state"]) == (200, "captured")


def test_an_order_canceled_before_payment(paysim):
    status, _, intent = paysim.api("POST", "/v1/payment_intents", {"amount": 700})
    status, _, intent = paysim.api("POST", f"/v1/payment_intents/{intent['id']}/cancel")
    assert (status, intent["state"]) == (200, "canceled")


def test_a_captured_payment_cannot_be_canceled(paysim):
    intent = pay(paysim, 2500)
    status, _, answer = paysim.api("POST", f"/v1/payment_intents/{intent['id']}/cancel")
    assert (status, answer["error"]["code"]) == (400, "invalid_request")


def test_a_retried_creation_with_its_key_makes_one_payment(paysim):
    key = "order-77-attempt"
    first = paysim.api("POST", "/v1/payment_intents", {"amount": 7700}, idempotency_key=key)
    again = paysim.api("POST", "/v1/payment_intents", {"amount": 7700}, idempotency_key=key)
    assert again[1]["Idempotent-Replayed"] == "true"
    assert again[2]["id"] == first[2]["id"]


def test_the_captured_event_reaches_the_receiver(paysim, receiver):
    intent = pay(paysim, 3100)
    event = paysim.wait_for_event(type="payment_intent.captured", object_id=intent["id"])
    status, _, delivered = paysim.api("GET", f"/v1/sandbox/webhooks/wait?type=payment_intent.captured&object_id={intent['id']}&timeout_ms=10000")
    assert (status, delivered["delivery"]["status"]) == (200, "succeeded"), delivered
    with receiver.lock:
        assert event["id"] in [event_id for event_id, _ in receiver.events]


def test_a_payout_to_a_bank_account_succeeds(paysim):
    status, _, payout = paysim.api(
        "POST", "/v1/payouts", {"amount": 5000, "currency": "EUR", "destination_type": "account", "destination_token": "tok_account_fr"}
    )
    assert status == 201, payout
    for to in ("processing", "succeeded"):
        status, _, payout = paysim.api("POST", f"/v1/sandbox/payouts/{payout['id']}/transition", {"to": to})
        assert status == 200, payout
    assert paysim.wait_for_event(type="payout.succeeded", object_id=payout["id"])["type"] == "payout.succeeded"


def test_a_failed_payout_is_told_by_its_event(paysim):
    status, _, payout = paysim.api(
        "POST", "/v1/payouts", {"amount": 1200, "currency": "EUR", "destination_type": "wallet", "destination_token": "tok_wallet"}
    )
    status, _, payout = paysim.api("POST", f"/v1/sandbox/payouts/{payout['id']}/transition", {"to": "failed"})
    assert (status, payout["status"]) == (200, "failed")
    assert paysim.wait_for_event(type="payout.failed", object_id=payout["id"])["data"]["id"] == payout["id"]


def test_the_orders_list_pages(paysim):
    for amount in (100, 200, 300):
        paysim.api("POST", "/v1/payment_intents", {"amount": amount})
    status, _, page = paysim.api("GET", "/v1/payment_intents?limit=2")
    assert (status, len(page["data"]), page["has_more"]) == (200, 2, True)
    status, _, rest = paysim.api("GET", f"/v1/payment_intents?limit=2&starting_after={page['data'][-1]['id']}")
    assert [intent["amount"] for intent in page["data"] + rest["data"]] == [300, 200, 100]
