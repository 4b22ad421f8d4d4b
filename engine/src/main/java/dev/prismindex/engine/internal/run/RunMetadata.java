package dev.prismindex.engine.internal.run;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.semantic.VectorCatalog;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Schema;
import java.util.HashMap;
import java.util.Map;

/** The metadata a run's lexical commit records (versions, counts, revision, time, rules). */
final class RunMetadata {

  private RunMetadata() {}

  static Map<String, String> of(WriteRun.Outcome outcome, long now, VectorCatalog.Stats stats,
      Map<String, String> previous) {
    long files;
    long chunks = 0;
    if (outcome.totals() != null) {
      files = outcome.totals().files();
      chunks = outcome.totals().chunks();
    } else {
      Map<String, FileEntry> manifest = outcome.indexer().manifest();
      files = manifest.size();
      for (FileEntry e : manifest.values()) {
        chunks += e.chunks();
      }
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
    data.put(Schema.META_FILES, Long.toString(files));
    data.put(Schema.META_CHUNKS, Long.toString(chunks));
    data.put(Schema.META_CHUNKS_EMBEDDED, Long.toString(Math.min(chunks, stats.chunksEmbedded())));
    data.put(Schema.META_VECTORS, Long.toString(stats.vectors()));
    String rules = outcome.rules() != null ? outcome.rules() : previous.get(Schema.META_RULES);
    if (rules != null) {
      data.put(Schema.META_RULES, rules);
    }
    return data;
  }
}
