package dev.prismindex.model.code;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;

/**
 * Provides prism-index's static code-search embedder ({@code prism-code-v1-t1}, 256 dimensions).
 * Creating it is cheap; the model (a few megabytes) loads on the first embedding call and is
 * shared by every embedder of the process. Being {@link Embedder.Kind#STATIC}, it is the one
 * {@link dev.prismindex.embed.EmbedderProvider#findDefault()} prefers.
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

  /** Static: the engine embeds each chunk with it as it indexes the chunk. */
  @Override
  public Embedder.Kind kind() {
    return Embedder.Kind.STATIC;
  }

  @Override
  public Embedder create() {
    return new CodeEmbedder();
  }
}
