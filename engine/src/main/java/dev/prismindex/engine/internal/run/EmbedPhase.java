package dev.prismindex.engine.internal.run;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.internal.semantic.EmbeddingRun;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.semantic.TextSpool;
import dev.prismindex.engine.internal.semantic.VectorCatalog;
import dev.prismindex.engine.internal.semantic.VectorKeys;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Manifests;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedding phase of a run, after its lexical commit: embeds the chunk texts that have no
 * vector yet (every commit carries exact coverage and vector counts), then prunes the embedding
 * cache when it outgrows the index.
 */
public final class EmbedPhase {

  private static final Logger LOG = LoggerFactory.getLogger(EmbedPhase.class);
  /** Orphaned vectors are pruned only when they exceed the referenced ones by more than this. */
  public static final int PRUNE_SLACK = 1000;

  private final EngineContext ctx;
  private final IndexStore store;

  EmbedPhase(EngineContext ctx, IndexStore store) {
    this.ctx = ctx;
    this.store = store;
  }

  /** Embeds the missing chunk texts (of {@code onlyPaths}, when non-null). */
  EmbeddingRun.Result embed(IndexWriter writer, Embedder model, Map<String, String> base,
      @Nullable Set<String> onlyPaths, RunProgress progress, @Nullable TextSpool spool)
      throws IOException {
    HybridIndexOptions options = ctx.options();
    Map<String, Map<BytesRef, Integer>> backlog = store.withSearcher(
        s -> VectorCatalog.missing(s.getIndexReader(), onlyPaths), Map.of());
    long baseEmbedded = CommitMeta.parseLong(base.get(Schema.META_CHUNKS_EMBEDDED));
    long baseVectors = CommitMeta.parseLong(base.get(Schema.META_VECTORS));
    long[] committed = {0};
    VectorCode code = store.withSearcher(
        s -> VectorCode.of(s.getIndexReader(), model.dimension()), VectorCode.PACKED);
    EmbeddingRun run = new EmbeddingRun(options.root(), options.maxFileBytes(), writer,
        ctx.chunker(), model, Schema.chunkKeyBytes(base), code, options.embeddingThreads(),
        options.embeddingCommitInterval(), options.clock());
    try {
      return run.run(backlog, path -> store.withSearcher(s -> Manifests.lookup(s, path), null),
          (texts, covered) -> {
            if (texts == committed[0]) {
              return;
            }
            Map<String, String> data = new HashMap<>(base);
            RunMetadata.model(data, model);
            data.put(Schema.META_CHUNKS_EMBEDDED, Long.toString(baseEmbedded + covered));
            data.put(Schema.META_VECTORS, Long.toString(baseVectors + texts));
            writer.setLiveCommitData(data.entrySet(), true);
            writer.commit();
            store.refreshSearcher();
            committed[0] = texts;
          },
          progress::embedded, spool);
    } catch (EmbeddingException e) {
      throw SemanticAvailability.modelFailed(e);
    }
  }

  /**
   * Prunes the embedding cache: when the vectors no chunk uses outnumber the used ones by more than
   * {@value #PRUNE_SLACK}, the oldest unused ones are deleted until they are at most half the used
   * ones. Returns whether it committed.
   */
  boolean prune(IndexWriter writer, VectorCatalog.Stats stats, long embedded) throws IOException {
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
    List<BytesRef> keys = new ArrayList<>(remove);
    for (int i = 0; i < remove; i++) {
      keys.add(orphans.get(i).hash());
    }
    writer.deleteDocuments(VectorKeys.matching(keys));
    Map<String, String> data = new HashMap<>(store.commitData());
    data.put(Schema.META_VECTORS,
        Long.toString(Math.max(0, CommitMeta.parseLong(data.get(Schema.META_VECTORS)) - remove)));
    writer.setLiveCommitData(data.entrySet(), true);
    writer.commit();
    store.refreshSearcher();
    LOG.debug("pruned {} unused vectors from the embedding cache", remove);
    return true;
  }
}
