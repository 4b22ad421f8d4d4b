package dev.prismindex.model.minilm;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;

/**
 * Provides the all-MiniLM-L6-v2 (quantized) embedder. Creating it is cheap; the model loads on the
 * first embedding call and is shared by every embedder of the process.
 */
public final class MiniLmEmbedderProvider implements EmbedderProvider {

  /** Required by {@link java.util.ServiceLoader}. */
  public MiniLmEmbedderProvider() {}

  @Override
  public String id() {
    return MiniLmEmbedder.ID;
  }

  @Override
  public Embedder create() {
    return new MiniLmEmbedder();
  }
}
