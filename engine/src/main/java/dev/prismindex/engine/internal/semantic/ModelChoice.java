package dev.prismindex.engine.internal.semantic;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.SemanticTier;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.spi.CommitRecord;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which embedding model an index is opened with when its options name none, and the tiers its
 * status reports. The index's own model (the one its commit records) when this process has it, so
 * an index built with {@code --model minilm} stays a MiniLM index without the option being
 * repeated; else the class path's default ({@link EmbedderProvider#findDefault()}: the static code
 * model when it is there). Creating an embedder loads nothing: a model loads on its first use, so
 * a process whose index is the static model's never loads a transformer's runtime.
 */
public final class ModelChoice {

  private ModelChoice() {}

  /** The model for an index whose last commit recorded {@code record} (null: none yet). */
  public static @Nullable Embedder forIndex(@Nullable CommitRecord record) {
    String id = record == null ? "" : record.embedderId();
    if (!id.isEmpty()) {
      Optional<EmbedderProvider> own = EmbedderProvider.find(id);
      if (own.isPresent()) {
        return own.get().create();
      }
    }
    return EmbedderProvider.findDefault().map(EmbedderProvider::create).orElse(null);
  }

  /**
   * The tiers of a commit: the model its vectors come from (or, before it has any, the model this
   * process would embed with), its coverage, and whether this process can search with it.
   *
   * @param process the model of this process (null: none, or semantic search off)
   * @param state what {@link SemanticAvailability#check} says for this commit
   */
  public static List<SemanticTier> tiers(Map<String, String> data, @Nullable Embedder process,
      SemanticState state) {
    long chunks = CommitMeta.parseLong(data.get(Schema.META_CHUNKS));
    long covered = Math.min(chunks, CommitMeta.parseLong(data.get(Schema.META_CHUNKS_EMBEDDED)));
    String id = data.getOrDefault(Schema.META_EMBEDDER_ID, "");
    String model;
    Embedder.Kind kind;
    int dimension;
    if (!id.isEmpty()) {
      model = id;
      String dim = data.getOrDefault(Schema.META_EMBEDDER_DIM, "");
      dimension = dim.isEmpty() ? 0 : Integer.parseInt(dim);
      kind = kind(data.get(Schema.META_EMBEDDER_KIND));
      if (kind == null && process != null && process.id().equals(id)) {
        kind = process.kind();
      }
    } else if (process != null && state == SemanticState.AVAILABLE) {
      model = process.id();
      kind = process.kind();
      dimension = process.dimension();
      covered = 0;
    } else {
      return List.of();
    }
    SemanticTier.State s = state != SemanticState.AVAILABLE ? SemanticTier.State.UNAVAILABLE
        : covered >= chunks ? SemanticTier.State.READY : SemanticTier.State.PARTIAL;
    return List.of(new SemanticTier(model, kind, dimension, covered, chunks, s));
  }

  private static Embedder.@Nullable Kind kind(@Nullable String recorded) {
    if (recorded == null || recorded.isEmpty()) {
      return null;
    }
    try {
      return Embedder.Kind.valueOf(recorded.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
