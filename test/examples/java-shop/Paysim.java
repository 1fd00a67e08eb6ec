import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * paysim over HTTP with nothing but the JDK: the paysim that `paysim exec` started (PAYSIM_URL and
 * PAYSIM_SECRET_KEY in the environment), instances of it, and the signature of a webhook delivery.
 */
final class Paysim {
    static final String URL = System.getenv("PAYSIM_URL");
    static final String KEY = System.getenv("PAYSIM_SECRET_KEY");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** An answer: its HTTP status and its JSON text. */
    record Answer(int status, String body) {
        String field(String name) {
            return Paysim.field(body, name);
        }

        /** How many times `text` occurs in the body, e.g. "\"object\":\"payment_intent\"" in a list. */
        int count(String text) {
            return body.split(Pattern.quote(text), -1).length - 1;
        }
    }

    /** Sends one request; idempotencyKey may be null. An answer that never came is the IOException. */
    static Answer send(String method, String url, String key, String json, String idempotencyKey) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(70)) // longer than the longest wait paysim holds a request for (60 s)
                .header("Authorization", "Bearer " + key)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) request.header("Content-Type", "application/json");
        if (idempotencyKey != null) request.header("Idempotency-Key", idempotencyKey);
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    /**
     * The value of the first field called `name` in a JSON text, as text: a string without its quotes
     * (escapes left as they are), or a number, true, false or null as written. Not a JSON parser: it
     * reads paysim's answers in these tests, where each field read comes before any nested one of the
     * same name. A project with a JSON library reads answers with it instead.
     */
    static String field(String json, String name) {
        Matcher match = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([-\\w.]+))").matcher(json);
        if (!match.find()) throw new AssertionError("no \"" + name + "\" in " + json);
        return match.group(1) != null ? match.group(1) : match.group(2);
    }

    /**
     * A whole paysim of its own, started inside the one `paysim exec` runs: its own port, in-memory
     * database, key, clock and webhook endpoints. close() stops it: its port closes, its data is gone.
     */
    static final class Instance implements AutoCloseable {
        final String id, url, secretKey, signingSecret;

        private Instance(Answer started) {
            id = started.field("id");
            url = started.field("url");
            secretKey = started.field("secret_key");
            signingSecret = started.field("signing_secret");
        }

        /** Starts an instance; `options` is the JSON body ("{}" for the defaults). Its Idempotency-Key is new on every run. */
        static Instance start(String options) throws IOException, InterruptedException {
            if (URL == null || KEY == null) {
                throw new IllegalStateException("PAYSIM_URL and PAYSIM_SECRET_KEY are not set: run the tests with `paysim exec -- java -jar …`");
            }
            Answer answer = send("POST", URL + "/v1/sandbox/instances", KEY, options, UUID.randomUUID().toString());
            if (answer.status() != 201) throw new AssertionError("starting an instance: " + answer);
            return new Instance(answer);
        }

        /** A request to the instance with its key (a new Idempotency-Key on every POST); fails unless paysim answers 2xx. */
        Answer call(String method, String path, String json) throws IOException, InterruptedException {
            Answer answer = send(method, url + path, secretKey, json, method.equals("POST") ? UUID.randomUUID().toString() : null);
            if (answer.status() / 100 != 2) throw new AssertionError(method + " " + path + ": " + answer);
            return answer;
        }

        /** Holds until an event matches `query` (GET /v1/sandbox/events/wait); a timeout fails with paysim's 408, which says what did happen. */
        Answer waitForEvent(String query) throws IOException, InterruptedException {
            return call("GET", "/v1/sandbox/events/wait?timeout_ms=10000&" + query, null);
        }

        /** Holds until a delivery matches `query` (GET /v1/sandbox/webhooks/wait). */
        Answer waitForWebhook(String query) throws IOException, InterruptedException {
            return call("GET", "/v1/sandbox/webhooks/wait?timeout_ms=10000&" + query, null);
        }

        @Override
        public void close() throws IOException, InterruptedException {
            Answer answer = send("DELETE", URL + "/v1/sandbox/instances/" + id, KEY, null, null);
            if (answer.status() != 200) throw new AssertionError("stopping " + id + ": " + answer);
        }
    }

    /**
     * Checks a Service-Signature header, "t=<unix seconds>,v1=<hex>", where the hex is the HMAC-SHA256
     * of "<t>.<raw body>" keyed with the whole secret, whsec_ included. A delivery signed more than
     * 5 minutes away from `now` is refused, so that a recorded one cannot be replayed.
     */
    static boolean verifySignature(byte[] body, String header, String secret, Instant now) throws Exception {
        String timestamp = null;
        List<String> signatures = new ArrayList<>();
        for (String part : (header == null ? "" : header).split(",")) {
            String[] field = part.trim().split("=", 2);
            if (field.length != 2) continue;
            if (field[0].equals("t")) {
                if (timestamp != null) return false; // two timestamps: not a header paysim sent
                timestamp = field[1];
            } else if (field[0].equals("v1")) {
                signatures.add(field[1]);
            }
        }
        if (timestamp == null || !timestamp.matches("\\d{1,12}")) return false;
        if (Math.abs(now.getEpochSecond() - Long.parseLong(timestamp)) > 300) return false;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = mac.doFinal(body);
        for (String signature : signatures) {
            if (signature.matches("[0-9a-f]{64}") && MessageDigest.isEqual(HexFormat.of().parseHex(signature), expected)) return true;
        }
        return false;
    }
}
