package dev.prismindex.model.code;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;

/**
 * Provides the declaration model ({@code prism-decl-v1-t1}): the static embedding trained to tell
 * a sentence's definition from its siblings by its name and declaration line alone. The engine's
 * ranker compares each candidate's declaration with the sentence through it; it embeds no chunk.
 */
public final class DeclarationEmbedderProvider implements EmbedderProvider {

  /** Required by {@link java.util.ServiceLoader}. */
  public DeclarationEmbedderProvider() {}

  @Override
  public String id() {
    return CodeEmbedder.DECLARATION_ID;
  }

  @Override
  public Embedder.Kind kind() {
    return Embedder.Kind.STATIC;
  }

  @Override
  public Embedder create() {
    return new CodeEmbedder(CodeEmbedder.DECLARATION_ID, CodeEmbedder.DECLARATION_RESOURCE);
  }
}
