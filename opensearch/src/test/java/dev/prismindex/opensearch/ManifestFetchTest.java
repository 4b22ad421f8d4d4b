package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ranked search reads the manifest entries of its candidates' files in one {@code _mget}, not
 * one {@code GET} per file: the requests are counted by a relay in front of the real cluster.
 */
class ManifestFetchTest {

  @TempDir
  Path root;

  @Test
  void theCandidatesEntriesAreReadInOneRequest() throws Exception {
    for (int i = 0; i < 12; i++) {
      Path p = root.resolve("src/Widget" + i + ".java");
      Files.createDirectories(p.getParent());
      Files.writeString(p, "class Widget" + i + " {\n  void frobnicate() { frobnicate(); }\n}\n",
          StandardCharsets.UTF_8);
    }
    List<String> requests = new CopyOnWriteArrayList<>();
    HttpServer relay = relay(TestCluster.url(0), requests);
    try (OpenSearchIndex index = OpenSearchIndex.open(TestCluster.options(root).build());
        OpenSearchIndex relayed = OpenSearchIndex.open(OpenSearchOptions.builder(
            TestCluster.local(root), URI.create("http://127.0.0.1:" + relay.getAddress().getPort()))
            .indexName(index.options().indexName()).retries(0).build())) {
      index.refresh(false);
      for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        requests.clear();
        List<Hit> hits = relayed.search("frobnicate", new SearchOpts(10, mode, null));
        assertThat(hits).as(mode.name()).hasSize(10);
        assertThat(requests).as(mode.name()).noneMatch(r -> r.startsWith("GET /" 
            + index.options().indexName() + "/_doc/f:"));
        assertThat(requests).as(mode.name()).filteredOn(r -> r.contains("/_mget")).hasSize(1);
      }
    } finally {
      relay.stop(0);
    }
  }

  /** An HTTP relay to {@code target} that records "METHOD path" of every request. */
  private static HttpServer relay(URI target, List<String> requests) throws IOException {
    HttpClient client = HttpClient.newHttpClient();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        URI uri = exchange.getRequestURI();
        requests.add(exchange.getRequestMethod() + " " + uri.getRawPath());
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
          body = in.readAllBytes();
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
        r.headers().firstValue("Content-Type")
            .ifPresent(v -> exchange.getResponseHeaders().add("Content-Type", v));
        exchange.sendResponseHeaders(r.statusCode(), r.body().length == 0 ? -1 : r.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(r.body());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    server.start();
    return server;
  }
}
