package dev.prismindex.engine.internal.run;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.IndexProgress.Phase;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.pipeline.Indexer;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.internal.semantic.EmbeddingRun;
import dev.prismindex.engine.internal.semantic.InlineVectors;
import dev.prismindex.engine.internal.semantic.SemanticAvailability.Verdict;
import dev.prismindex.engine.internal.semantic.TextSpool;
import dev.prismindex.engine.internal.semantic.VectorCatalog;
import dev.prismindex.engine.internal.semantic.VectorKeys;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write transaction of every run (refresh, seam update, seam removal): open a writer, run the
 * job's lexical changes and commit them in one commit (with the coverage counts of that very
 * commit), then, when asked and possible, the embedding phase ({@link EmbedPhase}: embed the
 * missing chunk texts, prune the embedding cache), then close the writer (letting its merges
 * finish) or roll back what is not committed. Writes are serialised by a lock; the state the
 * seam's status reports (failed, running, verified) lives here.
 */
public final class WriteRun {

  private static final Logger LOG = LoggerFactory.getLogger(WriteRun.class);

  /**
   * The largest index a build from nothing (or a full rebuild) merges into one segment at its end.
   * The indexing threads each flush a segment of their own, and every segment repeats the terms the
   * others have: one segment is 5-8 % smaller for a small repository, and merging a few MB costs
   * a fraction of a second (about 0.1 s on gson). Larger builds keep Lucene's merge policy, where
   * merging everything would cost seconds for a few percent (the indexing run log, docs/runs/README.md).
   */
  static final long COMPACT_MAX_BYTES = 4L << 20;

  /**
   * What a write job did. {@code rules}: the file rules' content fingerprint every indexed file
   * was judged by when the job walked the whole repository (a refresh: its skip counts are
   * complete and replace {@link Schema#META_SKIPPED}), or null when the job judged only some files
   * (a seam update or removal, a scoped refresh: the commit keeps the previous rules and skip
   * counts). {@code totals}: see {@link Totals}.
   */
  record Outcome(Indexer indexer, String revision, boolean force, int filesSeen,
      long startedNanos, boolean droppedVectors, @Nullable String rules,
      @Nullable Totals totals) {

    Outcome(Indexer indexer, String revision, boolean force, int filesSeen, long startedNanos,
        boolean droppedVectors, @Nullable String rules) {
      this(indexer, revision, force, filesSeen, startedNanos, droppedVectors, rules, null);
    }

    boolean walked() {
      return rules != null;
    }
  }

  /**
   * The counts of the index after a job whose indexer saw only part of the manifest (a scoped
   * refresh), computed from the last commit's counts and the job's changes, so its commit needs
   * no walk of the index; a job that loaded the whole manifest has none (the counts are its
   * manifest's and {@link VectorCatalog#stats}).
   *
   * @param chunksEmbedded chunks whose text has a vector (the vectors themselves do not change:
   *     a lexical job adds or deletes none); negative when unknown (an index from before the
   *     count was recorded: the commit counts by walking the index)
   */
  record Totals(long files, long chunks, long chunksEmbedded) {}

  /**
   * What a write job sees of the run: the semantic availability before it, the embedding-cache
   * lookup for counting reused chunks (null when there are no vectors; set even when semantic
   * search is unavailable, so a scoped job can count the chunks it covers), the spool keeping the
   * texts to embed (null when the run will not embed), whether every segment was dropped
   * before the job (a damaged index being rebuilt), whether the index had no chunks before the
   * run (no commit, or wiped), whether its chunks carry no vector keys ({@link
   * Schema#META_CHUNK_KEYS}), the length of its keys ({@link Schema#chunkKeyBytes}), whether the
   * run wants keys (semantic search on with a model, and the run not {@link
   * RefreshOptions#withLexicalOnly()}), whether it embeds (asked to, with semantic search on), and
   * the static model's embedding of the keyed chunks as they are written ({@link InlineVectors}:
   * null unless the model is {@link Embedder.Kind#STATIC}, the run writes keys, and the index's
   * vectors are the model's or go in this run).
   */
  record RunContext(Verdict semanticBefore, @Nullable Predicate<BytesRef> reuse,
      @Nullable TextSpool spool, boolean wiped, boolean empty, boolean keyless, int keyBytes,
      boolean wantsKeys, boolean embeds, @Nullable InlineVectors inline) {

    /**
     * Where the texts of the keyed chunks without a vector go: to the static model ({@link
     * #inline}), else to the spool of the embedding phase, else nowhere.
     */
    @Nullable BiConsumer<BytesRef, String> unembedded() {
      InlineVectors i = inline;
      if (i != null) {
        return i::add;
      }
      TextSpool s = spool;
      return s == null ? null : s::offer;
    }

    /**
     * Whether the job writes chunk keys: always into a keyed index; into an empty one when the
     * run wants them (a run that embeds later, like a watch's, needs them); into a lexical-only
     * one only from a whole walk that embeds, which {@link #rekey}s (a search's refresh, which
     * does not embed, never rewrites the whole index). So an index is either keyed or
     * lexical-only, never a mix.
     */
    boolean chunkKeys(boolean wholeWalk) {
      return empty ? wantsKeys : !keyless || embeds && wholeWalk;
    }

    /** Whether the job rewrites every file with keys: a lexical-only index getting vectors. */
    boolean rekey(boolean wholeWalk) {
      return !empty && keyless && embeds && wholeWalk;
    }
  }

  /** The lexical part of a run. */
  @FunctionalInterface
  interface WriteJob {
    Outcome run(IndexWriter writer, RunContext run) throws IOException;
  }

  /** The lexical commit's result: whether it committed, when, and the vector counts then. */
  private record Lexical(RunContext run, Outcome outcome, boolean commit, long now,
      VectorCatalog.@Nullable Stats stats) {}

  private final EngineContext ctx;
  private final IndexStore store;
  private final EmbedPhase embedPhase;
  private final RunGate gate;

  /** Writes through {@code gate}, the gate of the runs this serves (whose state status reports). */
  WriteRun(EngineContext ctx, IndexStore store, RunGate gate) {
    this.ctx = ctx;
    this.store = store;
    this.gate = gate;
    this.embedPhase = new EmbedPhase(ctx, store);
  }

  /**
   * Runs a write: the job's lexical changes in one commit (with {@code lexicalOnly}, for an index
   * meant to stay lexical-only: {@link RefreshOptions#withLexicalOnly()}), then, when {@code embed}
   * and possible,
   * the embedding of the missing chunk texts (of {@code embedPaths} only, when non-null), then
   * pruning of the embedding cache. With a {@code damage} (what a verification found), every
   * segment is dropped unread before the job (a damaged index), and the stats say why. Damage
   * found on the way is raised as {@link CorruptIndexException}.
   */
  IndexRunStats write(RunProgress progress, boolean embed, boolean lexicalOnly,
      @Nullable Set<String> embedPaths, @Nullable String damage, boolean full, WriteJob job)
      throws IOException {
    return gate.write(() -> {
      try {
        IndexWriter writer = store.openWriter(ctx.analyzer());
        try {
          return run(writer, progress, embed, lexicalOnly, embedPaths, damage, full, job);
        } finally {
          if (writer.isOpen()) {
            rollback(writer);
          }
        }
      } catch (IOException | RuntimeException e) {
        CorruptIndexException c = store.corruption(e);
        if (c != null) {
          throw c;
        }
        throw e;
      }
    });
  }

  private IndexRunStats run(IndexWriter writer, RunProgress progress, boolean embed,
      boolean lexicalOnly, @Nullable Set<String> embedPaths, @Nullable String damage,
      boolean full, WriteJob job) throws IOException {
    boolean wipe = damage != null;
    Map<String, String> previous = store.commitData();
    Verdict before = ctx.semantic().check(previous);
    Lexical lex;
    try {
      lex = lexicalCommit(writer, progress, previous, before, embed, lexicalOnly, wipe, full,
          job);
    } catch (IOException | RuntimeException | Error e) {
      gate.failed(true);
      throw e;
    }
    gate.succeeded(lex.now());
    InlineVectors inline = lex.run().inline();
    if (inline != null && inline.failure() != null) {
      if (lex.commit()) {
        closeWriter(writer, false);
      }
      throw inline.failure();
    }
    EmbeddingRun.Result embedded = new EmbeddingRun.Result(0, 0, 0);
    boolean committedVectors = false;
    Embedder model = ctx.semantic().embedder();
    if (embed && model != null) {
      Map<String, String> data = store.commitData();
      if (ctx.semantic().check(data).available()) {
        // A static model embedded the run's chunks with them: the phase only completes an index
        // left partly embedded (by a run without keys, say), which the commit's counts tell.
        if (inline == null || CommitMeta.parseLong(data.get(Schema.META_CHUNKS_EMBEDDED))
            < CommitMeta.parseLong(data.get(Schema.META_CHUNKS))) {
          progress.phase(Phase.EMBEDDING);
          embedded = embedPhase.embed(writer, model, data, embedPaths, progress,
              lex.run().spool());
          committedVectors = embedded.textsEmbedded() > 0;
        }
        if (embedPaths == null && lex.stats() != null) {
          committedVectors |= embedPhase.prune(writer, lex.stats(), embedded.textsEmbedded());
        }
      }
    }
    if (lex.commit() || committedVectors) {
      closeWriter(writer, lex.run().empty() || lex.outcome().force());
    }
    progress.phase(Phase.DONE);
    Indexer.Counters c = lex.outcome().indexer().counters();
    Outcome o = lex.outcome();
    long inlineTexts = inline == null ? 0 : inline.textsEmbedded();
    return new IndexRunStats(o.filesSeen(), c.hashed(), c.added(), c.changed(), c.deleted(),
        c.unchanged(), c.skipped(), c.chunksWritten(), embedded.textsEmbedded() + inlineTexts,
        before.available() ? c.chunksReused() : 0, lex.commit() || committedVectors,
        lex.commit() ? o.revision() : previous.get(Schema.META_REVISION),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - o.startedNanos()), damage);
  }

  /**
   * Whether a chunk text already has a vector, by its key, in the commit {@code reader} reads: the
   * live keys are read the first time a chunk asks (a run that changes no file reads none), once,
   * for every indexing thread.
   */
  private static Predicate<BytesRef> vectorKeys(IndexReader reader) {
    return new Predicate<>() {
      private volatile @Nullable VectorKeys keys;

      @Override
      public boolean test(BytesRef key) {
        VectorKeys k = keys;
        if (k == null) {
          synchronized (this) {
            k = keys;
            if (k == null) {
              try {
                keys = k = VectorKeys.live(reader);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          }
        }
        return k.contains(key);
      }
    };
  }

  /** Runs the job and commits its lexical changes when there are any (or the commit is forced). */
  private Lexical lexicalCommit(IndexWriter writer, RunProgress progress,
      Map<String, String> previous, Verdict before, boolean embed, boolean lexicalOnly,
      boolean wipe, boolean full, WriteJob job) throws IOException {
    try (IndexStore.Lease lease = store.lease()) {
      Predicate<BytesRef> reuse = null;
      IndexSearcher pre = lease.searcher();
      if (wipe) {
        writer.deleteAll();
      } else if (pre != null && CommitMeta.parseLong(previous.get(Schema.META_VECTORS)) > 0) {
        reuse = vectorKeys(pre.getIndexReader());
      }
      Embedder model = ctx.semantic().embedder();
      boolean semanticOn = model != null;
      InlineVectors inline = null;
      // A static model embeds as the chunks are written, into an index whose vectors are its own
      // (or none), or whose vectors of another model this run drops (a full rebuild, a wipe).
      if (model != null && !lexicalOnly && model.kind() == Embedder.Kind.STATIC
          && (before.available() || wipe
              || full && before.state() == SemanticState.MODEL_MISMATCH)) {
        VectorCode code = pre == null || wipe ? VectorCode.PACKED
            : VectorCode.of(pre.getIndexReader(), model.dimension());
        inline = new InlineVectors(model, writer, code, ctx.options().clock());
        if (!before.available()) {
          reuse = null; // the index's vectors are another model's: none is this model's
        }
      }
      TextSpool spool = embed && before.available() && inline == null
          ? new TextSpool(TextSpool.DEFAULT_BUDGET_CHARS) : null;
      boolean empty = wipe || !store.hasCommit();
      boolean keyless = "false".equals(previous.get(Schema.META_CHUNK_KEYS));
      RunContext run = new RunContext(before, reuse, spool, wipe, empty, keyless,
          empty ? Schema.CHUNK_KEY_BYTES : Schema.chunkKeyBytes(previous),
          semanticOn && !lexicalOnly, embed && semanticOn, inline);
      Outcome outcome = job.run(writer, run);
      Indexer.Counters c = outcome.indexer().counters();
      String skipped = outcome.walked() ? CommitMeta.skippedMeta(c.skipped())
          : previous.getOrDefault(Schema.META_SKIPPED, "");
      boolean commit = outcome.force() || c.wroteDocuments() || !store.hasCommit()
          || !outcome.revision().equals(previous.get(Schema.META_REVISION))
          || (outcome.walked() && !skipped.equals(previous.get(Schema.META_SKIPPED)))
          || outcome.walked() && !outcome.rules().equals(previous.get(Schema.META_RULES));
      long now = ctx.options().clock().millis();
      VectorCatalog.Stats stats = null;
      if (commit) {
        progress.phase(Phase.COMMITTING);
        stats = commit(writer, outcome, now, previous, skipped, wipe, inline);
      }
      return new Lexical(run, outcome, commit, now, stats);
    }
  }

  /**
   * Commits the lexical changes with their metadata; returns the vector counts of the commit, or
   * null for a job with {@link Totals} (its counts come from the last commit and its changes: no
   * walk of the index, so the run prunes no vectors).
   */
  private VectorCatalog.@Nullable Stats commit(IndexWriter writer, Outcome outcome, long now,
      Map<String, String> previous, String skipped, boolean wipe,
      @Nullable InlineVectors inline) throws IOException {
    VectorCatalog.Stats stats = null;
    Map<String, String> meta;
    Totals totals = outcome.totals();
    Embedder added = inline != null && inline.textsEmbedded() > 0 ? inline.model() : null;
    if (totals != null && totals.chunksEmbedded() >= 0) {
      long vectors = CommitMeta.parseLong(previous.get(Schema.META_VECTORS))
          + (inline == null ? 0 : inline.textsEmbedded());
      meta = RunMetadata.of(outcome, now, vectors, totals.chunksEmbedded(), previous, added);
    } else {
      try (DirectoryReader nrt = DirectoryReader.open(writer)) {
        stats = VectorCatalog.stats(nrt);
      }
      meta = RunMetadata.of(outcome, now, stats.vectors(), stats.chunksEmbedded(), previous,
          added);
    }
    meta.put(Schema.META_SKIPPED, skipped);
    writer.setLiveCommitData(meta.entrySet(), true);
    writer.commit();
    store.refreshSearcher();
    if (wipe) {
      store.repaired();
    }
    return stats;
  }

  /**
   * Lets the merges this run started finish and commits them (same metadata: merges change no
   * counts); closing by rollback would abort them and leave the segments to pile up. A small index
   * whose every lexical document the run wrote ({@code built}: no commit before, wiped, or a full
   * rebuild) is first merged into one segment ({@link #COMPACT_MAX_BYTES}).
   */
  private void closeWriter(IndexWriter writer, boolean built) {
    try {
      if (built && store.withSearcher(s -> s.getIndexReader().leaves().size(), 0) > 1
          && store.sizeOnDisk() <= COMPACT_MAX_BYTES) {
        writer.forceMerge(1);
      }
      writer.close();
      store.refreshSearcher();
    } catch (IOException | RuntimeException e) {
      LOG.warn("merging after the run failed; the index stays as committed: {}", e.toString());
    }
  }

  /**
   * Nothing to keep, or a failure: discards what is not committed. With the interrupt flag cleared
   * meanwhile: Lucene's file channels close on interrupts.
   */
  private static void rollback(IndexWriter writer) {
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
