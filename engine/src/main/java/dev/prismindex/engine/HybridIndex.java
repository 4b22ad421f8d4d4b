package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.IndexProgress.Phase;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.search.ChunkDoc;
import dev.prismindex.engine.internal.search.HitLocator;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.search.LiteralMatch;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.engine.internal.semantic.EmbeddingRun;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.internal.semantic.SemanticSearcher;
import dev.prismindex.engine.internal.semantic.TextSpool;
import dev.prismindex.engine.internal.semantic.VectorCatalog;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.FileReader;
import dev.prismindex.engine.internal.store.Hashing;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Indexer;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import dev.prismindex.engine.internal.walk.WalkResult;
import dev.prismindex.index.IndexCapabilities;
import dev.prismindex.index.IndexDiagnostics;
import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent, incremental code index for one repository: one Lucene index under the index home
 * (default {@code <repo>/.prism-index/}), opened from disk, never rebuilt per process.
 *
 * <p>It is both the seam's {@link RepositoryIndexBackend} ({@code indexed_literal} from the n-gram
 * postings; {@code semantic} served by HYBRID, or SEMANTIC when configured, and declared in
 * {@link #capabilities()} only when an embedding model is present and matches the index) and the
 * {@link CodeSearch} port (LEXICAL BM25, SEMANTIC k-NN over chunk embeddings, HYBRID fused by
 * reciprocal rank). Without a usable model the index is lexical-only: semantic and hybrid requests
 * fail with {@link SemanticSearchUnavailableException}, never a silent lexical answer.
 *
 * <p>Writes ({@link #refresh}, {@link #update}, {@link #remove}) are serialised within the process and
 * guarded by Lucene's {@code write.lock} across processes. A run commits the lexical documents first
 * (searchable at once), then embeds the chunks that have no vector yet and commits vectors
 * periodically, so queries never wait for the embeddings. Searches are concurrent and always see
 * the last commit. Thread-safe.
 */
public final class HybridIndex implements RepositoryIndexBackend, CodeSearch, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HybridIndex.class);
  /** Seam snippets are cut to this many UTF-16 units (the seam's hard snippet cap is 16 KiB). */
  private static final int MAX_SEAM_SNIPPET_CHARS = 4096;
  /** Orphaned vectors are pruned only when they exceed the referenced ones by more than this. */
  static final int PRUNE_SLACK = 1000;
  /** A query that is a single identifier (for HYBRID's identifier guard). */
  private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]+");
  private static final Pattern NAME_WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  /** The most words a name phrase of HYBRID's identifier guard has. */
  static final int MAX_PHRASE_WORDS = 6;

  private final HybridIndexOptions options;
  private final IndexStore store;
  private final @Nullable Embedder embedder;
  private final CodeAnalyzer analyzer = new CodeAnalyzer();
  private final Chunker chunker = new Chunker();
  private final FileRules rules;
  private final LexicalSearcher lexical;
  private final LiteralSearcher literal;
  private final SemanticSearcher semanticSearcher = new SemanticSearcher();
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicInteger running = new AtomicInteger();
  private volatile boolean failed;
  private volatile long verifiedAtMs;
  private volatile boolean closed;

  private HybridIndex(HybridIndexOptions options, IndexStore store, @Nullable Embedder embedder) {
    this.options = options;
    this.store = store;
    this.embedder = embedder;
    this.rules = FileRules.of(options);
    this.lexical = new LexicalSearcher(options.root(), analyzer, options.maxFileBytes());
    this.literal = new LiteralSearcher(options.root(), options.maxFileBytes());
  }

  /**
   * Opens the index home, creating it (with a {@code .gitignore} holding {@code *}) when missing.
   * Nothing is indexed: call {@link #refresh} to build or update. The embedding model is found
   * here (cheaply: it loads on first use), unless semantic search is off.
   *
   * @throws IncompatibleIndexException when the index was written with another format or analyzer
   *     version
   * @throws CorruptIndexException when the index files are damaged
   * @throws IOException when the home cannot be created or read
   */
  public static HybridIndex open(HybridIndexOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    if (!Files.isDirectory(options.root())) {
      throw new NoSuchFileException(options.root().toString(), null,
          "repository root is not a directory");
    }
    Embedder embedder = null;
    if (options.semantic()) {
      embedder = options.embedder() != null ? options.embedder()
          : EmbedderProvider.findDefault().map(EmbedderProvider::create).orElse(null);
    }
    return new HybridIndex(options, IndexStore.open(options.home()), embedder);
  }

  /** The options this index was opened with. */
  public HybridIndexOptions options() {
    return options;
  }

  // ---------------------------------------------------------------------------------------------
  // Semantic availability

  /** Whether this process can search semantically an index whose commit recorded {@code data}. */
  private record Semantic(SemanticState state, @Nullable String message) {
    boolean available() {
      return state == SemanticState.AVAILABLE;
    }
  }

  private Semantic semantic(Map<String, String> data) {
    if (!options.semantic()) {
      return new Semantic(SemanticState.DISABLED, SemanticSearchUnavailableException.PREFIX
          + "semantic search is disabled (HybridIndexOptions.semantic(false), or --no-semantic)");
    }
    Embedder e = embedder;
    if (e == null) {
      return new Semantic(SemanticState.NO_MODEL, SemanticSearchUnavailableException.MESSAGE);
    }
    String id = data.getOrDefault(Schema.META_EMBEDDER_ID, "");
    String dim = data.getOrDefault(Schema.META_EMBEDDER_DIM, "");
    if (!id.isEmpty() && (!id.equals(e.id()) || !dim.equals(Integer.toString(e.dimension())))) {
      return new Semantic(SemanticState.MODEL_MISMATCH, SemanticSearchUnavailableException.PREFIX
          + "index was built with model " + id + " (dim " + dim + "); this process has "
          + e.id() + " (dim " + e.dimension() + "); rebuild with `prism-index index --full` "
          + "(RefreshOptions.FULL)");
    }
    return new Semantic(SemanticState.AVAILABLE, null);
  }

  private static SemanticSearchUnavailableException.Reason reason(SemanticState state) {
    return switch (state) {
      case DISABLED -> SemanticSearchUnavailableException.Reason.DISABLED;
      case MODEL_MISMATCH -> SemanticSearchUnavailableException.Reason.MODEL_MISMATCH;
      default -> SemanticSearchUnavailableException.Reason.NO_MODEL;
    };
  }

  /** The embedder, after checking that semantic search is available for {@code data}. */
  private Embedder requireSemantic(Map<String, String> data) {
    Semantic s = semantic(data);
    if (!s.available() || embedder == null) {
      throw new SemanticSearchUnavailableException(reason(s.state()),
          Objects.requireNonNull(s.message()), null);
    }
    return embedder;
  }

  private static SemanticSearchUnavailableException modelFailed(EmbeddingException e) {
    String m = e.getMessage() == null ? "the model failed" : e.getMessage();
    return new SemanticSearchUnavailableException(
        SemanticSearchUnavailableException.Reason.MODEL_FAILED, m, e);
  }

  // ---------------------------------------------------------------------------------------------
  // Indexing

  /**
   * Walks the repository and brings the index up to date: one commit of the lexical documents (none
   * when nothing changed), then, when semantic search is available and {@code refresh.embed()}, the
   * embedding of every chunk text without a vector, committed every
   * {@link HybridIndexOptions#embeddingCommitInterval()} and at the end; finally the embedding cache
   * is pruned when it outgrows the index (see {@code docs/engine.md}).
   *
   * <p>A verifying run ({@code refresh.verify()}) first verifies the checksums of the index's files
   * (see {@link #verify}); a full rebuild does too, and replaces a damaged index whole (its
   * embedding cache included) instead of updating it.
   *
   * @throws IndexLockedException when another process is writing the index
   * @throws CorruptIndexException when the index is damaged (a full rebuild repairs it)
   * @throws SemanticSearchUnavailableException when the model fails while embedding (the lexical
   *     commit and the vectors embedded so far are kept)
   * @throws java.io.InterruptedIOException when the thread is interrupted while embedding (same)
   * @throws IOException when the walk or the index write fails (the previous commit stays intact)
   */
  public IndexRunStats refresh(RefreshOptions refresh) throws IOException {
    Objects.requireNonNull(refresh, "refresh");
    ensureOpen();
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(refresh.progress(), started);
    boolean wipe = false;
    if (refresh.verify() || refresh.fullRebuild()) {
      try {
        store.verify(false);
      } catch (CorruptIndexException e) {
        if (!refresh.fullRebuild()) {
          throw e;
        }
        LOG.warn("the index at {} is damaged; rebuilding it whole: {}", options.home(),
            e.getMessage());
        wipe = true;
      }
    }
    return write(progress, refresh.embed(), null, wipe, (writer, run) -> {
      progress.phase(Phase.WALKING);
      WalkResult walk = walker().walk();
      Map<String, FileEntry> before = refresh.fullRebuild() ? Map.of() : store.loadManifest();
      // Content rules changed since the last run (or it predates them): re-read every file once.
      boolean verify = refresh.verify() || !before.isEmpty()
          && !rules.contentFingerprint().equals(store.commitData().get(Schema.META_RULES));
      boolean droppedVectors = false;
      if (refresh.fullRebuild() && !run.wiped()) {
        writer.deleteDocuments(new Term(Schema.TYPE, Schema.TYPE_FILE),
            new Term(Schema.TYPE, Schema.TYPE_CHUNK));
        if (run.semanticBefore().state() == SemanticState.MODEL_MISMATCH) {
          writer.deleteDocuments(new Term(Schema.TYPE, Schema.TYPE_VECTOR));
          droppedVectors = true;
        }
      }
      Indexer indexer = newIndexer(writer, before, run, progress);
      progress.filesTotal(walk.paths().size());
      progress.phase(Phase.INDEXING);
      indexer.countSkips(walk.skipped());
      indexer.runWalk(walk.paths(), verify, options.threads());
      String revision = walk.gitHead() != null ? walk.gitHead() : manifestDigest(indexer.manifest());
      boolean force = refresh.fullRebuild();
      int seen = walk.paths().size() + walk.skipped().values().stream().mapToInt(i -> i).sum();
      return new Outcome(indexer, revision, force, seen, started, droppedVectors,
          rules.contentFingerprint());
    });
  }

  /**
   * Estimates, from a walk and stat calls only, how many files changed since the last commit. Files
   * the index does not have are sniffed (first 8 KiB) so binary files and files holding a private
   * key are not reported as added (minified and lock files are indexed, for literal search only, so
   * they are not reported either). The walk applies the same rules as {@link #refresh}, so a file the
   * walk skips (by name, secret deny list, depth or path length) never makes the index look stale;
   * the skips are counted in {@link Staleness#skipped()}.
   */
  public Staleness staleness() throws IOException {
    long started = System.nanoTime();
    WalkResult walk = walker().walk();
    Map<SkipReason, Integer> skipped = new EnumMap<>(SkipReason.class);
    skipped.putAll(walk.skipped());
    Map<String, FileEntry> manifest = store.loadManifest();
    int added = 0;
    int modified = 0;
    int unchanged = 0;
    Set<String> seen = new HashSet<>();
    for (String path : walk.paths()) {
      Path file = options.root().resolve(path);
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        continue;
      }
      if (!a.isRegularFile() || a.size() > options.maxFileBytes()) {
        continue;
      }
      FileEntry e = manifest.get(path);
      if (e == null) {
        SkipReason reason = sniff(path, file);
        if (reason == null) {
          added++;
        } else if (reason == SkipReason.PRIVATE_KEY) {
          skipped.merge(reason, 1, Integer::sum);
        }
        continue;
      }
      seen.add(path);
      if (e.statMatches(a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS))) {
        unchanged++;
      } else {
        modified++;
      }
    }
    int deleted = 0;
    for (String path : manifest.keySet()) {
      if (!seen.contains(path)) {
        deleted++;
      }
    }
    return new Staleness(added, modified, deleted, unchanged,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), skipped);
  }

  /** Why the indexer would skip a file by its first bytes (binary, private key), or null. */
  private @Nullable SkipReason sniff(String path, Path file) {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] head = in.readNBytes(Math.max(FileReader.BINARY_SNIFF_BYTES, FileRules.KEY_SNIFF_BYTES));
      SkipReason secret = rules.skipByContent(path, head, head.length);
      if (secret != null) {
        return secret;
      }
      return FileReader.isBinary(head, head.length) ? SkipReason.BINARY : null;
    } catch (IOException e) {
      return SkipReason.UNREADABLE;
    }
  }

  private RepoWalker walker() {
    return new RepoWalker(options.root(), options.home(), rules);
  }

  private Indexer newIndexer(IndexWriter writer, Map<String, FileEntry> before,
      @Nullable RunContext run, RunProgress progress) {
    Indexer indexer = new Indexer(options.root(), writer, chunker, rules, options.maxFileBytes(),
        options.clock(), before);
    if (run != null) {
      indexer.countReuse(run.reuse());
      TextSpool spool = run.spool();
      if (spool != null) {
        indexer.onUnembedded(spool::offer);
      }
    }
    indexer.onFileDone(progress::fileDone);
    return indexer;
  }

  /**
   * What a write job did. {@code rules}: the {@link FileRules#contentFingerprint()} every indexed
   * file was judged by when the job walked the whole repository (a refresh: its skip counts are
   * complete and replace {@link Schema#META_SKIPPED}), or null when the job judged only some files
   * (a seam update or removal: the commit keeps the previous rules and skip counts).
   */
  private record Outcome(Indexer indexer, String revision, boolean force, int filesSeen,
      long startedNanos, boolean droppedVectors, @Nullable String rules) {

    boolean walked() {
      return rules != null;
    }
  }

  /**
   * What a write job sees of the run: the semantic availability before it, the embedding-cache
   * lookup for counting reused chunks (null when semantic search is unavailable or there are no
   * vectors), the spool keeping the texts to embed (null when the run will not embed), and
   * whether every segment was dropped before the job (a damaged index being rebuilt).
   */
  private record RunContext(Semantic semanticBefore, @Nullable Predicate<BytesRef> reuse,
      @Nullable TextSpool spool, boolean wiped) {}

  @FunctionalInterface
  private interface WriteJob {
    Outcome run(IndexWriter writer, RunContext run) throws IOException;
  }

  /**
   * Runs a write: the job's lexical changes in one commit (with the coverage counts of that very
   * commit), then, when asked and possible, the embedding of the missing chunk texts (of
   * {@code embedPaths} only, when non-null), then pruning of the embedding cache. With
   * {@code wipe}, every segment is dropped unread before the job (a damaged index). Damage found
   * on the way is raised as {@link CorruptIndexException}.
   */
  private IndexRunStats write(RunProgress progress, boolean embed, @Nullable Set<String> embedPaths,
      boolean wipe, WriteJob job) throws IOException {
    ensureOpen();
    writeLock.lock();
    running.incrementAndGet();
    try {
      IndexWriter writer = store.openWriter(analyzer);
      try {
        Map<String, String> previous = store.commitData();
        Semantic before = semantic(previous);
        Outcome outcome;
        boolean commit;
        long now;
        VectorCatalog.Stats stats = null;
        RunContext run;
        try (IndexStore.Lease lease = store.lease()) {
          Predicate<BytesRef> reuse = null;
          IndexSearcher pre = lease.searcher();
          if (wipe) {
            writer.deleteAll();
          } else if (before.available() && pre != null
              && parseLong(previous.get(Schema.META_VECTORS)) > 0) {
            reuse = hash -> {
              try {
                return pre.count(new TermQuery(new Term(Schema.VEC_HASH, hash))) > 0;
              } catch (IOException e) {
                return false;
              }
            };
          }
          TextSpool spool = embed && before.available()
              ? new TextSpool(TextSpool.DEFAULT_BUDGET_CHARS) : null;
          run = new RunContext(before, reuse, spool, wipe);
          outcome = job.run(writer, run);
          Indexer.Counters c = outcome.indexer().counters();
          String skipped = outcome.walked() ? skippedMeta(c.skipped())
              : previous.getOrDefault(Schema.META_SKIPPED, "");
          commit = outcome.force() || c.wroteDocuments() || !store.hasCommit()
              || !outcome.revision().equals(previous.get(Schema.META_REVISION))
              || (outcome.walked() && !skipped.equals(previous.get(Schema.META_SKIPPED)))
              || outcome.walked() && !outcome.rules().equals(previous.get(Schema.META_RULES));
          now = options.clock().millis();
          if (commit) {
            progress.phase(Phase.COMMITTING);
            try (DirectoryReader nrt = DirectoryReader.open(writer)) {
              stats = VectorCatalog.stats(nrt);
            }
            Map<String, String> meta = metadata(outcome, now, stats, previous);
            meta.put(Schema.META_SKIPPED, skipped);
            writer.setLiveCommitData(meta.entrySet(), true);
            writer.commit();
            store.refreshSearcher();
            if (wipe) {
              store.repaired();
            }
          }
        } catch (IOException | RuntimeException | Error e) {
          failed = true;
          throw e;
        }
        failed = false;
        verifiedAtMs = now;
        Indexer.Counters c = outcome.indexer().counters();
        EmbeddingRun.Result embedded = new EmbeddingRun.Result(0, 0, 0);
        boolean committedVectors = false;
        if (embed) {
          Map<String, String> data = store.commitData();
          Semantic after = semantic(data);
          if (after.available() && embedder != null) {
            progress.phase(Phase.EMBEDDING);
            embedded = embed(writer, embedder, data, embedPaths, progress, run.spool());
            committedVectors = embedded.textsEmbedded() > 0;
            if (embedPaths == null && stats != null) {
              committedVectors |= prune(writer, stats, embedded.textsEmbedded());
            }
          }
        }
        if (commit || committedVectors) {
          // Let the merges this run started finish and commit them (same metadata: merges change
          // no counts); closing by rollback would abort them and leave the segments to pile up.
          try {
            writer.close();
            store.refreshSearcher();
          } catch (IOException | RuntimeException e) {
            LOG.warn("merging after the run failed; the index stays as committed: {}", e.toString());
          }
        }
        progress.phase(Phase.DONE);
        return new IndexRunStats(outcome.filesSeen(), c.hashed(), c.added(), c.changed(),
            c.deleted(), c.unchanged(), c.skipped(), c.chunksWritten(),
            embedded.textsEmbedded(), before.available() ? c.chunksReused() : 0,
            commit || committedVectors,
            commit ? outcome.revision() : previous.get(Schema.META_REVISION),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - outcome.startedNanos()));
      } finally {
        if (writer.isOpen()) {
          // Nothing to keep, or a failure: discard what is not committed. With the interrupt flag
          // cleared meanwhile: Lucene's file channels close on interrupts.
          boolean interrupted = Thread.interrupted();
          try {
            writer.rollback();
          } catch (IOException | RuntimeException e) {
            LOG.debug("closing the index writer failed", e);
          } finally {
            if (interrupted) {
              Thread.currentThread().interrupt();
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      CorruptIndexException c = store.corruption(e);
      if (c != null) {
        throw c;
      }
      throw e;
    } finally {
      running.decrementAndGet();
      writeLock.unlock();
    }
  }

  /** Embeds the missing chunk texts; every commit carries exact coverage and vector counts. */
  private EmbeddingRun.Result embed(IndexWriter writer, Embedder model, Map<String, String> base,
      @Nullable Set<String> onlyPaths, RunProgress progress, @Nullable TextSpool spool)
      throws IOException {
    Map<String, Map<BytesRef, Integer>> backlog = store.withSearcher(
        s -> VectorCatalog.missing(s.getIndexReader(), onlyPaths), Map.of());
    long baseEmbedded = parseLong(base.get(Schema.META_CHUNKS_EMBEDDED));
    long baseVectors = parseLong(base.get(Schema.META_VECTORS));
    long[] committed = {0};
    EmbeddingRun run = new EmbeddingRun(options.root(), options.maxFileBytes(), writer, chunker,
        model, options.embeddingThreads(), options.embeddingCommitInterval(), options.clock());
    try {
      return run.run(backlog, path -> store.withSearcher(s -> IndexStore.lookup(s, path), null),
          (texts, covered) -> {
            if (texts == committed[0]) {
              return;
            }
            Map<String, String> data = new HashMap<>(base);
            data.put(Schema.META_EMBEDDER_ID, model.id());
            data.put(Schema.META_EMBEDDER_DIM, Integer.toString(model.dimension()));
            data.put(Schema.META_CHUNKS_EMBEDDED, Long.toString(baseEmbedded + covered));
            data.put(Schema.META_VECTORS, Long.toString(baseVectors + texts));
            writer.setLiveCommitData(data.entrySet(), true);
            writer.commit();
            store.refreshSearcher();
            committed[0] = texts;
          },
          progress::embedded, spool);
    } catch (EmbeddingException e) {
      throw modelFailed(e);
    }
  }

  /**
   * Prunes the embedding cache: when the vectors no chunk uses outnumber the used ones by more than
   * {@value #PRUNE_SLACK}, the oldest unused ones are deleted until they are at most half the used
   * ones. Returns whether it committed.
   */
  private boolean prune(IndexWriter writer, VectorCatalog.Stats stats, long embedded)
      throws IOException {
    long referenced = stats.referencedVectors() + embedded;
    if (stats.unreferencedVectors() <= referenced + PRUNE_SLACK) {
      return false;
    }
    List<VectorCatalog.Orphan> orphans =
        store.withSearcher(s -> VectorCatalog.orphans(s.getIndexReader()), List.of());
    int remove = (int) Math.max(0, orphans.size() - referenced / 2);
    if (remove == 0) {
      return false;
    }
    List<Term> terms = new ArrayList<>(remove);
    for (int i = 0; i < remove; i++) {
      terms.add(new Term(Schema.VEC_HASH, orphans.get(i).hash()));
      if (terms.size() == 1024 || i == remove - 1) {
        writer.deleteDocuments(terms.toArray(new Term[0]));
        terms.clear();
      }
    }
    Map<String, String> data = new HashMap<>(store.commitData());
    data.put(Schema.META_VECTORS,
        Long.toString(Math.max(0, parseLong(data.get(Schema.META_VECTORS)) - remove)));
    writer.setLiveCommitData(data.entrySet(), true);
    writer.commit();
    store.refreshSearcher();
    LOG.debug("pruned {} unused vectors from the embedding cache", remove);
    return true;
  }

  private static Map<String, String> metadata(Outcome outcome, long now, VectorCatalog.Stats stats,
      Map<String, String> previous) {
    Map<String, FileEntry> manifest = outcome.indexer().manifest();
    long chunks = 0;
    for (FileEntry e : manifest.values()) {
      chunks += e.chunks();
    }
    boolean vectors = stats.vectors() > 0 && !outcome.droppedVectors();
    Map<String, String> data = new HashMap<>();
    data.put(Schema.META_FORMAT, Schema.FORMAT_VERSION);
    data.put(Schema.META_ANALYZER, CodeAnalyzer.VERSION);
    data.put(Schema.META_EMBEDDER_ID,
        vectors ? previous.getOrDefault(Schema.META_EMBEDDER_ID, "") : "");
    data.put(Schema.META_EMBEDDER_DIM,
        vectors ? previous.getOrDefault(Schema.META_EMBEDDER_DIM, "") : "");
    data.put(Schema.META_REVISION, outcome.revision());
    data.put(Schema.META_UPDATED_AT, Long.toString(now));
    data.put(Schema.META_FILES, Integer.toString(manifest.size()));
    data.put(Schema.META_CHUNKS, Long.toString(chunks));
    data.put(Schema.META_CHUNKS_EMBEDDED, Long.toString(Math.min(chunks, stats.chunksEmbedded())));
    data.put(Schema.META_VECTORS, Long.toString(stats.vectors()));
    String rules = outcome.rules() != null ? outcome.rules() : previous.get(Schema.META_RULES);
    if (rules != null) {
      data.put(Schema.META_RULES, rules);
    }
    return data;
  }

  /** {@link Schema#META_SKIPPED}'s value: {@code binary=2,secret=1}, reasons sorted. */
  static String skippedMeta(Map<SkipReason, Integer> skipped) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Integer> e : notSearched(skipped).entrySet()) {
      sb.append(sb.length() == 0 ? "" : ",").append(e.getKey()).append('=').append(e.getValue());
    }
    return sb.toString();
  }

  private static Map<String, Integer> notSearched(Map<SkipReason, Integer> skipped) {
    Map<String, Integer> out = new TreeMap<>();
    skipped.forEach((reason, n) -> {
      if (n > 0 && !FileRules.literalOnly(reason)) {
        out.put(reason.name().toLowerCase(Locale.ROOT), n);
      }
    });
    return out;
  }

  /** Parses {@link #skippedMeta}; unknown or malformed parts are ignored. */
  static Map<String, Integer> parseSkipped(@Nullable String meta) {
    Map<String, Integer> out = new TreeMap<>();
    if (meta == null || meta.isEmpty()) {
      return out;
    }
    for (String part : meta.split(",")) {
      int eq = part.indexOf('=');
      try {
        if (eq > 0) {
          out.merge(part.substring(0, eq), Integer.parseInt(part.substring(eq + 1)), Integer::sum);
        }
      } catch (NumberFormatException e) {
        // ignore
      }
    }
    return out;
  }

  /** {@code manifest:} plus BLAKE3 over the sorted {@code path NUL hash LF} lines. */
  static String manifestDigest(Map<String, FileEntry> manifest) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, FileEntry> e : new TreeMap<>(manifest).entrySet()) {
      sb.append(e.getKey()).append('\0').append(e.getValue().hash()).append('\n');
    }
    return "manifest:" + Hashing.blake3(sb.toString());
  }

  // ---------------------------------------------------------------------------------------------
  // Status

  /**
   * What the last commit records, and whether this process can search it semantically.
   *
   * @throws IOException when the index cannot be read
   */
  public EngineStatus engineStatus() throws IOException {
    ensureOpen();
    Map<String, String> data = store.commitData();
    String updated = data.get(Schema.META_UPDATED_AT);
    String dim = data.getOrDefault(Schema.META_EMBEDDER_DIM, "");
    String embedderId = data.getOrDefault(Schema.META_EMBEDDER_ID, "");
    Semantic s = semantic(data);
    return new EngineStatus(options.home(), store.hasCommit(),
        parseLong(data.get(Schema.META_FILES)), parseLong(data.get(Schema.META_CHUNKS)),
        data.get(Schema.META_REVISION),
        updated == null ? null : Instant.ofEpochMilli(Long.parseLong(updated)),
        store.sizeOnDisk(), data.get(Schema.META_FORMAT), data.get(Schema.META_ANALYZER),
        embedderId.isEmpty() ? null : embedderId, dim.isEmpty() ? 0 : Integer.parseInt(dim),
        parseLong(data.get(Schema.META_CHUNKS_EMBEDDED)), parseLong(data.get(Schema.META_VECTORS)),
        s.state(), s.message());
  }

  /**
   * Verifies the last commit without taking the write lock: the checksum of every index file (a
   * sequential read of the whole index, about as long as reading it from disk); when
   * {@code thorough}, also Lucene's {@code CheckIndex} tests of every segment (postings, stored
   * fields, doc values, vectors, ...), several times slower. A search that fails on damaged
   * files runs the checksum step itself and reports {@link CorruptIndexException}; damage in
   * parts a search does not read shows only here.
   *
   * @throws CorruptIndexException when the index is damaged (rebuild it with
   *     {@link RefreshOptions#FULL})
   */
  public void verify(boolean thorough) throws IOException {
    ensureOpen();
    store.verify(thorough);
  }

  /** Coverage and vector counts computed from the last commit's documents (for tests). */
  VectorCatalog.Stats vectorStats() throws IOException {
    return store.withSearcher(s -> VectorCatalog.stats(s.getIndexReader()),
        new VectorCatalog.Stats(0, 0, 0, 0));
  }

  /** The manifest of the last commit (for tests and diagnostics). */
  Map<String, FileEntry> manifest() throws IOException {
    return store.loadManifest();
  }

  private static long parseLong(@Nullable String s) {
    return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
  }

  private static SemanticCoverage coverage(Map<String, String> data) {
    long chunks = parseLong(data.get(Schema.META_CHUNKS));
    return new SemanticCoverage(chunks,
        Math.min(chunks, parseLong(data.get(Schema.META_CHUNKS_EMBEDDED))));
  }

  // ---------------------------------------------------------------------------------------------
  // CodeSearch

  /**
   * {@inheritDoc}
   *
   * <p>Hits come from the last commit and are checked against the working tree before they are
   * returned (see {@link HitLocator}). Equivalent to {@code searchResult(query, opts).hits()}.
   */
  @Override
  public List<Hit> search(String query, SearchOpts opts) throws IOException {
    return searchResult(query, opts).hits();
  }

  /**
   * {@inheritDoc}
   *
   * <p>LEXICAL: BM25 (see {@link LexicalSearcher}); scores are divided by the best one. SEMANTIC:
   * the query string alone is embedded, k-NN over the chunk vectors, each hit at its chunk's
   * symbol line (else its first non-blank line); score = cosine similarity clamped to [0, 1].
   * HYBRID: both engines to the same depth, fused by {@link SearchOpts#fusion()} (RRF, k = 20,
   * by default; a chunk missing from a ranking cut at that depth counts as ranked just below
   * the cut);
   * score = fused score / maximum attainable; a hit keeps the lexical best line when the lexical
   * engine matched it. <b>Identifier guard:</b> when the query is a single identifier and the
   * lexical engine's top hit is an exact match of it (one of its chunk's definitions has that name,
   * or its best line contains it as a whole word, case-sensitively), or the query is a name phrase
   * ({@code parse duration string}: 2 to 6 words of letters and digits) and one of that hit's
   * definitions is named by it ({@code parseDurationString}, {@code PARSE_DURATION_STRING}), that
   * hit is HYBRID's first hit too, with the best fused score of the answer (see {@code
   * docs/engine.md}). Ties are broken by
   * the lexical rank, the semantic rank, then path and line, so an index and a query always give
   * the same hits, in the same order, with the same scores.
   */
  @Override
  public SearchResult searchResult(String query, SearchOpts opts) throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    ensureOpen();
    Map<String, String> data = store.commitData();
    if (opts.mode() == RetrievalMode.LEXICAL) {
      return store.withSearcher(s -> new SearchResult(
          lexical.search(s, query, opts.limit(), opts.pathScope()), RetrievalMode.LEXICAL,
          coverage(commitData(s))), new SearchResult(List.of(), opts.mode(), coverage(data)));
    }
    Embedder model = requireSemantic(data);
    float[] vector = null;
    if (!query.isBlank()) {
      try {
        vector = EmbeddingRun.unit(model.embedQuery(query), model.dimension());
      } catch (EmbeddingException e) {
        throw modelFailed(e);
      }
    }
    float[] q = vector;
    return store.withSearcher(s -> {
      Map<String, String> d = commitData(s);
      requireSemantic(d);
      List<Hit> hits = opts.mode() == RetrievalMode.SEMANTIC
          ? semanticHits(s, q, opts)
          : hybridHits(s, query, q, opts);
      return new SearchResult(hits, opts.mode(), coverage(d));
    }, new SearchResult(List.of(), opts.mode(), coverage(data)));
  }

  private static Map<String, String> commitData(IndexSearcher s) throws IOException {
    return ((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData();
  }

  private static int depth(int limit) {
    return Math.min(2000, Math.max(50, limit * 2 + 10));
  }

  private List<Hit> semanticHits(IndexSearcher s, float @Nullable [] q, SearchOpts opts)
      throws IOException {
    if (q == null) {
      return List.of();
    }
    HitLocator locator = new HitLocator(options.root(), analyzer, options.maxFileBytes(), s);
    List<Hit> hits = new ArrayList<>();
    for (Ranked r : semanticSearcher.candidates(s, q, depth(opts.limit()), opts.pathScope())) {
      if (hits.size() == opts.limit()) {
        break;
      }
      Hit hit = locator.locate(locator.chunk(r.doc()), Set.of(),
          Math.min(1.0, Math.max(0.0, r.score())),
          null, new EngineScore(r.rank(), r.score()));
      if (hit != null) {
        hits.add(hit);
      }
    }
    return hits;
  }

  private List<Hit> hybridHits(IndexSearcher s, String query, float @Nullable [] q,
      SearchOpts opts) throws IOException {
    int depth = depth(opts.limit());
    Set<String> terms = lexical.terms(query);
    List<Ranked> lex = terms.isEmpty() ? List.of()
        : lexical.candidates(s, query, depth, opts.pathScope());
    List<Ranked> sem = q == null ? List.of()
        : semanticSearcher.candidates(s, q, depth, opts.pathScope());
    HitLocator locator = new HitLocator(options.root(), analyzer, options.maxFileBytes(), s);
    List<HybridFuser.Fused> fused = new ArrayList<>(HybridFuser.fuse(lex, sem, opts.fusion(), depth));
    HybridFuser.Fused pinned = identifierGuard(query, lex, terms, locator, fused);
    double pinnedScore = 0;
    if (pinned != null) {
      pinnedScore = Math.max(pinned.score(), fused.get(0).score());
      fused.remove(pinned);
      fused.add(0, pinned);
    }
    List<Hit> hits = new ArrayList<>();
    for (HybridFuser.Fused f : fused) {
      if (hits.size() == opts.limit()) {
        break;
      }
      Hit hit = locator.locate(locator.chunk(f.doc()), f.lexical() != null ? terms : Set.of(),
          f == pinned ? pinnedScore : f.score(),
          f.lexical() == null ? null : new EngineScore(f.lexical().rank(), f.lexical().score()),
          f.semantic() == null ? null
              : new EngineScore(f.semantic().rank(), f.semantic().score()));
      if (hit != null) {
        hits.add(hit);
      }
    }
    return hits;
  }

  /**
   * HYBRID's identifier guard (see {@link #searchResult}): the fused entry of the lexical engine's
   * top hit when the query is one identifier and that hit matches it exactly, else null.
   */
  private static HybridFuser.@Nullable Fused identifierGuard(String query, List<Ranked> lex,
      Set<String> terms, HitLocator locator, List<HybridFuser.Fused> fused) throws IOException {
    String id = query.strip();
    String phrase = namePhrase(id);
    if (phrase == null && !IDENTIFIER.matcher(id).matches()) {
      return null;
    }
    for (Ranked r : lex) {
      // The lexical top hit is the first candidate whose file still yields a hit.
      ChunkDoc chunk = locator.chunk(r.doc());
      Hit top = locator.locate(chunk, terms, 1.0, null, null);
      if (top == null) {
        continue;
      }
      if (phrase != null ? !namesPhrase(chunk.symbolNames(), phrase)
          : !exactIdentifierMatch(top, chunk.symbolNames(), id)) {
        return null;
      }
      for (HybridFuser.Fused f : fused) {
        if (f.lexical() == r) {
          return f;
        }
      }
      return null;
    }
    return null;
  }

  /**
   * The words of a name phrase ({@code parse duration string}: 2 to {@value #MAX_PHRASE_WORDS}
   * space-separated words of letters and digits) joined and lower-cased ({@code
   * parsedurationstring}), or null when {@code query} is not one.
   */
  static @Nullable String namePhrase(String query) {
    String[] words = query.split(" +");
    if (words.length < 2 || words.length > MAX_PHRASE_WORDS) {
      return null;
    }
    StringBuilder joined = new StringBuilder();
    for (String w : words) {
      if (!NAME_WORD.matcher(w).matches()) {
        return null;
      }
      joined.append(w.toLowerCase(Locale.ROOT));
    }
    return joined.toString();
  }

  /** Whether one of {@code symbols}, lower-cased and without {@code _}, is {@code phrase}. */
  static boolean namesPhrase(List<String> symbols, String phrase) {
    for (String s : symbols) {
      if (s.replace("_", "").toLowerCase(Locale.ROOT).equals(phrase)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code hit} defines {@code id} or its best line contains it as a whole word. */
  static boolean exactIdentifierMatch(Hit hit, List<String> symbols, String id) {
    if (symbols.contains(id)) {
      return true;
    }
    String line = hit.snippet();
    for (int i = line.indexOf(id); i >= 0; i = line.indexOf(id, i + 1)) {
      boolean startOk = i == 0 || !isIdentifierPart(line.codePointBefore(i));
      int end = i + id.length();
      boolean endOk = end == line.length() || !isIdentifierPart(line.codePointAt(end));
      if (startOk && endOk) {
        return true;
      }
    }
    return false;
  }

  private static boolean isIdentifierPart(int cp) {
    return cp == '_' || cp == '$' || Character.isLetterOrDigit(cp);
  }

  /**
   * Exact literal matches with the literal scanner's semantics (every matching line, path order).
   * Used by the seam (first match per file) and by tests comparing with the scanner.
   * {@link LiteralResult#notSearched()} holds the files the commit's walking run left out of the
   * index (binary, oversize, secret, glob, not regular, unreadable: for the whole repository,
   * whatever the scope) plus candidates unreadable as text now.
   */
  public LiteralResult literalSearch(String query, boolean caseSensitive, @Nullable String scope,
      int maxMatches, boolean onePerFile, AbortSignal signal) throws IOException {
    ensureOpen();
    String s = SearchOpts.normaliseScope(scope);
    return store.withSearcher(
        searcher -> literal.search(searcher, query, caseSensitive, s, maxMatches, onePerFile,
            signal).plusNotSearched(parseSkipped(commitData(searcher).get(Schema.META_SKIPPED))),
        new LiteralResult(List.of(), false));
  }

  // ---------------------------------------------------------------------------------------------
  // RepositoryIndexBackend

  /**
   * {@code semantic} is true only when an embedding model is present, semantic search is on, and
   * the model matches the index's (or the index has no vectors yet). Cheap: reads the commit's
   * metadata; never loads the model.
   */
  @Override
  public IndexCapabilities capabilities() {
    if (closed) {
      return IndexCapabilities.LITERAL_ONLY;
    }
    try {
      return semantic(store.commitData()).available() ? IndexCapabilities.SEMANTIC
          : IndexCapabilities.LITERAL_ONLY;
    } catch (IOException e) {
      return IndexCapabilities.LITERAL_ONLY;
    }
  }

  /**
   * Re-indexes exactly the listed paths (a vanished or now-skipped path is deleted) and records the
   * request's source revision, in one commit; then embeds the new chunk texts of those paths.
   */
  @Override
  public void update(IndexUpdateRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    String revision = request.sourceRevision();
    if (revision == null || revision.isEmpty()) {
      throw new IllegalArgumentException("sourceRevision is required");
    }
    List<String> upserts = new ArrayList<>();
    List<String> deletes = new ArrayList<>();
    for (IndexFileChange change : request.changes() == null ? List.<IndexFileChange>of()
        : request.changes()) {
      if (change == null || change.path() == null || change.kind() == null) {
        throw new IllegalArgumentException("invalid change");
      }
      String path = checkPath(change.path());
      if (change.kind() == IndexFileChangeKind.DELETE) {
        deletes.add(path);
      } else {
        if (change.kind() == IndexFileChangeKind.RENAME && change.oldPath() != null) {
          deletes.add(checkPath(change.oldPath()));
        }
        upserts.add(path);
      }
    }
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(IndexProgressListener.NONE, started);
    write(progress, true, new LinkedHashSet<>(upserts), false, (writer, run) -> {
      Indexer indexer = newIndexer(writer, store.loadManifest(), run, progress);
      indexer.runPaths(insideRoot(upserts, deletes), deletes, options.threads());
      return new Outcome(indexer, revision, false, upserts.size(), started, false, null);
    });
  }

  /** Drops the paths; commits only when something was removed. */
  @Override
  public void remove(IndexRemoveRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    List<String> paths = new ArrayList<>();
    for (String p : request.paths() == null ? List.<String>of() : request.paths()) {
      if (p == null) {
        throw new IllegalArgumentException("invalid path");
      }
      paths.add(checkPath(p));
    }
    if (paths.isEmpty()) {
      return;
    }
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(IndexProgressListener.NONE, started);
    write(progress, false, null, false, (writer, run) -> {
      Indexer indexer = newIndexer(writer, store.loadManifest(), null, progress);
      indexer.runPaths(List.of(), paths, options.threads());
      String revision = store.commitData().get(Schema.META_REVISION);
      return new Outcome(indexer, revision == null ? manifestDigest(indexer.manifest()) : revision,
          false, 0, started, false, null);
    });
  }

  /** Paths whose real location is inside the root; others are treated as deleted. */
  private List<String> insideRoot(List<String> upserts, List<String> deletes) {
    List<String> out = new ArrayList<>();
    Path realRoot;
    try {
      realRoot = options.root().toRealPath();
    } catch (IOException e) {
      return List.of();
    }
    for (String p : upserts) {
      Path file = options.root().resolve(p);
      Path parent = file.getParent();
      try {
        if (parent != null && parent.toRealPath().startsWith(realRoot)
            && !file.startsWith(options.home())) {
          out.add(p);
          continue;
        }
      } catch (IOException e) {
        // missing parent: the file is gone
      }
      deletes.add(p);
    }
    return out;
  }

  private static String checkPath(String path) {
    String p = path;
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    if (p.isEmpty() || p.startsWith("/") || p.contains("\\") || p.equals("..")
        || p.startsWith("../") || p.contains("/../") || p.endsWith("/..") || p.indexOf('\0') >= 0
        || p.equals(".")) {
      throw new IllegalArgumentException("path must be repository-relative: " + path);
    }
    return p;
  }

  /**
   * {@code indexed_literal}: one hit per file (its first matching line; score 1.0, or 0.5 for a
   * path-only match), files in path order, {@code truncated} when a further file matches.
   * {@code semantic}: {@link HybridIndexOptions#seamSemanticMode()} (HYBRID by default), one hit per
   * file (its best chunk), {@code truncated} when the cap was reached (a similarity search always
   * has further, weaker hits); {@link SemanticSearchUnavailableException} without a usable model.
   */
  @Override
  public IndexQueryResult search(IndexQuery query) throws IOException {
    Objects.requireNonNull(query, "query");
    if (query.mode() == SearchMode.SEMANTIC) {
      return seamSemantic(query);
    }
    if (query.mode() != SearchMode.INDEXED_LITERAL) {
      throw new IllegalArgumentException("unsupported index mode: " + query.mode().wireName());
    }
    LiteralResult r = literalSearch(query.query(), query.caseSensitive(), query.scope(),
        query.maxResults(), true, query.signal());
    List<IndexSearchHit> hits = new ArrayList<>(r.matches().size());
    for (LiteralMatch m : r.matches()) {
      hits.add(new IndexSearchHit(m.path(), m.pathOnly() ? 0.5 : 1.0, seamSnippet(m.text()),
          m.line(), m.line(), m.column()));
    }
    return new IndexQueryResult(hits, r.truncated());
  }

  private IndexQueryResult seamSemantic(IndexQuery query) throws IOException {
    int max = Math.max(1, Math.min(query.maxResults(), SearchOpts.MAX_LIMIT));
    SearchOpts opts = new SearchOpts(Math.min(SearchOpts.MAX_LIMIT, max * 3),
        options.seamSemanticMode(), query.scope());
    List<IndexSearchHit> hits = new ArrayList<>();
    Set<String> files = new HashSet<>();
    for (Hit h : searchResult(query.query(), opts).hits()) {
      if (hits.size() == max) {
        break;
      }
      if (files.add(h.path())) {
        hits.add(new IndexSearchHit(h.path(), h.score(), seamSnippet(h.snippet()), h.line(),
            h.endLine(), 0));
      }
    }
    return new IndexQueryResult(hits, hits.size() == max);
  }

  private static String seamSnippet(String text) {
    return text.length() > MAX_SEAM_SNIPPET_CHARS ? text.substring(0, MAX_SEAM_SNIPPET_CHARS)
        : text;
  }

  /**
   * FAILED after a failed write until the next success, and once a search, a run or
   * {@link #verify} found the index damaged, until a full rebuild or a verification passes;
   * otherwise READY whenever a commit exists
   * (also while a later run is writing: searches are served from the last commit, so the seam need
   * not refuse them); BUILDING while the first run writes; EMPTY before any commit.
   * {@code updatedAt} is the later of the last lexical commit's time and the last run in this
   * process that found nothing to change (the index was verified current then).
   */
  @Override
  public IndexStatus status() throws IOException {
    ensureOpen();
    Map<String, String> data = store.commitData();
    String revision = data.get(Schema.META_REVISION);
    String updated = data.get(Schema.META_UPDATED_AT);
    Long commitMs = updated == null ? null : Long.parseLong(updated);
    Long updatedAt = commitMs == null ? null : Math.max(commitMs, verifiedAtMs);
    IndexDiagnostics diagnostics = new IndexDiagnostics(parseLong(data.get(Schema.META_FILES)),
        store.sizeOnDisk(), commitMs);
    IndexState state;
    if (failed || store.damaged()) {
      state = IndexState.FAILED;
    } else if (store.hasCommit()) {
      // A run in progress never hides the last commit: it stays servable until the next one.
      state = IndexState.READY;
    } else if (running.get() > 0) {
      state = IndexState.BUILDING;
    } else {
      state = IndexState.EMPTY;
    }
    return new IndexStatus(state, revision, updatedAt, diagnostics);
  }

  @Override
  public void dispose() throws IOException {
    close();
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("index is closed");
    }
  }

  /** Closes the searcher, the directory and the parsers. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    writeLock.lock();
    try {
      closed = true;
      chunker.close();
      store.close();
    } finally {
      writeLock.unlock();
    }
    LOG.debug("closed index at {}", options.home());
  }
}
