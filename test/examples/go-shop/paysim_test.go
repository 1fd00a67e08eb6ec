// Package shop's tests run against paysim over HTTP, with nothing but Go's standard library.
//
// Run them under a throwaway paysim, always with -count=1 (a cached result calls nothing):
//
//	paysim exec --report report.json --junit junit.xml --fail-on errors -- go test -count=1 ./...
package shop

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The paysim that `paysim exec` started for this run, and its key.
var paysimURL, paysimKey string

// shared is the package's own instance, for the tests that do not run in parallel.
var shared *Instance

func TestMain(m *testing.M) {
	paysimURL, paysimKey = os.Getenv("PAYSIM_URL"), os.Getenv("PAYSIM_SECRET_KEY")
	if paysimURL == "" || paysimKey == "" {
		fmt.Fprintln(os.Stderr, "PAYSIM_URL and PAYSIM_SECRET_KEY are not set: run the tests with `paysim exec -- go test -count=1 ./...`")
		os.Exit(2)
	}
	var err error
	if shared, err = startInstance(JSON{"name": "Shop tests"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if err := shared.stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// JSON is a JSON object as encoding/json decodes one.
type JSON map[string]any

// Str is the field name as text ("" when absent); Obj is the object under name.
func (j JSON) Str(name string) string {
	if value, ok := j[name]; ok && value != nil {
		return fmt.Sprint(value)
	}
	return ""
}

func (j JSON) Obj(name string) JSON {
	object, _ := j[name].(map[string]any)
	return object
}

// Instance is a whole paysim of its own, started inside the one `paysim exec` runs: its own port,
// in-memory database, key, clock and webhook endpoints.
type Instance struct {
	ID            string `json:"id"`
	URL           string `json:"url"`
	SecretKey     string `json:"secret_key"`
	SigningSecret string `json:"signing_secret"`
}

// newInstance starts an instance for one test and stops it when the test ends.
func newInstance(t *testing.T, options JSON) *Instance {
	t.Helper()
	instance, err := startInstance(options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := instance.stop(); err != nil {
			t.Error(err)
		}
	})
	return instance
}

// startInstance asks the parent paysim for an instance. Its Idempotency-Key is new on every run:
// a fixed one would replay an instance that an earlier run started, and stopped.
func startInstance(options JSON) (*Instance, error) {
	if options == nil {
		options = JSON{}
	}
	status, answer, err := send("POST", paysimURL+"/v1/sandbox/instances", paysimKey, options, newKey())
	if err != nil || status != http.StatusCreated {
		return nil, fmt.Errorf("starting an instance: %d %s %v", status, answer, err)
	}
	instance := &Instance{}
	return instance, json.Unmarshal(answer, instance)
}

// stop stops the instance: its port closes and its data is gone.
func (in *Instance) stop() error {
	status, answer, err := send("DELETE", paysimURL+"/v1/sandbox/instances/"+in.ID, paysimKey, nil, "")
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("stopping %s: %d %s %v", in.ID, status, answer, err)
	}
	return nil
}

// Call sends a request to the instance with its key; a POST gets a new Idempotency-Key.
// It fails the test unless paysim answers 2xx, with paysim's own message.
func (in *Instance) Call(t *testing.T, method, path string, body any) JSON {
	t.Helper()
	key := ""
	if method == "POST" {
		key = newKey()
	}
	status, raw, err := send(method, in.URL+path, in.SecretKey, body, key)
	if err != nil || status >= 300 {
		t.Fatalf("%s %s: %d %s %v", method, path, status, raw, err)
	}
	answer := JSON{}
	if err := json.Unmarshal(raw, &answer); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return answer
}

// WaitForEvent holds until an event matches query (GET /v1/sandbox/events/wait), instead of polling;
// on a timeout paysim's 408 names the filter and the events it had, and the test fails with it.
func (in *Instance) WaitForEvent(t *testing.T, query string) JSON {
	t.Helper()
	return in.Call(t, "GET", "/v1/sandbox/events/wait?timeout_ms=10000&"+query, nil)
}

// WaitForWebhook holds until a delivery matches query (GET /v1/sandbox/webhooks/wait).
func (in *Instance) WaitForWebhook(t *testing.T, query string) JSON {
	t.Helper()
	return in.Call(t, "GET", "/v1/sandbox/webhooks/wait?timeout_ms=10000&"+query, nil)
}

// client's timeout is longer than the longest wait paysim holds a request for (60 s).
var client = &http.Client{Timeout: 70 * time.Second}

// send makes one request and reads the whole answer; an answer that never came is the error.
func send(method, url, key string, body any, idempotencyKey string) (int, []byte, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return 0, nil, err
		}
	}
	request, err := http.NewRequest(method, url, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, err
	}
	request.Header.Set("Authorization", "Bearer "+key)
	request.Header.Set("Content-Type", "application/json")
	if idempotencyKey != "" {
		request.Header.Set("Idempotency-Key", idempotencyKey)
	}
	response, err := client.Do(request)
	if err != nil {
		return 0, nil, err
	}
	defer response.Body.Close()
	var answer bytes.Buffer
	_, err = answer.ReadFrom(response.Body)
	return response.StatusCode, answer.Bytes(), err
}

// newKey is a random Idempotency-Key.
func newKey() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// verifySignature checks a Service-Signature header, "t=<unix seconds>,v1=<hex>", where the hex is
// the HMAC-SHA256 of "<t>.<raw body>" keyed with the whole secret, whsec_ included. A delivery
// signed more than 5 minutes away from now is refused, so that a recorded one cannot be replayed.
func verifySignature(body []byte, header, secret string, now time.Time) bool {
	timestamp, signatures := "", []string{}
	for _, part := range strings.Split(header, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case name == "t" && timestamp == "":
			timestamp = value
		case name == "t":
			return false // two timestamps: not a header paysim sent
		case name == "v1":
			signatures = append(signatures, value)
		}
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false
	}
	if age := now.Sub(time.Unix(seconds, 0)); age > 5*time.Minute || age < -5*time.Minute {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(body)
	expected := mac.Sum(nil)
	for _, signature := range signatures {
		if given, err := hex.DecodeString(signature); err == nil && hmac.Equal(given, expected) {
			return true
		}
	}
	return false
}
