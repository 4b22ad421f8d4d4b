package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.PluggedStore;
import dev.prismindex.engine.internal.StoreAccess;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.query.QueryPlanner;
import dev.prismindex.engine.internal.run.IndexJobs;
import dev.prismindex.engine.internal.run.Runs;
import dev.prismindex.engine.internal.run.StalenessProbe;
import dev.prismindex.engine.internal.run.StoreRun;
import dev.prismindex.engine.internal.seam.SeamAdapter;
import dev.prismindex.engine.internal.semantic.ModelChoice;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.semantic.SemanticAvailability.Verdict;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The parts of one open {@link HybridIndex}, and the one place they are assembled from a store
 * (the local Lucene index, or a plugged store of the SPI); the facade delegates to them.
 *
 * @param ctx what the parts share: the options, the store, the model, the analyzer, the chunker
 * @param runs the write side: refreshes, seam updates and removals, one at a time
 * @param probe the staleness probe
 * @param planner the read side: every search
 * @param seam the seam's requests turned into runs and searches
 * @param local the local Lucene store, or null for a plugged one
 */
record IndexParts(EngineContext ctx, Runs runs, StalenessProbe probe, QueryPlanner planner,
    SeamAdapter seam, @Nullable IndexStore local) {

  /**
   * The parts of the local index in {@code options.home()}: {@link
   * HybridIndex#open(HybridIndexOptions)}.
   */
  static IndexParts local(HybridIndexOptions options) throws IOException {
    requireRoot(options);
    IndexStore store = IndexStore.open(options.home());
    EngineContext ctx;
    try {
      ctx = context(options, store, store.record());
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    return of(ctx, new IndexJobs(ctx, store), store);
  }

  /**
   * The parts of the index {@code store} keeps: {@link HybridIndex#open(HybridIndexOptions,
   * Store)}.
   */
  static IndexParts plugged(HybridIndexOptions options, Store store) throws IOException {
    try {
      requireRoot(options);
      CommitRecord record = store.record();
      String analyzer = record == null ? null : record.get(CommitRecord.ANALYZER);
      if (analyzer != null && !analyzer.equals(CodeAnalyzer.VERSION)) {
        throw new IncompatibleIndexException("analyzer of " + store.describe(), analyzer,
            CodeAnalyzer.VERSION);
      }
      EngineContext ctx = context(options, new PluggedStore(store), record);
      return of(ctx, new StoreRun(ctx, store), null);
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }

  private static void requireRoot(HybridIndexOptions options) throws NoSuchFileException {
    if (!Files.isDirectory(options.root())) {
      throw new NoSuchFileException(options.root().toString(), null,
          "repository root is not a directory");
    }
  }

  private static IndexParts of(EngineContext ctx, Runs runs, @Nullable IndexStore local) {
    StalenessProbe probe = new StalenessProbe(ctx);
    QueryPlanner planner = new QueryPlanner(ctx);
    return new IndexParts(ctx, runs, probe, planner, new SeamAdapter(ctx, runs, planner), local);
  }

  /**
   * The parts an index over {@code store} shares; the model is found here, unless off: the one
   * the options name, else the index's own (the one {@code record} names) when this process has
   * it, else the class path's default (see {@link HybridIndexOptions#embedder()}).
   */
  private static EngineContext context(HybridIndexOptions options, StoreAccess store,
      @Nullable CommitRecord record) {
    Embedder embedder = null;
    if (options.semantic()) {
      embedder = options.embedder() != null ? options.embedder() : ModelChoice.forIndex(record);
    }
    return new EngineContext(options, store,
        new SemanticAvailability(options.semantic(), embedder), new CodeAnalyzer(), new Chunker(),
        FileRules.of(options));
  }

  /** {@link HybridIndex#engineStatus()}: what the last commit records, and the model's verdict. */
  EngineStatus engineStatus() throws IOException {
    StoreAccess store = ctx.store();
    CommitRecord record = store.record();
    Map<String, String> data = record == null ? Map.of() : record.values();
    String updated = data.get(Schema.META_UPDATED_AT);
    String dim = data.getOrDefault(Schema.META_EMBEDDER_DIM, "");
    String embedderId = data.getOrDefault(Schema.META_EMBEDDER_ID, "");
    Verdict s = ctx.semantic().check(data);
    return new EngineStatus(ctx.options().home(), record != null,
        CommitMeta.parseLong(data.get(Schema.META_FILES)),
        CommitMeta.parseLong(data.get(Schema.META_CHUNKS)), data.get(Schema.META_REVISION),
        updated == null ? null : Instant.ofEpochMilli(Long.parseLong(updated)),
        store.health().sizeBytes(), data.get(Schema.META_FORMAT), data.get(Schema.META_ANALYZER),
        embedderId.isEmpty() ? null : embedderId, dim.isEmpty() ? 0 : Integer.parseInt(dim),
        CommitMeta.parseLong(data.get(Schema.META_CHUNKS_EMBEDDED)),
        CommitMeta.parseLong(data.get(Schema.META_VECTORS)), s.state(), s.message(),
        ModelChoice.tiers(data, ctx.semantic().embedder(), s.state()));
  }

  /** Throws {@link IllegalStateException} once the index is closed. */
  void ensureOpen() {
    if (runs.closed()) {
      throw new IllegalStateException("index is closed");
    }
  }
}
