package dev.prismindex.engine.spi;

import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The kernel's embedding model, for a store that embeds its chunks as it stores them ({@link
 * WriteSpec#vectors()}). The text a chunk is embedded as, and the vectors, are the kernel's, so
 * every store holds the same vectors for the same chunks.
 */
public interface ChunkVectors {

  /** The model's id (pinned by a new index: {@link CommitRecord#EMBEDDER_ID}). */
  String modelId();

  /** The vectors' dimension. */
  int dimension();

  /** How many texts one {@link #embed} call should carry at most. */
  int batchSize();

  /** The text {@code chunk} of the file at {@code path} is embedded as. */
  String text(String path, Chunk chunk);

  /**
   * The unit vectors of {@code texts}, in order; null for a text whose vector is zero (cosine has
   * no direction for it: the chunk gets no vector).
   *
   * @throws IOException when the model fails (the engine's {@code
   *     SemanticSearchUnavailableException} when it cannot embed at all)
   */
  List<float @Nullable []> embed(List<String> texts) throws IOException;
}
