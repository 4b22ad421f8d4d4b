package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.GroupSearch;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.engine.spi.CommitRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An organisation's repositories in one cluster: one shared index ({@code
 * prism-org.<organisation>}, {@link #indexName}) holds every repository's documents, each carrying
 * its repository's name and routed by it (a repository's documents on one shard), and a search of
 * the organisation runs one request per signal over that index, filtered inside the query to the
 * repositories it may and wants to see ({@link #group}), with the index's term statistics ({@code
 * dfs_query_then_fetch}), ranked by the engine's kernel ({@link GroupSearch}). Each repository
 * keeps its own manifest and commit record, and a run of one replaces its documents only.
 *
 * <p><b>Access.</b> The organisation is connected with the repositories its caller may search
 * ({@code allowed}): every request carries them as a filter inside its query (and every get names
 * only documents of repositories a filtered request returned), so no hit, count, status or stored
 * copy of another repository reaches this caller. The term statistics are the whole index's, so a
 * hit scores the same whichever repositories a search names or its caller may see; they count
 * the terms of repositories the caller may not see (as every filter inside one index does):
 * repositories that must not share even statistics belong in another organisation.
 *
 * <p>Thread-safe; {@link #close} closes the connection.
 */
public final class Organisation implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Organisation.class);

  /** The default organisation. */
  public static final String DEFAULT = "repo";
  private static final Pattern NAME =
      Pattern.compile("[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*");
  private static final Pattern ORGANISATION = Pattern.compile("[a-z0-9][a-z0-9_-]{0,40}");

  private final OpenSearchOptions options;
  private final Cluster cluster;
  private final RepositoryFilter allowed;

  private Organisation(OpenSearchOptions options, Cluster cluster, RepositoryFilter allowed) {
    this.options = options;
    this.cluster = cluster;
    this.allowed = allowed;
  }

  /**
   * Connects to the organisation {@code options.organisation()} of the cluster, for a caller who
   * may search the repositories {@code allowed} selects ({@link RepositoryFilter#ALL}: every one).
   *
   * @throws ClusterUnavailableException when the cluster cannot be reached
   */
  public static Organisation connect(OpenSearchOptions options, RepositoryFilter allowed)
      throws IOException {
    Objects.requireNonNull(allowed, "allowed");
    Cluster cluster = Cluster.connect(options);
    try {
      cluster.call("GET", "/", Map.of(), null);
      return new Organisation(options, cluster, allowed);
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** The index holding the repositories of {@code organisation}. */
  public static String indexName(String organisation) {
    checkOrganisation(organisation);
    return "prism-org." + organisation;
  }

  /**
   * {@code name} in lower case, when it is a repository name.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static String checkName(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    if (n.length() > 180 || !NAME.matcher(n).matches()) {
      throw new IllegalArgumentException("invalid repository name '" + name + "' (letters,"
          + " digits, '.', '_', '-', parts joined by '/'; at most 180)");
    }
    return n;
  }

  /** The repository name of a directory: its name, lower case, other characters as '-'. */
  public static String nameOf(Path root) {
    Path file = root.toAbsolutePath().normalize().getFileName();
    String n = (file == null ? "root" : file.toString()).toLowerCase(Locale.ROOT)
        .replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[._-]+", "");
    return n.isEmpty() ? "repo" : n.length() > 180 ? n.substring(0, 180) : n;
  }

  static void checkOrganisation(String organisation) {
    if (organisation == null || !ORGANISATION.matcher(organisation).matches()) {
      throw new IllegalArgumentException("invalid organisation '" + organisation
          + "' (lower-case letters, digits, '_', '-'; at most 41)");
    }
  }

  /** The repositories a caller of this organisation may search. */
  public RepositoryFilter allowed() {
    return allowed;
  }

  /**
   * The repositories of {@code filter} among those allowed, as one group to search ({@link
   * GroupSearch#open}); the group uses this organisation's connection (closing it does not close
   * the organisation).
   */
  public ClusterGroup group(RepositoryFilter filter) {
    return new ClusterGroup(cluster, indexName(options.organisation()), allowed, filter,
        options.urls().toString());
  }

  /** {@link GroupSearch#open} over {@link #group}. */
  public GroupSearch search(RepositoryFilter filter, GroupSearch.Options search) {
    return GroupSearch.open(group(filter), search);
  }

  /**
   * What the organisation's index records of a repository.
   *
   * @param name the repository
   * @param index the organisation's cluster index
   * @param state {@code ready}, or {@code writing} while a run writes (or after one that did not
   *     finish)
   * @param files indexed files
   * @param chunks indexed chunks
   * @param updatedAt when the last run committed, epoch ms (null before)
   * @param revision the source revision indexed
   * @param contentStored whether the index keeps each file's content
   * @param embedderId the model of its vectors, empty for none
   */
  public record RepositoryStatus(String name, String index, String state, long files,
      long chunks, @Nullable Long updatedAt, @Nullable String revision, boolean contentStored,
      String embedderId) {}

  /**
   * The repositories of {@code filter} among those allowed, with their records, by name.
   *
   * @throws IOException when the cluster cannot be read
   */
  public List<RepositoryStatus> status(RepositoryFilter filter) throws IOException {
    ClusterGroup g = group(filter);
    List<RepositoryStatus> out = new ArrayList<>();
    for (Map.Entry<String, ClusterGroup.Repository> e : g.records().entrySet()) {
      CommitRecord r = e.getValue().record();
      out.add(new RepositoryStatus(e.getKey(), e.getValue().index(), e.getValue().state(),
          r.count(CommitRecord.FILES), r.count(CommitRecord.CHUNKS), r.updatedAtMs(),
          r.get(CommitRecord.REVISION), "stored".equals(r.get(CommitRecord.CONTENT)),
          r.embedderId()));
    }
    return out;
  }

  /**
   * A repository to index: its name in the organisation and its working tree.
   *
   * @param name the repository's name ({@link #checkName})
   * @param root its working tree
   */
  public record Source(String name, Path root) {
    public Source {
      name = checkName(name);
      Objects.requireNonNull(root, "root");
    }
  }

  /**
   * How indexing one repository ended.
   *
   * @param name the repository
   * @param stats the run's figures, null when it failed
   * @param error why it failed, null when it did not
   */
  public record Outcome(String name, @Nullable IndexRunStats stats, @Nullable String error) {}

  /**
   * Indexes several repositories into the organisation of {@code cluster} ({@code
   * cluster.organisation()}; {@code cluster.repository()} and {@code indexName()} are set per
   * repository), {@code parallel} at a time, with at most {@code bulkInFlight} bulk requests in
   * flight across all of them (each run also sends one bulk at a time). A repository that fails
   * does not stop the others: its outcome says why. The load that creates the organisation's
   * index is a bulk load: no replicas or periodic refreshes while it runs, then the index merged
   * to few segments (waited for at most 30 minutes) and {@code cluster.replicas()} and the
   * periodic refresh restored; a load of an existing index keeps its settings.
   *
   * @param local the engine's options of each repository's root (model, file rules, threads)
   * @return one outcome per source, in their order
   * @throws InterruptedException when interrupted while waiting for the runs
   */
  public static List<Outcome> index(List<Source> sources, OpenSearchOptions cluster,
      Function<Path, HybridIndexOptions> local, RefreshOptions refresh, int parallel,
      int bulkInFlight) throws InterruptedException {
    if (parallel < 1 || bulkInFlight < 1) {
      throw new IllegalArgumentException("parallel and bulkInFlight must be at least 1");
    }
    Semaphore gate = new Semaphore(bulkInFlight, true);
    BulkLoad load = null;
    try (Cluster c = Cluster.connect(cluster)) {
      load = BulkLoad.begin(c, indexName(cluster.organisation()));
    } catch (IOException | RuntimeException e) {
      LOG.debug("no bulk settings for {}: {}", cluster.organisation(), e.toString()); // each run
      // reports an unreachable cluster itself
    }
    boolean bulk = load != null;
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel,
        Math.max(1, sources.size())), r -> {
          Thread t = new Thread(r, "prism-org-index");
          t.setDaemon(true);
          return t;
        });
    try {
      List<Future<Outcome>> runs = new ArrayList<>();
      for (Source s : sources) {
        OpenSearchOptions o = cluster.toBuilder().repository(s.name()).indexName(null).build();
        runs.add(pool.submit(() -> {
          try (HybridIndex index = HybridIndex.open(local.apply(s.root()),
              OpenSearchStore.connect(s.root(), o, gate, bulk))) {
            return new Outcome(s.name(), index.refresh(refresh), null);
          } catch (IOException | RuntimeException e) {
            return new Outcome(s.name(), null, e.getMessage() == null ? e.toString()
                : e.getMessage());
          }
        }));
      }
      List<Outcome> out = new ArrayList<>();
      for (Future<Outcome> f : runs) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        }
      }
      if (load != null) {
        try (Cluster c = Cluster.connect(cluster)) {
          load.end(c, cluster.replicas());
        } catch (IOException | RuntimeException e) {
          LOG.warn("the bulk load of {} is not finished (merge, replicas, refresh interval): {};"
              + " the next load of the organisation finishes it", indexName(
                  cluster.organisation()), e.getMessage());
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Closes the connection (the indexes stay). */
  @Override
  public void close() throws IOException {
    cluster.close();
  }

  /** For tests: the organisation's connection. */
  Cluster cluster() {
    return cluster;
  }

  static @Nullable String text(JsonNode n) {
    return n == null || n.isMissingNode() || n.isNull() ? null : n.asText();
  }

  static ObjectNode object() {
    return Cluster.JSON.createObjectNode();
  }
}
