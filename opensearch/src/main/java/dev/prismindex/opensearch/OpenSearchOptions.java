package dev.prismindex.opensearch;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a repository's index lives in an OpenSearch cluster, and how to talk to it: the
 * configuration of an {@link OpenSearchStore}. The repository and the indexing pipeline's rules
 * are the engine's own options ({@code HybridIndexOptions}). Build with {@link #builder}.
 *
 * @param urls the cluster's HTTP endpoints ({@code http} or {@code https}; several for
 *     failover), each without a path
 * @param username basic-auth user, or null for none
 * @param password basic-auth password (with {@code username}); never logged or printed
 * @param indexName the cluster index holding the repository (lower case, at most 200
 *     characters); null for its organisation's index when {@code repository} is set, else {@link
 *     #defaultIndexName} of the repository's root: one index per repository root outside any
 *     organisation, so two worktrees of one repository get two indices
 * @param shards primary shards of a new index (default 1)
 * @param replicas replicas of a new index (default 1)
 * @param bulkBytes a bulk request is sent once it holds about this many bytes (default 5 MiB)
 * @param timeout connect and response timeout of one request (default 30 s)
 * @param retries how often a request refused with 429 / 502 / 503 / 504, or that could not
 *     connect, is retried, with exponential backoff from 200 ms (default 5)
 * @param repository the repository's name in its organisation ({@link Organisation}: lower case,
 *     letters, digits, {@code . _ -}, parts joined by {@code /}), or null for a repository outside
 *     any: when set, and {@code indexName} is not, its documents go to the organisation's one
 *     index ({@link Organisation#indexName(String)}), routed by this name, where searches of the
 *     organisation find them
 * @param organisation the organisation the repository belongs to (default {@value
 *     Organisation#DEFAULT}): its repositories share the index {@code prism-org.<organisation>}
 * @param storeContent whether the index keeps a copy of each file's content (default true), so
 *     that a search from a machine without the working tree can verify its hits ({@link
 *     Organisation})
 */
public record OpenSearchOptions(
    List<URI> urls,
    @Nullable String username,
    @Nullable String password,
    @Nullable String indexName,
    int shards,
    int replicas,
    long bulkBytes,
    Duration timeout,
    int retries,
    @Nullable String repository,
    String organisation,
    boolean storeContent) {

  /** The default size of one bulk request. */
  public static final long DEFAULT_BULK_BYTES = 5L << 20;

  public OpenSearchOptions {
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
    if (indexName != null && !indexName.matches("[a-z0-9][a-z0-9_.-]{0,199}")) {
      throw new IllegalArgumentException("invalid index name (lower-case letters, digits, "
          + "'_', '.', '-'; at most 200): " + indexName);
    }
    if (shards < 1 || replicas < 0 || bulkBytes < 1024 || retries < 0) {
      throw new IllegalArgumentException("shards >= 1, replicas >= 0, bulkBytes >= 1024 and "
          + "retries >= 0 are required");
    }
    Objects.requireNonNull(timeout, "timeout");
    Organisation.checkOrganisation(organisation);
    if (repository != null) {
      repository = Organisation.checkName(repository);
    }
  }

  /** Options for the cluster at {@code url}, defaults else. */
  public static Builder builder(URI url) {
    return new Builder(url);
  }

  /**
   * The index of the repository at {@code root}: {@link #indexName()}, else its organisation's
   * when {@link #repository()} is set, else the root's own.
   */
  public String indexName(Path root) {
    return indexName != null ? indexName : repository != null
        ? Organisation.indexName(organisation) : defaultIndexName(root);
  }

  /**
   * The name the documents of the repository at {@code root} carry in their index: {@link
   * #repository()}, else the root's ({@link Organisation#nameOf}).
   */
  public String repositoryName(Path root) {
    return repository != null ? repository : Organisation.nameOf(root);
  }

  /**
   * {@code prism-<directory name>-<8 hex digits of the root's path hash>}: readable, distinct per
   * repository root, stable across runs.
   */
  public static String defaultIndexName(Path root) {
    String name = root.getFileName() == null ? "root"
        : root.getFileName().toString().toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9_.-]+", "-").replaceAll("^[-_.]+", "");
    if (name.isEmpty()) {
      name = "repo";
    }
    if (name.length() > 60) {
      name = name.substring(0, 60);
    }
    return "prism-" + name + "-" + ClusterIds.shortHash(root.toString());
  }

  /** A builder of {@link OpenSearchOptions}. */
  public static final class Builder {
    private List<URI> urls;
    private @Nullable String username;
    private @Nullable String password;
    private @Nullable String indexName;
    private int shards = 1;
    private int replicas = 1;
    private long bulkBytes = DEFAULT_BULK_BYTES;
    private Duration timeout = Duration.ofSeconds(30);
    private int retries = 5;
    private @Nullable String repository;
    private String organisation = Organisation.DEFAULT;
    private boolean storeContent = true;

    private Builder(URI url) {
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

    public Builder indexName(@Nullable String value) {
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

    public Builder repository(@Nullable String value) {
      repository = value;
      return this;
    }

    public Builder organisation(String value) {
      organisation = value;
      return this;
    }

    public Builder storeContent(boolean value) {
      storeContent = value;
      return this;
    }

    public OpenSearchOptions build() {
      return new OpenSearchOptions(urls, username, password, indexName, shards, replicas,
          bulkBytes, timeout, retries, repository, organisation, storeContent);
    }
  }

  /** A builder holding these options. */
  public Builder toBuilder() {
    Builder b = new Builder(urls.get(0)).urls(urls).shards(shards).replicas(replicas)
        .bulkBytes(bulkBytes).timeout(timeout).retries(retries).repository(repository)
        .organisation(organisation).storeContent(storeContent);
    b.indexName = indexName;
    if (username != null && password != null) {
      b.credentials(username, password);
    }
    return b;
  }

  /** Never prints the password. */
  @Override
  public String toString() {
    return "OpenSearchOptions[urls=" + urls + ", username=" + username
        + ", password=" + (password == null ? "none" : "***") + ", indexName=" + indexName
        + ", shards=" + shards + ", replicas=" + replicas + ", bulkBytes=" + bulkBytes
        + ", timeout=" + timeout + ", retries=" + retries + ", repository=" + repository
        + ", organisation=" + organisation + ", storeContent=" + storeContent + "]";
  }
}
