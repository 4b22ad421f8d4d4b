package dev.prismindex.cli.command;

import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.State;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.opensearch.ClusterUnavailableException;
import dev.prismindex.opensearch.OpenSearchOptions;
import dev.prismindex.opensearch.OpenSearchStore;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Runs {@code index}, {@code search} and {@code status} (and the MCP server's tool calls) against
 * the repository's index in an OpenSearch cluster ({@code --backend opensearch}): the same
 * requests, printers and exit codes as {@link LocalBackend}. An unreachable cluster or an index it cannot use is exit 3; no model
 * for a semantic or hybrid search is exit 4. There is no freshness catch-up before a search (every
 * hit is still checked against the working tree); {@code index} brings the cluster up to date.
 */
public final class ClusterBackend implements Backend {

  /** The environment variable choosing the backend ({@code local} or {@code opensearch}). */
  public static final String BACKEND_VARIABLE = "PRISM_INDEX_BACKEND";
  /** The environment variable naming the cluster's URL (overridden by {@code --opensearch-url}). */
  public static final String URL_VARIABLE = "PRISM_INDEX_OPENSEARCH_URL";
  /** The environment variables of the cluster's basic-auth credentials (never an option). */
  public static final String USER_VARIABLE = "PRISM_INDEX_OPENSEARCH_USER";
  public static final String PASSWORD_VARIABLE = "PRISM_INDEX_OPENSEARCH_PASSWORD";

  /**
   * The cluster the command line asks for: {@code --backend} (else {@value #BACKEND_VARIABLE},
   * else {@code local}), as the options of its URL and credentials (defaults else); null for the
   * local index.
   *
   * @throws CliFailure exit 2 for an unknown backend, a missing or bad URL, or half the
   *     credentials
   */
  public static @Nullable OpenSearchOptions select(Flags.RootFlags root, Environment env)
      throws CliFailure {
    return select(root.backend, root.openSearchUrl, env);
  }

  private static @Nullable OpenSearchOptions select(@Nullable String backendOption,
      @Nullable String urlOption, Environment env) throws CliFailure {
    String backend = backendOption != null ? backendOption
        : env.variables().getOrDefault(BACKEND_VARIABLE, "local");
    switch (backend.toLowerCase(Locale.ROOT)) {
      case "local", "" -> {
        if (urlOption != null) {
          throw CliFailure.usage("--opensearch-url needs --backend opensearch");
        }
        return null;
      }
      case "opensearch" -> { }
      default -> throw CliFailure.usage("unknown backend '" + backend
          + "': expected local or opensearch");
    }
    String url = urlOption != null ? urlOption : env.variables().get(URL_VARIABLE);
    if (url == null || url.isBlank()) {
      throw CliFailure.usage("--backend opensearch needs --opensearch-url URL (or $"
          + URL_VARIABLE + ")");
    }
    URI uri;
    try {
      uri = URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage("invalid --opensearch-url: " + e.getMessage());
    }
    if (uri.getUserInfo() != null) {
      throw CliFailure.usage("credentials do not belong in the cluster URL; set $"
          + USER_VARIABLE + " and $" + PASSWORD_VARIABLE);
    }
    String user = env.variables().get(USER_VARIABLE);
    String password = env.variables().get(PASSWORD_VARIABLE);
    if ((user == null) != (password == null)) {
      throw CliFailure.usage("set both $" + USER_VARIABLE + " and $" + PASSWORD_VARIABLE
          + ", or neither");
    }
    try {
      OpenSearchOptions.Builder options = OpenSearchOptions.builder(uri);
      if (user != null && password != null) {
        options.credentials(user, password);
      }
      return options.build();
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage("--opensearch-url: " + e.getMessage());
    }
  }

  private final Environment env;
  private final OpenSearchOptions cluster;

  /** The backend of the cluster {@code cluster} ({@link #select}). */
  public ClusterBackend(Environment env, OpenSearchOptions cluster) {
    this.env = env;
    this.cluster = cluster;
  }

  private HybridIndex open(Target target, boolean semantic) throws CliFailure, IOException {
    HybridIndexOptions.Builder local = HybridIndexOptions.builder(target.root())
        .home(target.home()).semantic(semantic && env.model().semantic());
    if (env.model().embedder() != null) {
      local.embedder(env.model().embedder());
    }
    try {
      return OpenSearchStore.openIndex(local.build(), cluster);
    } catch (ClusterUnavailableException e) {
      throw new CliFailure(ExitCode.INDEX, e.getMessage(), e);
    } catch (IncompatibleIndexException e) {
      throw new CliFailure(ExitCode.INDEX, e.getMessage()
          + "; rebuild it with `prism-index index --full --backend opensearch`", e);
    }
  }

  @Override
  public SearchAnswer search(SearchRequest request) throws CliFailure, IOException {
    try (HybridIndex index = open(request.target(), true)) {
      IndexStatus status = index.status();
      if (status.state() == IndexState.EMPTY) {
        throw new CliFailure(ExitCode.INDEX, "no index in the cluster for "
            + request.target().root() + "; run `prism-index index --backend opensearch`");
      }
      SearchMode mode = request.mode();
      boolean chosen = mode == null;
      if (mode == null) {
        mode = index.capabilities().semantic() ? SearchMode.HYBRID : SearchMode.LEXICAL;
      }
      SearchOpts opts = request.opts(mode);
      long started = System.nanoTime();
      SearchResult r;
      try {
        r = index.searchResult(request.query(), opts);
      } catch (SemanticSearchUnavailableException e) {
        throw new CliFailure(ExitCode.MODEL, mode.wireName() + " search: " + e.getMessage()
            + "; use --mode lexical", e);
      }
      long tookMs = (System.nanoTime() - started) / 1_000_000;
      return new SearchAnswer(request.query(), chosen,
          chosen && mode == SearchMode.LEXICAL ? "the cluster index has no usable embeddings"
              : null, r, Freshness.NOT_CHECKED, tookMs);
    } catch (ClusterUnavailableException e) {
      throw new CliFailure(ExitCode.INDEX, e.getMessage(), e);
    }
  }

  @Override
  public IndexSummary index(IndexRequest request, Progress progress)
      throws CliFailure, IOException {
    long started = System.nanoTime();
    try (HybridIndex index = open(request.target(), request.semantic())) {
      IndexRunStats s;
      try {
        s = index.refresh(request.full() ? RefreshOptions.FULL : RefreshOptions.INCREMENTAL);
      } catch (IncompatibleIndexException e) {
        throw new CliFailure(ExitCode.INDEX, e.getMessage()
            + "; rebuild it with `prism-index index --full --backend opensearch`", e);
      } catch (SemanticSearchUnavailableException e) {
        throw new CliFailure(ExitCode.MODEL, e.getMessage(), e);
      }
      IndexStatus status = index.status();
      long files = status.diagnostics() == null ? 0 : status.diagnostics().entries();
      long bytes = status.diagnostics() == null ? 0 : status.diagnostics().bytes();
      boolean semantic = index.capabilities().semantic();
      return new IndexSummary(request.target().root(), request.target().home(),
          s.added() + s.changed() + s.unchanged() + s.skippedTotal(), s.added() + s.changed(),
          s.added(), s.changed(), s.deleted(), s.unchanged(), Map.of(), s.chunksWritten(),
          semantic ? s.chunksWritten() : 0, 0, true, status.sourceRevision(), files, 0,
          semantic ? env.model().id().orElse(null) : null, null,
          semantic ? "available" : "disabled", null, bytes,
          (System.nanoTime() - started) / 1_000_000, null);
    } catch (ClusterUnavailableException e) {
      throw new CliFailure(ExitCode.INDEX, e.getMessage(), e);
    }
  }

  @Override
  public StatusReport status(StatusRequest request) throws IOException {
    Target t = request.target();
    try (HybridIndex index = open(t, true)) {
      IndexStatus s = index.status();
      State state = switch (s.state() == null ? IndexState.EMPTY : s.state()) {
        case READY, BUILDING -> State.READY;
        case STALE -> State.OUTDATED;
        case FAILED -> State.CORRUPT;
        case EMPTY -> State.MISSING;
      };
      String problem = switch (state) {
        case MISSING -> "no index in the cluster: run `prism-index index --backend opensearch`";
        case OUTDATED -> "the last run in the cluster did not finish or its documents do not"
            + " match: run `prism-index index --backend opensearch`";
        case CORRUPT -> "the cluster reports the index red or the last run failed";
        default -> null;
      };
      long files = s.diagnostics() == null ? 0 : s.diagnostics().entries();
      long bytes = s.diagnostics() == null ? 0 : s.diagnostics().bytes();
      boolean semantic = index.capabilities().semantic();
      return new StatusReport(state, t.root(), t.home(), problem, files, 0, null, 0,
          semantic ? "available" : "disabled", null, null, env.model().id().orElse(null),
          s.sourceRevision(), s.updatedAt() == null ? null : Instant.ofEpochMilli(s.updatedAt()),
          bytes, null, request.maxRefreshFiles(), null, null, null);
    } catch (CliFailure e) {
      return new StatusReport(State.MISSING, t.root(), t.home(), e.getMessage(), 0, 0, null, 0,
          null, null, null, null, null, null, 0, null, request.maxRefreshFiles(), null, null,
          null);
    }
  }
}
