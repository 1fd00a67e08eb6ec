import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A shop's payments against paysim; the tests run at once, each on an instance of its own. */
@Execution(ExecutionMode.CONCURRENT)
class PaymentsTest {
    /** The class's own instance, started before its tests and stopped after them; only the reset test uses it. */
    static Paysim.Instance shared;

    @BeforeAll
    static void startShared() throws Exception {
        shared = Paysim.Instance.start("{\"name\": \"Shop tests\"}");
    }

    @AfterAll
    static void stopShared() throws Exception {
        if (shared != null) shared.close();
    }

    /** Creates a payment intent and authorizes it with a test card: pm_card_visa is captured at once, pm_card_declined fails. */
    static Paysim.Answer pay(Paysim.Instance paysim, int amount, String card) throws Exception {
        String id = paysim.call("POST", "/v1/payment_intents", "{\"amount\": " + amount + ", \"currency\": \"EUR\"}").field("id");
        return paysim.call("POST", "/v1/payment_intents/" + id + "/authorize", "{\"payment_method\": \"" + card + "\"}");
    }

    /**
     * The shop's own client call. Its Idempotency-Key is made once per payment, not per attempt: a
     * creation that got no answer, or a 5xx, is sent again under the same key, and paysim answers
     * with what it did the first time instead of charging twice.
     */
    static Paysim.Answer createPaymentIntent(Paysim.Instance paysim, int amount) throws Exception {
        String key = UUID.randomUUID().toString();
        for (int attempt = 1; ; attempt++) {
            try {
                Paysim.Answer answer = Paysim.send("POST", paysim.url + "/v1/payment_intents", paysim.secretKey, "{\"amount\": " + amount + ", \"currency\": \"EUR\"}", key);
                if (answer.status() == 201) return answer;
                if (answer.status() < 500 || attempt == 3) throw new AssertionError("creating a payment intent: " + answer);
            } catch (IOException noAnswer) {
                if (attempt == 3) throw noAnswer;
            }
        }
    }

    @Test
    void aDeclinedCardFailsThePayment() throws Exception {
        try (Paysim.Instance paysim = Paysim.Instance.start("{}")) {
            Paysim.Answer intent = pay(paysim, 1500, "pm_card_declined");

            assertEquals("failed", intent.field("state"));
            assertEquals("card_declined", intent.field("failure_reason"));
        }
    }

    @Test
    void aLostAnswerIsRetriedUnderTheSameKey() throws Exception {
        try (Paysim.Instance paysim = Paysim.Instance.start("{}")) {
            // The next creation is made and committed, but its connection closes with no answer.
            paysim.call("POST", "/v1/sandbox/faults", "{\"fault\": \"lost_response\", \"match\": {\"method\": \"POST\", \"path\": \"/v1/payment_intents\"}}");

            Paysim.Answer intent = createPaymentIntent(paysim, 2500);

            assertEquals(0, paysim.call("GET", "/v1/sandbox/faults", null).count("\"object\":\"fault\""), "the fault never hit");
            Paysim.Answer listed = paysim.call("GET", "/v1/payment_intents", null);
            assertEquals(1, listed.count("\"object\":\"payment_intent\""), "one payment was made: " + listed.body());
            assertEquals(intent.field("id"), listed.field("id"));
        }
    }

    @Test
    void aFailedPayoutIsToldByItsEvent() throws Exception {
        try (Paysim.Instance paysim = Paysim.Instance.start("{}")) {
            String payout = paysim.call("POST", "/v1/payouts",
                    "{\"amount\": 5000, \"currency\": \"EUR\", \"destination_type\": \"account\", \"destination_token\": \"tok_account_fail\"}").field("id");

            // tok_account_fail fails 2 s after its creation, on the instance's clock: move it, don't sleep.
            paysim.call("POST", "/v1/sandbox/clock/advance", "{\"seconds\": 2}");
            Paysim.Answer event = paysim.waitForEvent("type=payout.failed&object_id=" + payout);

            assertEquals("destination_rejected", event.field("failure_reason"));
        }
    }

    /** One webhook as the receiver got it. */
    record Delivery(String eventId, String signature, byte[] body) {}

    @Test
    void theWebhookIsSignedByPaysim() throws Exception {
        // The receiver: a webhook endpoint on a free port (0) that keeps what it gets and answers 200.
        List<Delivery> received = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/webhooks", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(new Delivery(exchange.getRequestHeaders().getFirst("Service-Event-Id"), exchange.getRequestHeaders().getFirst("Service-Signature"), body));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        String hook = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/webhooks";
        // The instance stops before the receiver does.
        try (Paysim.Instance paysim = Paysim.Instance.start("{\"forward_to\": [\"" + hook + "\"]}")) {
            String intent = pay(paysim, 4200, "pm_card_visa").field("id");
            String event = paysim.waitForWebhook("type=payment_intent.captured&object_id=" + intent).field("id");

            List<Delivery> got = received.stream().filter(delivery -> event.equals(delivery.eventId())).toList();
            assertEquals(1, got.size(), "deliveries of " + event);
            Delivery delivery = got.get(0);
            assertTrue(Paysim.verifySignature(delivery.body(), delivery.signature(), paysim.signingSecret, Instant.now()), "Service-Signature " + delivery.signature());
            byte[] tampered = new String(delivery.body(), StandardCharsets.UTF_8).replace("\"amount\":4200", "\"amount\":1").getBytes(StandardCharsets.UTF_8);
            assertFalse(Paysim.verifySignature(tampered, delivery.signature(), paysim.signingSecret, Instant.now()), "a changed body must not verify");
            assertFalse(Paysim.verifySignature(delivery.body(), delivery.signature(), "whsec_another_secret", Instant.now()), "another secret must not verify");
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void verifySignatureOnAKnownVector() throws Exception {
        byte[] body = "{\"id\":\"evt_known\",\"amount\":4200}".getBytes(StandardCharsets.UTF_8);
        String header = "t=1700000000,v1=fc6153d1361d6c8d278a9046966d8777d58e8f2bb013929c6ee0b89a9c1d16de";
        Instant signedAt = Instant.ofEpochSecond(1700000000);

        assertTrue(Paysim.verifySignature(body, header, "whsec_known_vector", signedAt.plusSeconds(60)), "the documented vector");
        assertFalse(Paysim.verifySignature(body, header, "whsec_known_vector", signedAt.plusSeconds(600)), "signed 10 minutes ago");
        assertFalse(Paysim.verifySignature(body, "v1=zz", "whsec_known_vector", signedAt), "a header without t=");
    }

    @Test
    void resetEmptiesTheSandbox() throws Exception {
        shared.call("POST", "/v1/payment_intents", "{\"amount\": 700}");

        Paysim.Answer reset = shared.call("POST", "/v1/sandbox/reset", null);

        assertEquals("1", reset.field("payment_intents"), "deleted: " + reset.body());
        assertEquals(0, shared.call("GET", "/v1/payment_intents", null).count("\"object\":\"payment_intent\""));
    }
}
