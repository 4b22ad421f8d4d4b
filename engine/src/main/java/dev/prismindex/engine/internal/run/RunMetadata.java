package dev.prismindex.engine.internal.run;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.embed.Embedder;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The metadata a run's lexical commit records (versions, counts, revision, time, rules). */
final class RunMetadata {

  private RunMetadata() {}

  /**
   * @param vectors the vectors in the index after the commit
   * @param chunksEmbedded the chunks whose text has a vector after the commit
   * @param added the model whose vectors the commit adds with the lexical documents (a static
   *     model's), or null when it adds none
   */
  static Map<String, String> of(WriteRun.Outcome outcome, long now, long vectors,
      long chunksEmbedded, Map<String, String> previous, @Nullable Embedder added) {
    long files;
    long chunks;
    if (outcome.totals() != null) {
      files = outcome.totals().files();
      chunks = outcome.totals().chunks();
    } else {
      Map<String, FileEntry> manifest = outcome.indexer().manifest();
      files = manifest.size();
      chunks = CommitMeta.chunks(manifest);
    }
    boolean keepModel = vectors > 0 && !outcome.droppedVectors();
    Map<String, String> data = new HashMap<>();
    data.put(Schema.META_FORMAT, Schema.FORMAT_VERSION);
    data.put(Schema.META_CHUNK_KEYS, Boolean.toString(outcome.indexer().writesChunkKeys()));
    data.put(Schema.META_CHUNK_KEY_BYTES, Integer.toString(outcome.indexer().chunkKeyBytes()));
    data.put(Schema.META_ANALYZER, CodeAnalyzer.VERSION);
    if (added != null) {
      model(data, added);
    } else {
      data.put(Schema.META_EMBEDDER_ID,
          keepModel ? previous.getOrDefault(Schema.META_EMBEDDER_ID, "") : "");
      data.put(Schema.META_EMBEDDER_DIM,
          keepModel ? previous.getOrDefault(Schema.META_EMBEDDER_DIM, "") : "");
      String kind = previous.get(Schema.META_EMBEDDER_KIND);
      if (keepModel && kind != null) {
        data.put(Schema.META_EMBEDDER_KIND, kind);
      }
    }
    data.put(Schema.META_REVISION, outcome.revision());
    data.put(Schema.META_UPDATED_AT, Long.toString(now));
    data.put(Schema.META_FILES, Long.toString(files));
    data.put(Schema.META_CHUNKS, Long.toString(chunks));
    data.put(Schema.META_CHUNKS_EMBEDDED, Long.toString(Math.min(chunks, chunksEmbedded)));
    data.put(Schema.META_VECTORS, Long.toString(vectors));
    String rules = outcome.rules() != null ? outcome.rules() : previous.get(Schema.META_RULES);
    if (rules != null) {
      data.put(Schema.META_RULES, rules);
    }
    return data;
  }

  /** Records {@code model} as the model of the index's vectors. */
  static void model(Map<String, String> data, Embedder model) {
    data.put(Schema.META_EMBEDDER_ID, model.id());
    data.put(Schema.META_EMBEDDER_DIM, Integer.toString(model.dimension()));
    data.put(Schema.META_EMBEDDER_KIND, model.kind().name().toLowerCase(Locale.ROOT));
  }
}
