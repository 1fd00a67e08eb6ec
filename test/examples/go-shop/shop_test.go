package shop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// pay creates a payment intent and authorizes it with a test card: pm_card_visa is captured at
// once, pm_card_declined fails with card_declined.
func pay(t *testing.T, in *Instance, amount int, card string) JSON {
	t.Helper()
	intent := in.Call(t, "POST", "/v1/payment_intents", JSON{"amount": amount, "currency": "EUR"})
	return in.Call(t, "POST", "/v1/payment_intents/"+intent.Str("id")+"/authorize", JSON{"payment_method": card})
}

// createPaymentIntent is the shop's own client call. Its Idempotency-Key is made once per payment,
// not per attempt: a creation that got no answer, or a 5xx, is sent again under the same key, and
// paysim answers with what it did the first time instead of charging twice.
func createPaymentIntent(in *Instance, amount int) (JSON, error) {
	key := newKey()
	for attempt := 1; ; attempt++ {
		status, raw, err := send("POST", in.URL+"/v1/payment_intents", in.SecretKey, JSON{"amount": amount, "currency": "EUR"}, key)
		if err == nil && status == http.StatusCreated {
			intent := JSON{}
			return intent, json.Unmarshal(raw, &intent)
		}
		if (err == nil && status < 500) || attempt == 3 {
			return nil, fmt.Errorf("creating a payment intent, attempt %d: %d %s %v", attempt, status, raw, err)
		}
	}
}

func TestADeclinedCardFailsThePayment(t *testing.T) {
	t.Parallel()
	in := newInstance(t, nil)

	intent := pay(t, in, 1500, "pm_card_declined")

	if intent.Str("state") != "failed" || intent.Str("failure_reason") != "card_declined" {
		t.Fatalf("a declined card: state %q, failure_reason %q", intent.Str("state"), intent.Str("failure_reason"))
	}
}

func TestALostAnswerIsRetriedUnderTheSameKey(t *testing.T) {
	t.Parallel()
	in := newInstance(t, nil)
	// The next creation is made and committed, but its connection closes with no answer.
	in.Call(t, "POST", "/v1/sandbox/faults", JSON{"fault": "lost_response", "match": JSON{"method": "POST", "path": "/v1/payment_intents"}})

	intent, err := createPaymentIntent(in, 2500)

	if err != nil {
		t.Fatal(err)
	}
	if rules := in.Call(t, "GET", "/v1/sandbox/faults", nil)["data"].([]any); len(rules) != 0 {
		t.Fatalf("the fault never hit: %v", rules)
	}
	listed := in.Call(t, "GET", "/v1/payment_intents", nil)["data"].([]any)
	if len(listed) != 1 || JSON(listed[0].(map[string]any)).Str("id") != intent.Str("id") {
		t.Fatalf("one payment was made, %d listed: %v", len(listed), listed)
	}
}

func TestAFailedPayoutIsToldByItsEvent(t *testing.T) {
	t.Parallel()
	in := newInstance(t, nil)
	payout := in.Call(t, "POST", "/v1/payouts", JSON{"amount": 5000, "currency": "EUR", "destination_type": "account", "destination_token": "tok_account_fail"})

	// tok_account_fail fails 2 s after its creation, on the instance's clock: move it, don't sleep.
	in.Call(t, "POST", "/v1/sandbox/clock/advance", JSON{"seconds": 2})
	event := in.WaitForEvent(t, "type=payout.failed&object_id="+payout.Str("id"))

	if reason := event.Obj("data").Str("failure_reason"); reason != "destination_rejected" {
		t.Fatalf("payout.failed says failure_reason %q", reason)
	}
}

// delivery is one webhook as the receiver got it.
type delivery struct {
	eventID, signature string
	body               []byte
}

// receiver is a webhook endpoint on a free port (httptest picks one) that keeps what it gets.
type receiver struct {
	*httptest.Server
	mu         sync.Mutex
	deliveries []delivery
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.deliveries = append(r.deliveries, delivery{req.Header.Get("Service-Event-Id"), req.Header.Get("Service-Signature"), body})
		r.mu.Unlock()
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) received(eventID string) []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	var found []delivery
	for _, d := range r.deliveries {
		if d.eventID == eventID {
			found = append(found, d)
		}
	}
	return found
}

func TestTheWebhookIsSignedByPaysim(t *testing.T) {
	t.Parallel()
	hooks := newReceiver(t)
	// Registered after the receiver, so the instance stops before the receiver closes.
	in := newInstance(t, JSON{"forward_to": []string{hooks.URL + "/webhooks"}})

	intent := pay(t, in, 4200, "pm_card_visa")
	waited := in.WaitForWebhook(t, "type=payment_intent.captured&object_id="+intent.Str("id"))

	got := hooks.received(waited.Obj("event").Str("id"))
	if len(got) != 1 {
		t.Fatalf("the receiver got the event %d times", len(got))
	}
	if !verifySignature(got[0].body, got[0].signature, in.SigningSecret, time.Now()) {
		t.Fatalf("Service-Signature %q does not verify", got[0].signature)
	}
	tampered := bytes.Replace(got[0].body, []byte(`"amount":4200`), []byte(`"amount":1`), 1)
	if bytes.Equal(tampered, got[0].body) || verifySignature(tampered, got[0].signature, in.SigningSecret, time.Now()) {
		t.Fatal("a changed body must not verify")
	}
	if verifySignature(got[0].body, got[0].signature, "whsec_another_secret", time.Now()) {
		t.Fatal("another secret must not verify")
	}
}

func TestVerifySignatureOnAKnownVector(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id":"evt_known","amount":4200}`)
	header := "t=1700000000,v1=fc6153d1361d6c8d278a9046966d8777d58e8f2bb013929c6ee0b89a9c1d16de"
	signedAt := time.Unix(1700000000, 0)

	if !verifySignature(body, header, "whsec_known_vector", signedAt.Add(time.Minute)) {
		t.Error("the documented vector does not verify")
	}
	if verifySignature(body, header, "whsec_known_vector", signedAt.Add(10*time.Minute)) {
		t.Error("a delivery signed 10 minutes ago must not verify")
	}
	if verifySignature(body, "v1=zz", "whsec_known_vector", signedAt) {
		t.Error("a header without t= must not verify")
	}
}

// Not parallel: it uses the package's instance, which TestMain started, and resets it.
func TestResetEmptiesTheSandbox(t *testing.T) {
	shared.Call(t, "POST", "/v1/payment_intents", JSON{"amount": 700})

	reset := shared.Call(t, "POST", "/v1/sandbox/reset", nil)

	if deleted := reset.Obj("deleted").Str("payment_intents"); deleted != "1" {
		t.Fatalf("the reset deleted %s payment intents", deleted)
	}
	if left := shared.Call(t, "GET", "/v1/payment_intents", nil)["data"].([]any); len(left) != 0 {
		t.Fatalf("%d payment intents left after the reset", len(left))
	}
}
