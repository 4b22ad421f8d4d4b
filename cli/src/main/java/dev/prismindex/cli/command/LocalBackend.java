package dev.prismindex.cli.command;

import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.output.ExactPrinter;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.State;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.IndexLockedException;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.Staleness;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process backend: runs requests on the {@link HybridIndex} of the target, reached through an
 * {@link IndexAccess} (by default opened for the request and closed after it; kept open by
 * {@link dev.prismindex.cli.serve.WarmBackend}). Engine exceptions become {@link CliFailure}s with the exit code and the
 * command that fixes them.
 */
public final class LocalBackend implements Backend {

  private static final Logger LOG = LoggerFactory.getLogger(LocalBackend.class);

  private final Environment env;
  private final IndexAccess access;

  public LocalBackend(Environment env) {
    this(env, IndexAccess.PER_CALL);
  }

  public LocalBackend(Environment env, IndexAccess access) {
    this.env = env;
    this.access = access;
  }

  // ---------------------------------------------------------------------------------------------
  // search

  @Override
  public SearchAnswer search(SearchRequest request) throws CliFailure, IOException {
    if (request.exact()) {
      // One way to search exactly: the stream, its hits collected.
      List<Hit> hits = new ArrayList<>();
      SearchAnswer a = stream(request, new ExactPrinter() {
        @Override
        public void begin(String mode, Freshness freshness, Map<String, Freshness> repos,
            Map<String, Integer> notIndexed) {
        }

        @Override
        public void hit(Hit hit) {
          hits.add(hit);
        }

        @Override
        public void end(SearchAnswer answer) {
        }
      });
      dev.prismindex.engine.SearchResult r = a.result();
      return a.withResult(new dev.prismindex.engine.SearchResult(hits, r.mode(), r.coverage(),
          r.notSearched(), r.truncated(), r.everyFileRead()));
    }
    if (request.target().workspace()) {
      return WorkspaceBackend.of(this).search(request);
    }
    Target target = request.target();
    long t0 = System.nanoTime();
    try (IndexAccess.Lease lease = openExisting(target)) {
      HybridIndex index = lease.index();
      EngineStatus before = index.engineStatus();
      SearchMode mode = request.mode();
      boolean chosen = mode == null;
      if (mode == null) {
        // Hybrid when a usable model is present and the index has vectors; else lexical: the
        // engine's default mode, the library's too.
        mode = before.defaultMode();
      } else if (mode.needsSemantic() && before.semantic() != SemanticState.AVAILABLE) {
        throw unavailable(mode, before.semantic(), String.valueOf(before.semanticMessage()), null);
      }
      long t1 = System.nanoTime();
      Freshness freshness = request.refresh() ? catchUp(lease, request, mode)
          : Freshness.NOT_CHECKED;
      long t2 = System.nanoTime();
      LOG.debug("opened the index in {} ms, freshness check {} ms ({})", ms(t1 - t0), ms(t2 - t1),
          freshness);
      long started = System.nanoTime();
      dev.prismindex.engine.SearchResult r;
      try {
        r = index.searchResult(request.query(), request.opts(mode));
      } catch (SemanticSearchUnavailableException e) {
        throw unavailable(mode, e.state(), e.getMessage(), e);
      }
      long tookMs = ms(System.nanoTime() - started);
      LOG.debug("{} search: {} hits in {} ms", mode.wireName(), r.hits().size(), tookMs);
      return new SearchAnswer(request.query(), chosen,
          chosen && mode == SearchMode.LEXICAL ? lexicalReason(before) : null, r, freshness,
          tookMs);
    } catch (CorruptIndexException e) {
      throw corrupt(target, e);
    }
  }

  /**
   * An exact search (literal, regex), printed as it runs: from the index when there is one
   * (candidates from its grams, verified against the files); without one, by core's scanner over
   * the files git lists, with one note saying that an index would be faster.
   */
  @Override
  public SearchAnswer stream(SearchRequest request, ExactPrinter out)
      throws CliFailure, IOException {
    Target target = request.target();
    SearchMode mode = request.mode();
    if (mode == null || !mode.exact()) {
      throw new IllegalArgumentException("not an exact search: " + request.modeName());
    }
    if (target.workspace()) {
      return WorkspaceBackend.of(this).stream(request, mode, out);
    }
    if (homeIsDirectory(target) && !exists(target)) {
      return IndexlessScan.search(request, mode, out);
    }
    try (IndexAccess.Lease lease = openExisting(target)) {
      HybridIndex index = lease.index();
      if (request.refresh() && lease.watch() == null) {
        return ExactStream.probeWhileSearching(lease, request, mode, out);
      }
      Freshness freshness = request.refresh() ? catchUp(lease, request, mode)
          : Freshness.NOT_CHECKED;
      return ExactStream.streamed(index, request, mode, freshness, out);
    } catch (CorruptIndexException e) {
      throw corrupt(target, e);
    }
  }

  /** Why an automatic choice fell back to lexical, for human output. */
  static String lexicalReason(EngineStatus s) {
    return switch (s.semantic()) {
      case AVAILABLE -> "the index has no embeddings yet; run `prism-index index`";
      case NO_MODEL -> "no embedding model";
      case DISABLED -> "semantic search is off";
      case MODEL_MISMATCH -> "the index's embeddings come from another model";
      case MODEL_FAILED -> "the embedding model failed";
    };
  }

  /** Exit code 4, with the engine's reason and what to do about it. */
  static CliFailure unavailable(SearchMode mode, SemanticState state, String message,
      @Nullable Throwable cause) {
    String fix = state == SemanticState.MODEL_MISMATCH || message.contains("prism-index index")
        ? "" : "; use --mode lexical";
    return new CliFailure(ExitCode.MODEL, mode.wireName() + " search: " + message + fix, cause);
  }

  /** Brings the leased index current before a search answers ({@link IndexCatchUp}). */
  Freshness catchUp(IndexAccess.Lease lease, SearchRequest request, SearchMode mode)
      throws CliFailure, IOException {
    return IndexCatchUp.freshness(lease, request, mode);
  }

  // ---------------------------------------------------------------------------------------------
  // index

  @Override
  public IndexSummary index(IndexRequest request, Progress progress)
      throws CliFailure, IOException {
    if (request.target().workspace()) {
      throw new IllegalArgumentException("index runs per repository of a workspace");
    }
    Target target = request.target();
    checkHome(target);
    IndexAccess.Lease lease;
    HybridIndexOptions options = options(target, request.model());
    String unreadable = null;
    try {
      lease = access.open(target, options);
    } catch (IncompatibleIndexException e) {
      if (!request.full()) {
        throw incompatible(target, e);
      }
      HybridIndex.deleteIndex(target.home());
      lease = access.open(target, options);
    } catch (CorruptIndexException e) {
      // Its commit cannot even be read: only a rebuild from nothing repairs it.
      unreadable = (e.getCause() == null ? e : e.getCause()).getMessage();
      HybridIndex.deleteIndex(target.home());
      lease = access.open(target, options);
    }
    try (IndexAccess.Lease l = lease) {
      HybridIndex idx = l.index();
      EngineStatus was = idx.engineStatus();
      if (request.model() != null && !request.full()
          && was.semantic() == SemanticState.MODEL_MISMATCH) {
        throw new CliFailure(ExitCode.USAGE, "the index's embeddings come from "
            + was.embedderId() + "; `prism-index index --full --model " + request.model()
            + "` replaces them");
      }
      // Every run verifies the index's checksums first and rebuilds a damaged index whole.
      RefreshOptions kind = request.full() ? RefreshOptions.FULL
          : (request.verify() ? RefreshOptions.VERIFY : RefreshOptions.INCREMENTAL).withRepair();
      RefreshOptions refresh = (request.semantic() ? kind : kind.withLexicalOnly())
          .withProgress(progress);
      IndexRunStats s;
      l.write();
      try {
        s = idx.refresh(refresh);
      } catch (SemanticSearchUnavailableException e) {
        throw new CliFailure(ExitCode.MODEL, e.getMessage() + "; the lexical index is up to date"
            + " (run `prism-index index --no-semantic` to skip embeddings)", e);
      } finally {
        l.endWrite();
      }
      return EngineResults.summary(target, s, idx.engineStatus(), unreadable);
    } catch (IndexLockedException e) {
      throw new CliFailure(ExitCode.FAILURE, e.readOnly()
          ? "the index at " + target.home() + " is read-only; searches answer from its last index"
              + " run (--index-dir chooses a writable place for a new one)"
          : "the index at " + target.home() + " is being written by another process; run the"
              + " command again when it has finished", e);
    } catch (CorruptIndexException e) {
      throw corrupt(target, e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // status

  @Override
  public StatusReport status(StatusRequest request) throws IOException {
    if (request.target().workspace()) {
      return WorkspaceBackend.of(this).status(request);
    }
    Target t = request.target();
    String available = modelId().orElse(null);
    int max = request.maxRefreshFiles();
    if (!homeIsDirectory(t)) {
      return EngineResults.problem(State.MISSING, t, notADirectory(t).getMessage(), available, max);
    }
    if (!exists(t)) {
      return EngineResults.problem(State.MISSING, t, missing(t).getMessage(), available, max);
    }
    try (IndexAccess.Lease lease = access.open(t, options(t))) {
      HybridIndex index = lease.index();
      EngineStatus s = index.engineStatus();
      if (!s.hasCommit()) {
        return EngineResults.problem(State.MISSING, t, missing(t).getMessage(), available, max);
      }
      // Checksums always (a read of the index files); Lucene's CheckIndex tests with --verify.
      index.verify(request.verify());
      return EngineResults.report(t, s, index.staleness(), max, ownModel(s, available));
    } catch (IncompatibleIndexException e) {
      return EngineResults.problem(State.INCOMPATIBLE, t, incompatible(t, e).getMessage(), available, max);
    } catch (CorruptIndexException e) {
      return EngineResults.problem(State.CORRUPT, t, corrupt(t, e).getMessage(), available, max);
    }
  }

  /**
   * The model this process searches the index with: the index's own when it is on the class path
   * and no model was given (the engine opens an index with its own model), else {@code fallback}.
   */
  private @Nullable String ownModel(EngineStatus s, @Nullable String fallback) {
    String own = s.embedderId();
    return env.model().semantic() && env.model().embedder() == null && own != null
        && EmbedderProvider.find(own).isPresent() ? own : fallback;
  }

  // ---------------------------------------------------------------------------------------------
  // shared

  static long ms(long nanos) {
    return nanos / 1_000_000;
  }

  private Optional<String> modelId() {
    return env.model().id();
  }

  private HybridIndexOptions options(Target target) {
    return options(target, null);
  }

  /**
   * The options of {@code target}'s index: the model {@code model} names (an {@code index
   * --model}), else this environment's (a test's), else none, so the engine opens the index with
   * its own model (the default for a new index).
   */
  private HybridIndexOptions options(Target target, @Nullable String model) {
    HybridIndexOptions.Builder b = HybridIndexOptions.builder(target.root()).home(target.home())
        .semantic(env.model().semantic());
    Embedder e = model == null ? env.model().embedder()
        : EmbedderProvider.find(model).map(EmbedderProvider::create).orElse(null);
    if (e != null) {
      b.embedder(e);
    }
    return b.build();
  }

  /** Whether the index has been created (opening says whether it is readable). */
  private static boolean exists(Target target) {
    return HybridIndex.exists(target.home());
  }

  /** Whether the index home is a directory or does not exist yet. */
  private static boolean homeIsDirectory(Target target) {
    Path home = target.home();
    return !Files.exists(home, LinkOption.NOFOLLOW_LINKS) || Files.isDirectory(home);
  }

  /**
   * Exit code 3 when the index home exists and is not a directory: not prism-index's, so it is
   * never deleted or replaced.
   */
  private static void checkHome(Target target) throws CliFailure {
    if (!homeIsDirectory(target)) {
      throw notADirectory(target);
    }
  }

  private static CliFailure notADirectory(Target target) {
    return new CliFailure(ExitCode.INDEX, target.home() + " is not a directory, so it cannot hold"
        + " the index; remove it, or choose another index directory with --index-dir DIR (or"
        + " PRISM_INDEX_DIR)");
  }

  /**
   * Opens an index that has a commit, without creating anything.
   *
   * @throws CliFailure exit code 3 when it is missing, incompatible or corrupt
   */
  IndexAccess.Lease openExisting(Target target) throws CliFailure, IOException {
    checkHome(target);
    if (!exists(target)) {
      throw missing(target);
    }
    IndexAccess.Lease lease;
    try {
      lease = access.open(target, options(target));
    } catch (IncompatibleIndexException e) {
      throw incompatible(target, e);
    } catch (CorruptIndexException e) {
      throw corrupt(target, e);
    }
    if (!lease.index().engineStatus().hasCommit()) {
      lease.close();
      throw missing(target);
    }
    return lease;
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

  static CliFailure corrupt(Target target, CorruptIndexException e) {
    Throwable cause = e.getCause() == null ? e : e.getCause();
    return new CliFailure(ExitCode.INDEX, "corrupt index at " + target.home() + " ("
        + cause.getMessage() + "); run `prism-index index` to repair it", e);
  }
}
