package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.Environment.Model;
import dev.prismindex.cli.command.IndexAccess;
import dev.prismindex.cli.command.LocalBackend;
import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.command.SearchRequest;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.Server;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexWatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A backend that keeps the {@link HybridIndex} of each target (and with it the embedding model)
 * open across calls, for the resident server and the MCP server. Results and exit codes are those
 * of {@link LocalBackend}, which runs every request: only the lifetime of the index differs, and,
 * when made {@link #watching}, how a search learns what changed: an {@link IndexWatch} per target
 * (started in the background when its index is first opened) keeps the index current as files
 * change, so a search asks the watch instead of walking the tree, and {@code status} names the
 * server and what its watch vouches for.
 *
 * <p>Thread-safe. Searches run concurrently. Writes of this process are serialised per target: a
 * search's catch-up waits for another catch-up (a few files) but never for an indexing run; it then
 * answers from the last commit and reports the index as being written, as the one-shot CLI does
 * when another process writes. A commit made by another process (a {@code prism-index index} in a
 * terminal) is noticed before the next call, which reopens the index on it. {@link #close()}
 * waits for calls in flight and closes every index.
 */
public final class WarmBackend implements Backend, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WarmBackend.class);

  private final LocalBackend core;
  /**
   * One embedder of each model of the class path, to free their loaded weights when idle (empty
   * when a test gave a model or semantic search is off).
   */
  private final List<Embedder> models;
  private final ConcurrentMap<Target, IndexSlot> slots = new ConcurrentHashMap<>();
  private final @Nullable String kind;
  private final @Nullable Duration idleTimeout;
  private final Instant started = Instant.now();
  private volatile boolean closed;
  /** Runs on a watch's starting thread between starting the watch and publishing it; tests only. */
  volatile Runnable beforeWatchPublished = () -> { };
  /** Runs on a watch's thread when a refresh holds the right to write, before it runs; tests only. */
  volatile Runnable duringWatchRefresh = () -> { };

  /**
   * A backend for {@code env}'s model, which is found once here (it loads on first use and stays
   * loaded), that watches nothing: every search runs the full freshness probe.
   */
  public WarmBackend(Environment env) {
    this(env, null, null);
  }

  /**
   * A backend that watches the repository of each index it opens and reports itself in
   * {@code status} as a server of {@code kind}.
   *
   * @param kind {@code serve} or {@code mcp}
   * @param idleTimeout the server's idle timeout, null for none
   */
  public static WarmBackend watching(Environment env, String kind,
      @Nullable Duration idleTimeout) {
    return new WarmBackend(env, Objects.requireNonNull(kind, "kind"), idleTimeout);
  }

  private WarmBackend(Environment env, @Nullable String kind, @Nullable Duration idleTimeout) {
    this.kind = kind;
    this.idleTimeout = idleTimeout;
    // No model is pinned here: each index is opened with its own (the static code model by
    // default, MiniLM for an index built with --model minilm), which loads on its first use;
    // every model of the class path shares its loaded weights across the embedders of the
    // process, so one embedder per provider is enough to free them all.
    Model model = env.model();
    List<Embedder> models = new ArrayList<>();
    if (model.semantic() && model.embedder() == null) {
      for (EmbedderProvider provider : ServiceLoader.load(EmbedderProvider.class)) {
        models.add(provider.create());
      }
    }
    this.models = List.copyOf(models);
    this.core = new LocalBackend(env, this::open);
  }

  @Override
  public SearchAnswer search(SearchRequest request) throws CliFailure, IOException {
    return core.search(request);
  }

  @Override
  public SearchAnswer stream(SearchRequest request, dev.prismindex.cli.output.ExactPrinter out)
      throws CliFailure, IOException {
    return core.stream(request, out);
  }

  @Override
  public IndexSummary index(IndexRequest request, Progress progress)
      throws CliFailure, IOException {
    return core.index(request, progress);
  }

  @Override
  public StatusReport status(StatusRequest request) throws IOException {
    StatusReport report = core.status(request);
    if (kind == null) {
      return report;
    }
    if (request.target().workspace()) {
      // Each repository says what its own watch vouches for.
      List<StatusReport> repos = new ArrayList<>();
      for (int i = 0; i < report.repos().size(); i++) {
        repos.add(report.repos().get(i).withServer(server(
            request.target().members().get(i).target())));
      }
      StatusReport each = StatusReport.workspace(report.repo(), report.indexDir(), repos,
          optional(request.target()), report.maxRefreshFiles());
      return each.withServer(new Server(kind, ProcessHandle.current().pid(), started,
          idleTimeout, "each repository's watch, below"));
    }
    return report.withServer(server(request.target()));
  }

  private Server server(Target target) {
    return new Server(Objects.requireNonNull(kind), ProcessHandle.current().pid(), started,
        idleTimeout, watchState(target));
  }

  private static java.util.Set<String> optional(Target workspace) {
    java.util.Set<String> out = new java.util.HashSet<>();
    for (Target.Member m : workspace.members()) {
      if (m.optional()) {
        out.add(m.name());
      }
    }
    return out;
  }

  /** What the watch of {@code target} vouches for, in words for {@code status}. */
  private String watchState(Target target) {
    IndexSlot slot = slots.get(target);
    IndexWatch watch = slot == null ? null : slot.watch;
    if (watch == null) {
      String failed = slot == null ? null : slot.watchFailure;
      return failed != null ? "not watching (" + failed + ")"
          : "not watching yet (starts when the index is first opened)";
    }
    return describe(watch.status());
  }

  static String describe(IndexWatch.Status s) {
    String dirs = s.watchedDirectories() + " directories";
    return switch (s.state()) {
      case CURRENT -> "current (" + dirs + ", " + s.refreshesRun() + " refreshes)";
      case PENDING -> "pending, " + s.pendingFiles() + " changed files being indexed (" + dirs
          + ")";
      case UNWATCHED -> "not watching (" + (s.lastError() != null ? s.lastError()
          : "starting, or the repository root is gone") + "); searches walk the tree";
    };
  }

  /**
   * Frees the embedding model's memory when it is loaded and no call uses it (see
   * {@link Embedder#release}); the next semantic or hybrid query, or the watch's next embedding,
   * loads it again.
   *
   * @return whether a loaded model was freed
   */
  public boolean releaseModel() {
    boolean released = false;
    for (Embedder e : models) {
      released |= e.release();
    }
    return released;
  }

  /** Closes every watch and index, after the calls in flight; later calls fail. Idempotent. */
  @Override
  public void close() throws IOException {
    closed = true;
    // A watch still starting is published, or closed by its starter, before this goes on: none
    // may outlive the backend (it would write its fence files into an index being deleted).
    for (IndexSlot slot : slots.values()) {
      Thread starter = slot.watchStarter;
      if (starter != null && starter != Thread.currentThread()) {
        try {
          starter.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt(); // stop waiting; the starter still closes its watch
        }
      }
    }
    IOException failure = null;
    for (IndexSlot slot : slots.values()) {
      IndexWatch watch = slot.watch;
      slot.watch = null;
      if (watch != null) {
        watch.close();
      }
    }
    for (IndexSlot slot : slots.values()) {
      slot.use.writeLock().lock();
      try {
        HybridIndex index = slot.index;
        slot.index = null;
        if (index != null) {
          index.close();
        }
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      } finally {
        slot.use.writeLock().unlock();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** The targets whose index is open (tests, status of the server). */
  List<Target> openTargets() {
    List<Target> out = new ArrayList<>();
    slots.forEach((t, s) -> {
      if (s.index != null) {
        out.add(t);
      }
    });
    return out;
  }

  private IndexAccess.Lease open(Target target, HybridIndexOptions options) throws IOException {
    IndexSlot slot = slots.computeIfAbsent(target, t -> new IndexSlot());
    slot.use.readLock().lock();
    try {
      if (closed) {
        throw new IOException("the server is shutting down");
      }
      if (slot.index == null || slot.outdated(target)) {
        slot.use.readLock().unlock();
        slot.use.writeLock().lock();
        try {
          if (closed) {
            throw new IOException("the server is shutting down");
          }
          HybridIndex index = slot.index;
          if (index == null || slot.outdated(target)) {
            if (index != null) {
              LOG.debug("the index at {} was committed by another process; reopening",
                  target.home());
              slot.index = null;
              index.close();
            }
            long generation = HybridIndex.commitGeneration(target.home());
            slot.index = HybridIndex.open(options);
            slot.generation = generation;
          }
          slot.use.readLock().lock();
        } finally {
          slot.use.writeLock().unlock();
        }
      }
      if (kind != null && slot.watchStarted.compareAndSet(false, true)) {
        startWatch(slot, target, options);
      }
      return slot.lease(target);
    } catch (IOException | RuntimeException | Error e) {
      if (slot.use.getReadHoldCount() > 0) {
        slot.use.readLock().unlock();
      }
      throw e;
    }
  }

  /**
   * Starts the watch of {@code target} on a thread of its own (registering a large tree takes
   * seconds; until the watch is current, searches run the full probe). Its refreshes write
   * through a lease as catch-ups ({@link IndexSlot#catchUp}): a search that probes meanwhile (the
   * watch not yet published) waits for the refresh instead of answering from the previous commit.
   */
  private void startWatch(IndexSlot slot, Target target, HybridIndexOptions options) {
    Thread t = new Thread(() -> {
      try {
        IndexWatch watch = IndexWatch.start(watchOptions(slot, options), refresh -> {
          try (IndexAccess.Lease lease = open(target, options)) {
            slot.catchUp();
            try {
              duringWatchRefresh.run();
              return lease.index().refresh(refresh);
            } finally {
              lease.endWrite();
            }
          }
        });
        beforeWatchPublished.run();
        slot.watch = watch;
        if (closed) {
          slot.watch = null;
          watch.close();
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("cannot watch {}; searches walk the tree to find changes: {}", target.root(),
            e.toString());
        slot.watchFailure = e.toString();
      }
    }, "prism-index-watch-start");
    t.setDaemon(true);
    slot.watchStarter = t;
    t.start();
  }

  /**
   * The watch embeds the chunks of changed files only when every chunk of the index has a vector:
   * a lexical-only index ({@code index --no-semantic}) stays lexical-only, and a partly embedded
   * one is completed by {@code index}, not by a server (the engine's embedding run embeds every
   * chunk that lacks a vector, which can keep a core busy for hours).
   */
  private static HybridIndexOptions watchOptions(IndexSlot slot, HybridIndexOptions o) {
    HybridIndex index = slot.index;
    boolean vectors;
    try {
      EngineStatus s = index == null ? null : index.engineStatus();
      vectors = s != null && s.embedderId() != null && s.coverage().missing() == 0;
    } catch (IOException | RuntimeException e) {
      vectors = false;
    }
    if (vectors || !o.semantic()) {
      return o;
    }
    return new HybridIndexOptions(o.root(), o.home(), o.include(), o.exclude(), o.maxFileBytes(),
        o.indexSecrets(), o.threads(), o.clock(), false, o.embedder(), o.seamSemanticMode(),
        o.embeddingThreads(), o.embeddingCommitInterval(), o.maxDepth(), o.maxPathBytes(),
        o.allowSecrets(), o.denySecrets());
  }

}
