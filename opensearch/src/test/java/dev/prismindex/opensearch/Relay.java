package dev.prismindex.opensearch;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP relay in front of the real test cluster: every request is recorded ("METHOD /path") and
 * forwarded unless a {@link Refusal} answers it itself (an overloaded cluster's 429), and the
 * cluster's reply may be rewritten on the way back ({@link Rewrite}: an item refused inside a bulk
 * reply).
 */
final class Relay implements AutoCloseable {

  /** A status to answer {@code request} ("METHOD /path") with instead of forwarding it, or 0. */
  @FunctionalInterface
  interface Refusal {
    int status(String request);
  }

  /** The reply to hand back for {@code request}, from the cluster's own. */
  @FunctionalInterface
  interface Rewrite {
    byte[] reply(String request, byte[] reply);
  }

  static final Refusal FORWARD = request -> 0;
  static final Rewrite AS_IS = (request, reply) -> reply;

  /** Whether {@code request} is a bulk request. */
  static boolean bulk(String request) {
    return request.endsWith("/_bulk");
  }

  final List<String> requests = new CopyOnWriteArrayList<>();
  /** The bodies of the requests that are not bulk requests, in their order. */
  final List<String> bodies = new CopyOnWriteArrayList<>();
  /** Bulk requests being relayed now, and the most there ever were at once. */
  final java.util.concurrent.atomic.AtomicInteger bulksInFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  final java.util.concurrent.atomic.AtomicInteger mostBulksInFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  private final HttpServer server;
  private final HttpClient client = HttpClient.newHttpClient();

  Relay(URI target, Refusal refusal, Rewrite rewrite) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        relay(exchange, target, refusal, rewrite);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "relay");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  /** The relay's own URL: give it to the index instead of the cluster's. */
  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private void relay(HttpExchange exchange, URI target, Refusal refusal, Rewrite rewrite)
      throws IOException, InterruptedException {
    URI uri = exchange.getRequestURI();
    String request = exchange.getRequestMethod() + " " + uri.getRawPath();
    requests.add(request);
    if (!bulk(request)) {
      forward(exchange, uri, request, target, refusal, rewrite, () -> { });
      return;
    }
    mostBulksInFlight.accumulateAndGet(bulksInFlight.incrementAndGet(), Math::max);
    boolean[] counted = {true};
    Runnable replying = () -> {
      // Out of flight before the client can see the reply (and send its next request).
      if (counted[0]) {
        counted[0] = false;
        bulksInFlight.decrementAndGet();
      }
    };
    try {
      forward(exchange, uri, request, target, refusal, rewrite, replying);
    } finally {
      replying.run();
    }
  }

  private void forward(HttpExchange exchange, URI uri, String request, URI target,
      Refusal refusal, Rewrite rewrite, Runnable replying)
      throws IOException, InterruptedException {
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readAllBytes();
    }
    if (!bulk(request)) {
      bodies.add(new String(body, StandardCharsets.UTF_8));
    }
    int refused = refusal.status(request);
    if (refused != 0) {
      byte[] reply = ("{\"error\":{\"reason\":\"refused by the test relay\"},\"status\":" + refused
          + "}").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      replying.run();
      exchange.sendResponseHeaders(refused, reply.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(reply);
      }
      return;
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(target.resolve(uri.getRawPath()
        + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())))
        .method(exchange.getRequestMethod(), body.length == 0
            ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (type != null) {
      b.header("Content-Type", type);
    }
    HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    byte[] reply = rewrite.reply(request, r.body());
    r.headers().firstValue("Content-Type")
        .ifPresent(v -> exchange.getResponseHeaders().add("Content-Type", v));
    replying.run();
    exchange.sendResponseHeaders(r.statusCode(), reply.length == 0 ? -1 : reply.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(reply);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
