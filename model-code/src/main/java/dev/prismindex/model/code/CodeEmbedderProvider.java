package dev.prismindex.model.code;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;

/**
 * Provides prism-index's static code-search embedder ({@code prism-code-v1-t1}, 256 dimensions).
 * Creating it is cheap; the model (a few megabytes) loads on the first embedding call and is
 * shared by every embedder of the process.
 */
public final class CodeEmbedderProvider implements EmbedderProvider {

  /** The id of the embedder this provider creates. */
  public static final String ID = CodeEmbedder.ID;

  /** Required by {@link java.util.ServiceLoader}. */
  public CodeEmbedderProvider() {}

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Embedder create() {
    return new CodeEmbedder();
  }
}
