package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.generic.Body;
import org.opensearch.client.opensearch.generic.OpenSearchGenericClient;
import org.opensearch.client.opensearch.generic.Request;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.opensearch.generic.Response;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5Transport;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;
import org.opensearch.client.transport.httpclient5.ResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JSON over HTTP to the cluster through the official client's generic API (Apache HttpClient 5
 * transport): one request at a time per call, retried with exponential backoff when the cluster
 * is overloaded (429), unavailable (502, 503, 504), cannot be reached or does not answer within
 * the timeout (every request we send may be sent twice: documents by id, deletions by query,
 * searches); then {@link ClusterUnavailableException}. Credentials go to the client's credentials provider only.
 */
final class Cluster implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<Integer> RETRIED = Set.of(429, 502, 503, 504);
  private static final long FIRST_BACKOFF_MS = 200;
  private static final long MAX_BACKOFF_MS = 5_000;

  /** A reply: its HTTP status and its JSON body ({@link MissingNode} when it has none). */
  record Reply(int status, JsonNode body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  private final ApacheHttpClient5Transport transport;
  private final OpenSearchGenericClient client;
  private final int retries;
  private final java.time.Duration timeout;
  private final String where;

  private Cluster(ApacheHttpClient5Transport transport, int retries, java.time.Duration timeout,
      String where) {
    this.transport = transport;
    this.client = new OpenSearchGenericClient(transport);
    this.retries = retries;
    this.timeout = timeout;
    this.where = where;
  }

  static Cluster connect(OpenSearchOptions o) {
    List<URI> urls = o.urls();
    HttpHost[] hosts = new HttpHost[urls.size()];
    for (int i = 0; i < hosts.length; i++) {
      URI u = urls.get(i);
      int port = u.getPort() >= 0 ? u.getPort() : u.getScheme().equalsIgnoreCase("https") ? 443
          : 9200;
      hosts[i] = new HttpHost(u.getScheme().toLowerCase(java.util.Locale.ROOT), u.getHost(),
          port);
    }
    Timeout timeout = Timeout.ofMilliseconds(o.timeout().toMillis());
    ApacheHttpClient5TransportBuilder b = ApacheHttpClient5TransportBuilder.builder(hosts)
        .setMapper(new JacksonJsonpMapper())
        .setRequestConfigCallback(rc -> rc.setConnectionRequestTimeout(timeout)
            .setResponseTimeout(timeout));
    String user = o.username();
    String password = o.password();
    if (user != null && password != null) {
      b.setHttpClientConfigCallback(hc -> {
        BasicCredentialsProvider credentials = new BasicCredentialsProvider();
        for (HttpHost h : hosts) {
          credentials.setCredentials(new AuthScope(h),
              new UsernamePasswordCredentials(user, password.toCharArray()));
        }
        return hc.setDefaultCredentialsProvider(credentials);
      });
    }
    return new Cluster(b.build(), o.retries(), o.timeout(), urls.toString());
  }

  /** Sends a JSON request ({@code body} may be null) and returns the reply, whatever its status. */
  Reply send(String method, String endpoint, Map<String, String> params, @Nullable Object body)
      throws IOException {
    Requests.JsonBodyBuilder b = Requests.builder().method(method).endpoint(endpoint).query(params);
    if (body != null) {
      b.json(body instanceof String s ? s : JSON.writeValueAsString(body));
    }
    return execute(b.build(), method + " " + endpoint);
  }

  /** Sends an NDJSON bulk body to {@code endpoint}. */
  Reply sendBulk(String endpoint, Map<String, String> params, byte[] ndjson) throws IOException {
    Request r = Requests.builder().method("POST").endpoint(endpoint).query(params)
        .body(Body.from(ndjson, "application/x-ndjson")).build();
    return execute(r, "POST " + endpoint);
  }

  /** {@link #send} that throws {@link ClusterRequestException} unless the status is 2xx. */
  JsonNode call(String method, String endpoint, Map<String, String> params, @Nullable Object body)
      throws IOException {
    Reply r = send(method, endpoint, params, body);
    if (!r.ok()) {
      throw ClusterRequestException.of(method + " " + endpoint, r);
    }
    return r.body();
  }

  private Reply execute(Request request, String what) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try (Response r = client.execute(request)) {
        int status = r.getStatus();
        if (RETRIED.contains(status) && attempt < retries) {
          LOG.debug("{} answered {}; retrying", what, status);
          pause(attempt);
          continue;
        }
        if (RETRIED.contains(status)) {
          throw new ClusterUnavailableException("the OpenSearch cluster at " + where
              + " kept refusing " + what + " (HTTP " + status + ") after " + retries
              + " retries");
        }
        byte[] bytes = r.getBody().map(Body::bodyAsBytes).orElse(new byte[0]);
        JsonNode json = bytes.length == 0 ? MissingNode.getInstance() : parse(bytes);
        return new Reply(status, json);
      } catch (ClusterUnavailableException e) {
        throw e;
      } catch (InterruptedIOException e) {
        if (Thread.currentThread().isInterrupted()) {
          throw e;
        }
        // Not an interruption: the timeout (the transport's SocketTimeoutException says only
        // "30000 MILLISECONDS"). A busy cluster may answer the same request in time.
        if (attempt >= retries) {
          throw new ClusterUnavailableException("the OpenSearch cluster at " + where
              + " did not answer " + what + " within " + timeout.toMillis() + " ms, after "
              + retries + " retries", e);
        }
        LOG.debug("{} timed out; retrying", what);
        pause(attempt);
      } catch (IOException | RuntimeException e) {
        int status = refusal(e);
        if (RETRIED.contains(status)) {
          // The transport throws some refusals (429) instead of returning them.
          if (attempt < retries) {
            LOG.debug("{} answered {}; retrying", what, status);
            pause(attempt);
            continue;
          }
          throw new ClusterUnavailableException("the OpenSearch cluster at " + where
              + " kept refusing " + what + " (HTTP " + status + ") after " + retries
              + " retries", e);
        }
        if (e instanceof RuntimeException && !(e.getCause() instanceof IOException)) {
          throw e;
        }
        if (attempt >= retries) {
          throw new ClusterUnavailableException("cannot reach the OpenSearch cluster at " + where
              + " (" + what + "): " + rootMessage(e), e);
        }
        LOG.debug("{} failed: {}; retrying", what, e.toString());
        pause(attempt);
      }
    }
  }

  /** The HTTP status of a reply the transport threw as an exception (in {@code e}'s causes), or 0. */
  private static int refusal(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ResponseException r) {
        return r.status();
      }
    }
    return 0;
  }

  private static JsonNode parse(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      return JSON.getNodeFactory().textNode(new String(bytes, StandardCharsets.UTF_8));
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() != null ? t.getMessage() : t.toString();
  }

  private static void pause(int attempt) throws InterruptedIOException {
    long ms = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(attempt, 10));
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to retry");
    }
  }

  @Override
  public void close() throws IOException {
    transport.close();
  }
}
