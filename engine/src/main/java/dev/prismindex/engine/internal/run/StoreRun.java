package dev.prismindex.engine.internal.run;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.IndexProgress.Phase;
import dev.prismindex.engine.IndexProgressListener;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.pipeline.ChunkKeys;
import dev.prismindex.engine.internal.pipeline.Indexer;
import dev.prismindex.engine.internal.semantic.ModelVectors;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.walk.WalkResult;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.Store;
import dev.prismindex.engine.spi.StoreWrite;
import dev.prismindex.engine.spi.WriteSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runs of an index over a plugged store ({@link Store}): each a {@link StoreWrite} that the
 * kernel's pipeline ({@link Indexer}) fills and commits with the run's record. A write the store
 * reports as resumed (one before it never committed) re-reads every file of the whole repository
 * and lets the store reconcile its documents with the manifest. Runs are serialised.
 *
 * <p>The record the kernel commits: the revision (the request's, else git's HEAD, else the
 * manifest's digest), the time, the file and chunk counts, the skip counts of the last whole walk
 * and its rules' fingerprint.
 */
public final class StoreRun extends Runs {

  private static final Logger LOG = LoggerFactory.getLogger(StoreRun.class);

  /** What a run's job did beyond the indexer's counters. */
  private record Walked(int filesSeen, boolean whole, @Nullable String gitHead) {}

  /** The job of a run: the indexer's work, given whether the write resumed and the scope. */
  @FunctionalInterface
  private interface Job {
    Walked run(Indexer indexer, boolean resumed, @Nullable Set<String> scope) throws IOException;
  }

  private final EngineContext ctx;
  private final Store store;

  public StoreRun(EngineContext ctx, Store store) {
    this.ctx = ctx;
    this.store = store;
  }

  /**
   * A full rebuild drops the store's index first; a scope walks only its paths (the whole
   * repository when the write resumes an interrupted one); {@code verify} re-reads every file.
   */
  @Override
  public IndexRunStats refresh(RefreshOptions refresh) throws IOException {
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(refresh.progress(), started);
    Set<String> scope = refresh.scope().isEmpty() ? null : refresh.scope();
    return gate.write(() -> {
      if (refresh.fullRebuild()) {
        store.drop();
      }
      return run(progress, started, scope, null, (indexer, resumed, sc) -> {
        progress.phase(Phase.WALKING);
        WalkResult walk = ctx.walker().walk(sc == null ? Set.of() : sc);
        progress.filesTotal(walk.files().size());
        progress.phase(Phase.INDEXING);
        indexer.countSkips(walk.skipped());
        indexer.runWalk(walk.files(), resumed || refresh.verify(), ctx.options().threads());
        int seen = walk.files().size() + walk.skipped().values().stream().mapToInt(i -> i).sum();
        return new Walked(seen, sc == null, walk.gitHead());
      });
    });
  }

  @Override
  public void update(List<String> upserts, List<String> deletes, String revision)
      throws IOException {
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(IndexProgressListener.NONE, started);
    gate.write(() -> run(progress, started, null, revision, (indexer, resumed, sc) -> {
      List<String> gone = new ArrayList<>(deletes);
      List<String> inside = IndexJobs.insideRoot(ctx, upserts, gone);
      indexer.runPaths(inside, gone, ctx.options().threads());
      return new Walked(upserts.size(), false, null);
    }));
  }

  @Override
  public void remove(List<String> paths) throws IOException {
    long started = System.nanoTime();
    RunProgress progress = new RunProgress(IndexProgressListener.NONE, started);
    gate.write(() -> run(progress, started, null, null, (indexer, resumed, sc) -> {
      indexer.runPaths(List.of(), paths, 1);
      return new Walked(0, false, null);
    }));
  }

  /**
   * One write: begin (the store creates its index when missing), check the model the index pins,
   * run the job over the manifest of {@code scope} (all of it when null or when the write resumes
   * an interrupted one), commit the record.
   *
   * @param revision the revision to record (a seam update's), or null for the run's own
   */
  private IndexRunStats run(RunProgress progress, long started, @Nullable Set<String> scope,
      @Nullable String revision, Job job) throws IOException {
    try {
      Embedder model = ctx.semantic().embedder();
      ModelVectors vectors = model == null ? null : new ModelVectors(model);
      try (StoreWrite write = store.beginWrite(new WriteSpec(ctx.analyzer(), CodeAnalyzer.VERSION,
          vectors))) {
        CommitRecord previous = store.record();
        Map<String, String> prev = previous == null ? Map.of() : previous.values();
        checkModel(prev);
        boolean resumed = write.resumed();
        Set<String> sc = resumed ? null : scope;
        Map<String, FileEntry> before = store.files(sc);
        Indexer indexer = new Indexer(ctx.options().root(), write.documents(), ctx.chunker(),
            ctx.rules(), ctx.options().maxFileBytes(), ctx.options().clock(), before);
        indexer.keys(ChunkKeys.always());
        indexer.onFileDone(progress::fileDone);
        indexer.rememberSkipped(store.skipped(sc));
        Walked walked = job.run(indexer, resumed, sc);
        Map<String, FileEntry> after = indexer.manifest();
        Indexer.Counters c = indexer.counters();
        long now = ctx.options().clock().millis();
        Map<String, String> record = record(prev, before, after, sc == null, walked, revision,
            c, now);
        progress.phase(Phase.COMMITTING);
        write.commit(new CommitRecord(record), sc == null ? after : null);
        gate.succeeded(now);
        progress.phase(Phase.DONE);
        LOG.debug("{} updated: {}", store.describe(), c);
        return new IndexRunStats(walked.filesSeen(), c.hashed(), c.added(), c.changed(),
            c.deleted(), c.unchanged(), c.skipped(), c.chunksWritten(),
            vectors == null ? 0 : vectors.embedded(), 0, true, record.get(CommitRecord.REVISION),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), null);
      }
    } catch (IOException | RuntimeException e) {
      gate.failed(true);
      throw e;
    }
  }

  /**
   * Refuses to write into an index whose vectors come from a model this process does not have
   * (an index without vectors is written without them).
   */
  private void checkModel(Map<String, String> record) throws IncompatibleIndexException {
    String id = record.getOrDefault(CommitRecord.EMBEDDER_ID, "");
    if (id.isEmpty()) {
      return;
    }
    Embedder model = ctx.semantic().embedder();
    if (model == null || !ctx.semantic().check(record).available()) {
      throw new IncompatibleIndexException("embedding model", id + " (dim "
          + record.get(CommitRecord.EMBEDDER_DIM) + ") pinned by " + store.describe(),
          (model == null ? "none in this process; enable the model or"
              : model.id() + " (dim " + model.dimension() + ");")
              + " rebuild the index (full refresh)");
    }
  }

  /**
   * The record of a run: the previous one's values, with the revision, time and counts of this
   * run, and the skip counts and rules of a whole walk.
   *
   * @param whole whether {@code before} and {@code after} are the whole manifest
   */
  private Map<String, String> record(Map<String, String> prev, Map<String, FileEntry> before,
      Map<String, FileEntry> after, boolean whole, Walked walked, @Nullable String revision,
      Indexer.Counters c, long now) throws IOException {
    long files;
    long chunks;
    if (whole) {
      files = after.size();
      chunks = CommitMeta.chunks(after);
    } else {
      files = CommitMeta.parseLong(prev.get(CommitRecord.FILES)) - before.size() + after.size();
      chunks = CommitMeta.parseLong(prev.get(CommitRecord.CHUNKS)) - CommitMeta.chunks(before)
          + CommitMeta.chunks(after);
    }
    String rev = revision;
    if (rev == null) {
      rev = walked.gitHead();
    }
    if (rev == null) {
      String last = prev.get(CommitRecord.REVISION);
      if (!c.wroteDocuments() && last != null) {
        rev = last;
      } else {
        Map<String, FileEntry> manifest = after;
        if (!whole) {
          manifest = new HashMap<>(store.files(null));
          manifest.keySet().removeAll(before.keySet());
          manifest.putAll(after);
        }
        rev = CommitMeta.manifestDigest(manifest);
      }
    }
    Map<String, String> out = new HashMap<>(prev);
    out.put(CommitRecord.REVISION, rev);
    out.put(CommitRecord.UPDATED_AT, Long.toString(now));
    out.put(CommitRecord.FILES, Long.toString(files));
    out.put(CommitRecord.CHUNKS, Long.toString(chunks));
    if (walked.whole()) {
      out.put(CommitRecord.SKIPPED, CommitMeta.skippedMeta(c.skipped()));
      out.put(CommitRecord.RULES, ctx.rules().contentFingerprint());
    }
    return out;
  }
}
