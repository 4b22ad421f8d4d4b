package dev.prismindex.engine.internal.run;

import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.IndexProgress.Phase;
import dev.prismindex.engine.IndexProgressListener;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.pipeline.ChunkKeys;
import dev.prismindex.engine.internal.pipeline.Indexer;
import dev.prismindex.engine.internal.run.WriteRun.Outcome;
import dev.prismindex.engine.internal.run.WriteRun.RunContext;
import dev.prismindex.engine.internal.semantic.InlineVectors;
import dev.prismindex.engine.internal.semantic.VectorCatalog;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.LuceneSink;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.internal.walk.WalkResult;
import dev.prismindex.engine.spi.FileEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The three kinds of run, each a job for {@link WriteRun}: a refresh (walk the repository, or the
 * part of it a scope names, and bring every file there up to date), a seam update (exactly the
 * listed paths) and a seam removal.
 */
public final class IndexJobs extends Runs {

  private static final Logger LOG = LoggerFactory.getLogger(IndexJobs.class);

  private final EngineContext ctx;
  private final IndexStore store;
  private final WriteRun writes;

  public IndexJobs(EngineContext ctx, IndexStore store) {
    this.ctx = ctx;
    this.store = store;
    this.writes = new WriteRun(ctx, store, gate);
  }

  /** See {@code HybridIndex.refresh}. */
  @Override
  public IndexRunStats refresh(RefreshOptions refresh) throws IOException {
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(refresh.progress(), started);
    String damage = null;
    if (refresh.verify() || refresh.fullRebuild() || refresh.repair()) {
      try {
        store.verify(false);
      } catch (CorruptIndexException e) {
        if (!refresh.fullRebuild() && !refresh.repair()) {
          throw e;
        }
        LOG.warn("the index at {} is damaged; rebuilding it whole: {}", ctx.options().home(),
            e.getMessage());
        damage = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
      }
    }
    if (damage == null && !refresh.fullRebuild()) {
      store.checkUndamaged(); // known to be damaged: only a rebuild writes to it
    }
    boolean full = refresh.fullRebuild() || damage != null;
    return writes.write(progress, refresh.embed(), refresh.lexicalOnly(), null, damage, full,
        (writer, run) -> walkAndIndex(writer, run, refresh, full, progress, started));
  }

  private Outcome walkAndIndex(IndexWriter writer, RunContext run, RefreshOptions refresh,
      boolean full, RunProgress progress, long started) throws IOException {
    boolean scoped = !refresh.scope().isEmpty();
    progress.phase(Phase.WALKING);
    WalkResult walk = ctx.walker().walk(refresh.scope());
    Map<String, FileEntry> before = full ? Map.of()
        : scoped ? store.loadManifest(refresh.scope()) : store.loadManifest();
    // Content rules changed since the last run (or it predates them): re-read every file once.
    boolean verify = refresh.verify() || !before.isEmpty()
        && !ctx.rules().contentFingerprint().equals(store.commitData().get(Schema.META_RULES));
    boolean droppedVectors = false;
    if (full && !run.wiped()) {
      writer.deleteDocuments(new Term(Schema.TYPE, Schema.TYPE_FILE),
          new Term(Schema.TYPE, Schema.TYPE_CHUNK), new Term(Schema.TYPE, Schema.TYPE_SKIPPED));
      if (run.semanticBefore().state() == SemanticState.MODEL_MISMATCH) {
        writer.deleteDocuments(new Term(Schema.TYPE, Schema.TYPE_VECTOR));
        droppedVectors = true;
      }
    }
    Indexer indexer = newIndexer(writer, before, run, progress, !scoped);
    if (!full) {
      indexer.rememberSkipped(store.loadSkipped(scoped ? refresh.scope() : null));
    }
    progress.filesTotal(walk.files().size());
    progress.phase(Phase.INDEXING);
    indexer.countSkips(walk.skipped());
    // Scoped: the indexer's manifest is the part at or below the scope, so only entries there can
    // be deleted.
    indexer.runWalk(walk.files(), verify, ctx.options().threads());
    int seen = walk.files().size() + walk.skipped().values().stream().mapToInt(i -> i).sum();
    if (scoped) {
      return scopedOutcome(indexer, before, walk, seen, started, run.reuse(), run.inline());
    }
    String revision = walk.gitHead() != null ? walk.gitHead()
        : CommitMeta.manifestDigest(indexer.manifest());
    return new Outcome(indexer, revision, full, seen, started, droppedVectors,
        ctx.rules().contentFingerprint());
  }

  /**
   * The outcome of a scoped refresh, whose indexer saw only the manifest at or below the scope:
   * the index's file, chunk and covered-chunk counts are the last commit's plus the scope's change
   * (without them, from an old index, the commit counts by walking the index), and the revision
   * outside git (the digest of the whole manifest) is computed from the last commit's manifest
   * with the scope's part replaced, only when something changed. No rules fingerprint: the commit
   * keeps the skip counts and rules of the last whole walk.
   */
  private Outcome scopedOutcome(Indexer indexer, Map<String, FileEntry> before, WalkResult walk,
      int seen, long started, @Nullable Predicate<BytesRef> hasVector,
      @Nullable InlineVectors inline) throws IOException {
    Map<String, String> previous = store.commitData();
    Map<String, FileEntry> after = indexer.manifest();
    boolean changed = indexer.counters().wroteDocuments();
    long files;
    long chunks;
    if (previous.containsKey(Schema.META_FILES) && previous.containsKey(Schema.META_CHUNKS)) {
      files = CommitMeta.parseLong(previous.get(Schema.META_FILES)) - before.size() + after.size();
      chunks = CommitMeta.parseLong(previous.get(Schema.META_CHUNKS)) - CommitMeta.chunks(before)
          + CommitMeta.chunks(after);
    } else {
      Map<String, FileEntry> whole = wholeManifest(before, after);
      files = whole.size();
      chunks = CommitMeta.chunks(whole);
    }
    long embedded = -1;
    if (previous.containsKey(Schema.META_CHUNKS_EMBEDDED)) {
      embedded = 0;
      if (hasVector != null) { // the commit has vectors
        // Chunks of the replaced files that had a vector go; new chunks with one come.
        long gone = store.withSearcher(s -> VectorCatalog.coveredChunks(s.getIndexReader(),
            indexer.replacedPaths(), hasVector), 0L);
        embedded = Math.max(0, CommitMeta.parseLong(previous.get(Schema.META_CHUNKS_EMBEDDED))
            - gone + indexer.counters().chunksReused());
      }
      if (inline != null) {
        embedded += inline.chunksCovered(); // new chunks the static model gave a vector
      }
    }
    WriteRun.Totals totals = new WriteRun.Totals(files, chunks, embedded);
    String revision = walk.gitHead();
    if (revision == null) {
      String last = previous.get(Schema.META_REVISION);
      if (!changed && last != null) {
        revision = last;
      } else {
        revision = CommitMeta.manifestDigest(wholeManifest(before, after));
      }
    }
    return new Outcome(indexer, revision, false, seen, started, false, null, totals);
  }

  /** The last commit's manifest, its scope's entries {@code before} replaced by {@code after}. */
  private Map<String, FileEntry> wholeManifest(Map<String, FileEntry> before,
      Map<String, FileEntry> after) throws IOException {
    Map<String, FileEntry> whole = store.loadManifest();
    whole.keySet().removeAll(before.keySet());
    whole.putAll(after);
    return whole;
  }

  /**
   * Re-indexes exactly {@code upserts} (a vanished or now-skipped path is deleted), deletes
   * {@code deletes}, and records {@code revision}, in one commit; then embeds the new chunk texts
   * of those paths. Paths are checked and normalised by the caller.
   */
  @Override
  public void update(List<String> upserts, List<String> deletes, String revision)
      throws IOException {
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(IndexProgressListener.NONE, started);
    List<String> gone = new ArrayList<>(deletes);
    writes.write(progress, true, false, new LinkedHashSet<>(upserts), null, false,
        (writer, run) -> {
      Indexer indexer = newIndexer(writer, store.loadManifest(), run, progress, false);
      List<String> inside = insideRoot(ctx, upserts, gone);
      Set<String> named = new HashSet<>(inside);
      named.addAll(gone);
      indexer.rememberSkipped(store.loadSkipped(named));
      indexer.runPaths(inside, gone, ctx.options().threads());
      return new Outcome(indexer, revision, false, upserts.size(), started, false, null);
    });
  }

  /** Drops the paths (checked and normalised by the caller); commits only when one was removed. */
  @Override
  public void remove(List<String> paths) throws IOException {
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(IndexProgressListener.NONE, started);
    writes.write(progress, false, false, null, null, false, (writer, run) -> {
      Indexer indexer = newIndexer(writer, store.loadManifest(), run, progress, false);
      indexer.rememberSkipped(store.loadSkipped(new HashSet<>(paths)));
      indexer.runPaths(List.of(), paths, ctx.options().threads());
      String revision = store.commitData().get(Schema.META_REVISION);
      return new Outcome(indexer,
          revision == null ? CommitMeta.manifestDigest(indexer.manifest()) : revision,
          false, 0, started, false, null);
    });
  }

  /**
   * The paths of {@code upserts} whose real location is inside the root (and outside the index
   * home); the others are added to {@code deletes}.
   */
  static List<String> insideRoot(EngineContext ctx, List<String> upserts, List<String> deletes) {
    List<String> out = new ArrayList<>();
    Path root = ctx.options().root();
    Path realRoot;
    try {
      realRoot = root.toRealPath();
    } catch (IOException e) {
      return List.of();
    }
    for (String p : upserts) {
      Path file = FileNames.resolve(root, p);
      if (file == null) {
        continue; // a name this JVM cannot encode: no file it can read
      }
      Path parent = file.getParent();
      try {
        if (parent != null && parent.toRealPath().startsWith(realRoot)
            && !file.startsWith(ctx.options().home())) {
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

  private Indexer newIndexer(IndexWriter writer, Map<String, FileEntry> before, RunContext run,
      RunProgress progress, boolean wholeWalk) {
    Indexer indexer = new Indexer(ctx.options().root(), new LuceneSink(writer), ctx.chunker(),
        ctx.rules(), ctx.options().maxFileBytes(), ctx.options().clock(), before);
    indexer.keys(new ChunkKeys(run.chunkKeys(wholeWalk), run.rekey(wholeWalk), run.keyBytes(),
        run.reuse(), run.unembedded()));
    indexer.onFileDone(progress::fileDone);
    return indexer;
  }
}
