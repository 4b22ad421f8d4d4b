package dev.prismindex.opensearch;

import dev.prismindex.engine.HybridIndexOptions;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of an {@link OpenSearchIndex}. Build with {@link #builder}.
 *
 * @param local the repository and the indexing pipeline's rules (root, include / exclude, size and
 *     secret rules, threads, embedding model): the same options as the local engine's; {@code
 *     home} is not used
 * @param urls the cluster's HTTP endpoints ({@code http} or {@code https}; several for
 *     failover), each without a path
 * @param username basic-auth user, or null for none
 * @param password basic-auth password (with {@code username}); never logged or printed
 * @param indexName the cluster index holding this repository (lower case, at most 200
 *     characters); default {@link #defaultIndexName}: one index per repository root, so two
 *     worktrees of one repository get two indices
 * @param shards primary shards of a new index (default 1)
 * @param replicas replicas of a new index (default 1)
 * @param bulkBytes a bulk request is sent once it holds about this many bytes (default 5 MiB)
 * @param timeout connect and response timeout of one request (default 30 s)
 * @param retries how often a request refused with 429 / 502 / 503 / 504, or that could not
 *     connect, is retried, with exponential backoff from 200 ms (default 5)
 */
public record OpenSearchOptions(
    HybridIndexOptions local,
    List<URI> urls,
    @Nullable String username,
    @Nullable String password,
    String indexName,
    int shards,
    int replicas,
    long bulkBytes,
    Duration timeout,
    int retries) {

  /** The default size of one bulk request. */
  public static final long DEFAULT_BULK_BYTES = 5L << 20;

  public OpenSearchOptions {
    Objects.requireNonNull(local, "local");
    urls = List.copyOf(urls);
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("at least one cluster URL is required");
    }
    for (URI u : urls) {
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null) {
        throw new IllegalArgumentException("not an http(s) URL of a cluster: " + u);
      }
      if (u.getUserInfo() != null) {
        throw new IllegalArgumentException(
            "credentials do not belong in the cluster URL; set username and password");
      }
    }
    if ((username == null) != (password == null)) {
      throw new IllegalArgumentException("username and password go together");
    }
    Objects.requireNonNull(indexName, "indexName");
    if (!indexName.matches("[a-z0-9][a-z0-9_.-]{0,199}")) {
      throw new IllegalArgumentException("invalid index name (lower-case letters, digits, "
          + "'_', '.', '-'; at most 200): " + indexName);
    }
    if (shards < 1 || replicas < 0 || bulkBytes < 1024 || retries < 0) {
      throw new IllegalArgumentException("shards >= 1, replicas >= 0, bulkBytes >= 1024 and "
          + "retries >= 0 are required");
    }
    Objects.requireNonNull(timeout, "timeout");
  }

  /** Options for the repository of {@code local} on the cluster at {@code url}, defaults else. */
  public static Builder builder(HybridIndexOptions local, URI url) {
    return new Builder(local, url);
  }

  /**
   * {@code prism-<directory name>-<8 hex digits of the root's path hash>}: readable, distinct per
   * repository root, stable across runs.
   */
  public static String defaultIndexName(HybridIndexOptions local) {
    String name = local.root().getFileName() == null ? "root"
        : local.root().getFileName().toString().toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9_.-]+", "-").replaceAll("^[-_.]+", "");
    if (name.isEmpty()) {
      name = "repo";
    }
    if (name.length() > 60) {
      name = name.substring(0, 60);
    }
    return "prism-" + name + "-" + ClusterIds.shortHash(local.root().toString());
  }

  /** A builder of {@link OpenSearchOptions}. */
  public static final class Builder {
    private final HybridIndexOptions local;
    private List<URI> urls;
    private @Nullable String username;
    private @Nullable String password;
    private @Nullable String indexName;
    private int shards = 1;
    private int replicas = 1;
    private long bulkBytes = DEFAULT_BULK_BYTES;
    private Duration timeout = Duration.ofSeconds(30);
    private int retries = 5;

    private Builder(HybridIndexOptions local, URI url) {
      this.local = Objects.requireNonNull(local, "local");
      this.urls = List.of(Objects.requireNonNull(url, "url"));
    }

    public Builder urls(List<URI> value) {
      urls = value;
      return this;
    }

    public Builder credentials(String user, String secret) {
      username = user;
      password = secret;
      return this;
    }

    public Builder indexName(String value) {
      indexName = value;
      return this;
    }

    public Builder shards(int value) {
      shards = value;
      return this;
    }

    public Builder replicas(int value) {
      replicas = value;
      return this;
    }

    public Builder bulkBytes(long value) {
      bulkBytes = value;
      return this;
    }

    public Builder timeout(Duration value) {
      timeout = value;
      return this;
    }

    public Builder retries(int value) {
      retries = value;
      return this;
    }

    public OpenSearchOptions build() {
      return new OpenSearchOptions(local, urls, username, password,
          indexName != null ? indexName : defaultIndexName(local), shards, replicas, bulkBytes,
          timeout, retries);
    }
  }

  /** Never prints the password. */
  @Override
  public String toString() {
    return "OpenSearchOptions[root=" + local.root() + ", urls=" + urls + ", username=" + username
        + ", password=" + (password == null ? "none" : "***") + ", indexName=" + indexName
        + ", shards=" + shards + ", replicas=" + replicas + ", bulkBytes=" + bulkBytes
        + ", timeout=" + timeout + ", retries=" + retries + "]";
  }
}
