package dev.prismindex.engine.spi;

import java.util.Objects;
import org.apache.lucene.analysis.Analyzer;
import org.jspecify.annotations.Nullable;

/**
 * What a write is for.
 *
 * @param analyzer the kernel's analyzer of the ranked fields ({@link StoreFields}): a store that
 *     indexes text itself (a cluster) sends it pre-analyzed by this, so its BM25 sees the local
 *     index's terms, frequencies and lengths
 * @param analyzerVersion the analyzer's version, pinned in a new index ({@link
 *     CommitRecord#ANALYZER})
 * @param vectors the model of this process, for a store that embeds its chunks as it stores them;
 *     null when this process has none (semantic search off, or no model). A new index pins it
 *     ({@link CommitRecord#EMBEDDER_ID}); an index that pins another model, or none, is the
 *     kernel's to refuse or to write without vectors, never the store's to mix.
 */
public record WriteSpec(Analyzer analyzer, String analyzerVersion,
    @Nullable ChunkVectors vectors) {

  public WriteSpec {
    Objects.requireNonNull(analyzer, "analyzer");
    Objects.requireNonNull(analyzerVersion, "analyzerVersion");
  }
}
