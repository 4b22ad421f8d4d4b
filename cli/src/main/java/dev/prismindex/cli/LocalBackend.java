package dev.prismindex.cli;

import dev.prismindex.cli.Requests.IndexRequest;
import dev.prismindex.cli.Requests.QueryMode;
import dev.prismindex.cli.Requests.SearchRequest;
import dev.prismindex.cli.Requests.StatusRequest;
import dev.prismindex.cli.Requests.Target;
import dev.prismindex.cli.Results.Changes;
import dev.prismindex.cli.Results.CliHit;
import dev.prismindex.cli.Results.EngineRank;
import dev.prismindex.cli.Results.Freshness;
import dev.prismindex.cli.Results.IndexSummary;
import dev.prismindex.cli.Results.SearchResult;
import dev.prismindex.cli.Results.State;
import dev.prismindex.cli.Results.StatusReport;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.IndexLockedException;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.RetrievalMode;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.Staleness;
import dev.prismindex.engine.search.LiteralMatch;
import dev.prismindex.engine.search.LiteralResult;
import dev.prismindex.engine.walk.Languages;
import dev.prismindex.repository.AbortSignal;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process backend: opens the {@link HybridIndex} of the target, runs one request, closes it.
 * Engine exceptions become {@link CliFailure}s with the exit code and the command that fixes them.
 */
final class LocalBackend implements Backend {

  /** The engine keeps its Lucene files here, below the index home (see docs/engine.md). */
  static final String LUCENE_DIR = "lucene";

  private static final Logger LOG = LoggerFactory.getLogger(LocalBackend.class);

  private final Environment env;

  LocalBackend(Environment env) {
    this.env = env;
  }

  // ---------------------------------------------------------------------------------------------
  // search

  @Override
  public SearchResult search(SearchRequest request) throws CliFailure, IOException {
    Target target = request.target();
    long t0 = System.nanoTime();
    try (HybridIndex index = openExisting(target)) {
      long t1 = System.nanoTime();
      Freshness freshness = request.refresh() ? catchUp(index, request) : Freshness.NOT_CHECKED;
      long t2 = System.nanoTime();
      LOG.debug("opened the index in {} ms, freshness check {} ms ({})", ms(t1 - t0), ms(t2 - t1),
          freshness);
      EngineStatus status = index.engineStatus();
      QueryMode mode = request.mode();
      boolean chosen = mode == QueryMode.AUTO;
      if (chosen) {
        mode = modelId().isPresent() && status.embedderId() != null ? QueryMode.HYBRID
            : QueryMode.LEXICAL;
      }
      long started = System.nanoTime();
      List<CliHit> hits = mode == QueryMode.LITERAL ? literal(index, request)
          : ranked(index, request, mode);
      long tookMs = ms(System.nanoTime() - started);
      LOG.debug("{} search: {} hits in {} ms", mode.wireName(), hits.size(), tookMs);
      return new SearchResult(request.query(), mode.wireName(), chosen, hits, freshness, null,
          tookMs);
    } catch (CorruptIndexException e) {
      throw corrupt(target, e);
    }
  }

  /** Runs the cheap probe; re-indexes a small change set, refuses a large one (exit 3). */
  private Freshness catchUp(HybridIndex index, SearchRequest request)
      throws CliFailure, IOException {
    Staleness s = index.staleness();
    int changed = s.added() + s.modified() + s.deleted();
    if (changed == 0) {
      return new Freshness(true, 0, 0, false);
    }
    if (changed > request.maxRefreshFiles()) {
      throw new CliFailure(ExitCode.INDEX, "index is stale: " + changed + " files changed since"
          + " the last index run (more than --max-refresh-files " + request.maxRefreshFiles()
          + "); run `prism-index index`, or pass --no-refresh to search the old index");
    }
    try {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      return new Freshness(true, changed, stats.added() + stats.changed() + stats.deleted(), false);
    } catch (IndexLockedException e) {
      return new Freshness(true, changed, 0, true);
    }
  }

  private List<CliHit> ranked(HybridIndex index, SearchRequest request, QueryMode mode)
      throws CliFailure, IOException {
    if (mode != QueryMode.LEXICAL && modelId().isEmpty()) {
      throw new CliFailure(ExitCode.MODEL, mode.wireName() + " search needs an embedding model and"
          + " none is available; use --mode lexical");
    }
    List<Hit> hits;
    try {
      hits = index.search(request.query(), request.opts(mode.retrieval()));
    } catch (SemanticSearchUnavailableException e) {
      throw new CliFailure(ExitCode.MODEL, mode.wireName() + " search unavailable: "
          + e.getMessage() + "; use --mode lexical", e);
    }
    List<CliHit> out = new ArrayList<>(hits.size());
    for (Hit h : hits) {
      out.add(toCli(h, mode));
    }
    return out;
  }

  /** Maps an engine hit to the CLI's schema, field for field. */
  static CliHit toCli(Hit h, QueryMode mode) {
    Map<String, EngineRank> engines = new LinkedHashMap<>();
    put(engines, "lexical", h.lexical());
    put(engines, "semantic", h.semantic());
    return new CliHit(h.path(), h.line(), h.endLine(), h.snippet(), h.score(), mode.wireName(),
        h.language(), h.symbol(), engines);
  }

  private static void put(Map<String, EngineRank> engines, String name, @Nullable EngineScore s) {
    if (s != null) {
      engines.put(name, new EngineRank(s.rank(), s.score()));
    }
  }

  /** Exact literal matches (the scanner's semantics) from the trigram index, one hit per line. */
  private static List<CliHit> literal(HybridIndex index, SearchRequest request) throws IOException {
    LiteralResult r = index.literalSearch(request.query(), request.caseSensitive(),
        request.scope(), request.limit(), false, AbortSignal.create());
    List<CliHit> out = new ArrayList<>(r.matches().size());
    int rank = 0;
    for (LiteralMatch m : r.matches()) {
      double score = m.pathOnly() ? 0.5 : 1.0;
      out.add(new CliHit(m.path(), m.line(), m.line(), literalSnippet(m, request.query()), score,
          QueryMode.LITERAL.wireName(), Languages.detect(m.path()), null,
          Map.of("literal", new EngineRank(++rank, score))));
    }
    return out;
  }

  /**
   * The matching line trimmed and cut to {@link Hit#MAX_SNIPPET_CHARS} around the match; the query
   * itself when the line is blank after trimming (a query of spaces).
   */
  static String literalSnippet(LiteralMatch m, String query) {
    String text = m.text();
    int from = 0;
    int to = text.length();
    if (to > Hit.MAX_SNIPPET_CHARS && m.column() > 0) {
      int col = m.column() - 1;
      from = Math.max(0, Math.min(col - Hit.MAX_SNIPPET_CHARS / 4, to - Hit.MAX_SNIPPET_CHARS));
      to = from + Hit.MAX_SNIPPET_CHARS;
    } else if (to > Hit.MAX_SNIPPET_CHARS) {
      to = Hit.MAX_SNIPPET_CHARS;
    }
    if (from > 0 && Character.isLowSurrogate(text.charAt(from))) {
      from++;
    }
    if (to < text.length() && Character.isHighSurrogate(text.charAt(to - 1))) {
      to--;
    }
    String s = text.substring(from, to).strip();
    return s.isEmpty() ? (query.strip().isEmpty() ? query : query.strip()) : s;
  }

  // ---------------------------------------------------------------------------------------------
  // index

  @Override
  public IndexSummary index(IndexRequest request, Progress progress)
      throws CliFailure, IOException {
    Target target = request.target();
    HybridIndex index;
    try {
      index = HybridIndex.open(options(target));
    } catch (IncompatibleIndexException | CorruptIndexException e) {
      if (!request.full()) {
        throw e instanceof IncompatibleIndexException ie ? incompatible(target, ie)
            : corrupt(target, (CorruptIndexException) e);
      }
      deleteLuceneFiles(target.home());
      index = HybridIndex.open(options(target));
    }
    try (HybridIndex idx = index) {
      RefreshOptions refresh = request.full() ? RefreshOptions.FULL
          : request.verify() ? RefreshOptions.VERIFY : RefreshOptions.INCREMENTAL;
      progress.phase("indexing");
      IndexRunStats s = idx.refresh(refresh);
      EngineStatus st = idx.engineStatus();
      Map<String, Integer> skipped = new LinkedHashMap<>();
      s.skipped().forEach((reason, n) -> skipped.put(reason.name().toLowerCase(java.util.Locale.ROOT), n));
      return new IndexSummary(target.root(), target.home(), s.filesSeen(), s.hashed(), s.added(),
          s.changed(), s.deleted(), s.unchanged(), skipped, s.chunksWritten(), s.chunksEmbedded(),
          s.chunksReused(), s.committed(), s.sourceRevision(), st.files(), st.chunks(),
          st.embedderId(), null, st.sizeOnDiskBytes(), s.durationMs());
    } catch (IndexLockedException e) {
      throw new CliFailure(ExitCode.FAILURE, "the index at " + target.home() + " is being written"
          + " by another process; run the command again when it has finished", e);
    } catch (CorruptIndexException e) {
      throw corrupt(target, e);
    }
  }

  /**
   * Deletes the regular files of the Lucene directory (never following links, never recursing), so
   * {@code index --full} can rebuild an index that cannot be opened.
   */
  private static void deleteLuceneFiles(Path home) throws IOException {
    Path lucene = home.resolve(LUCENE_DIR);
    if (!Files.isDirectory(lucene, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(lucene)) {
      for (Path f : files) {
        if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(f);
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // status

  @Override
  public StatusReport status(StatusRequest request) throws IOException {
    Target t = request.target();
    String available = modelId().orElse(null);
    int max = request.maxRefreshFiles();
    if (!exists(t)) {
      return problem(State.MISSING, t, missing(t).getMessage(), available, max);
    }
    try (HybridIndex index = HybridIndex.open(options(t))) {
      EngineStatus s = index.engineStatus();
      if (!s.hasCommit()) {
        return problem(State.MISSING, t, missing(t).getMessage(), available, max);
      }
      Staleness st = index.staleness();
      Changes changes = new Changes(st.added(), st.modified(), st.deleted(), st.durationMs());
      State state = changes.total() == 0 ? State.READY
          : changes.total() <= max ? State.STALE : State.OUTDATED;
      String problem = state == State.OUTDATED ? "index is stale: " + changes.total()
          + " files changed since the last index run (more than --max-refresh-files " + max
          + "); run `prism-index index`" : null;
      return new StatusReport(state, t.root(), t.home(), problem, s.files(), s.chunks(), null,
          s.embedderId(), available, s.sourceRevision(), s.updatedAt(), s.sizeOnDiskBytes(),
          changes, max, s.formatVersion(), s.analyzerVersion());
    } catch (IncompatibleIndexException e) {
      return problem(State.INCOMPATIBLE, t, incompatible(t, e).getMessage(), available, max);
    } catch (CorruptIndexException e) {
      return problem(State.CORRUPT, t, corrupt(t, e).getMessage(), available, max);
    }
  }

  private static StatusReport problem(State state, Target t, String message,
      @Nullable String available, int max) {
    return new StatusReport(state, t.root(), t.home(), message, 0, 0, null, null, available, null,
        null, 0, null, max, null, null);
  }

  // ---------------------------------------------------------------------------------------------
  // shared

  private static long ms(long nanos) {
    return nanos / 1_000_000;
  }

  private Optional<String> modelId() {
    return env.models().get().map(EmbedderProvider::id);
  }

  /**
   * The engine's options: the environment's model (the engine would otherwise pick the class
   * path's default provider itself), or lexical-only without one.
   */
  private HybridIndexOptions options(Target target) {
    HybridIndexOptions.Builder b = HybridIndexOptions.builder(target.root()).home(target.home());
    Optional<EmbedderProvider> model = env.models().get();
    if (model.isPresent()) {
      b.embedder(model.get().create());
    } else {
      b.semantic(false);
    }
    return b.build();
  }

  private static boolean exists(Target target) {
    return Files.isDirectory(target.home().resolve(LUCENE_DIR));
  }

  /**
   * Opens an index that has a commit, without creating anything.
   *
   * @throws CliFailure exit code 3 when it is missing, incompatible or corrupt
   */
  private static HybridIndex openExisting(Target target) throws CliFailure, IOException {
    if (!exists(target)) {
      throw missing(target);
    }
    HybridIndex index;
    try {
      index = HybridIndex.open(options(target));
    } catch (IncompatibleIndexException e) {
      throw incompatible(target, e);
    } catch (CorruptIndexException e) {
      throw corrupt(target, e);
    }
    if (!index.engineStatus().hasCommit()) {
      index.close();
      throw missing(target);
    }
    return index;
  }

  private static CliFailure missing(Target target) {
    return new CliFailure(ExitCode.INDEX, "no index at " + target.home()
        + "; run `prism-index index`");
  }

  private static CliFailure incompatible(Target target, IncompatibleIndexException e) {
    return new CliFailure(ExitCode.INDEX, "incompatible index at " + target.home() + ": "
        + e.what() + " version " + e.found() + " found, " + e.expected()
        + " expected; run `prism-index index --full`", e);
  }

  private static CliFailure corrupt(Target target, CorruptIndexException e) {
    Throwable cause = e.getCause() == null ? e : e.getCause();
    return new CliFailure(ExitCode.INDEX, "corrupt index at " + target.home() + " ("
        + Cli.oneLine(String.valueOf(cause.getMessage())) + "); run `prism-index index --full`", e);
  }
}
