package dev.prismindex.embed;

import java.util.List;

/**
 * Turns texts into L2-normalised vectors of a fixed {@link #dimension()}.
 *
 * <p>{@link #id()} and {@link #dimension()} are constants that never load a model, so an index can
 * check them cheaply; a model-backed embedder loads its model lazily on the first {@link #embed} call.
 * Implementations are thread-safe and deterministic: the same text always gives the same vector.
 */
public interface Embedder {

  /**
   * A stable identifier of the model and its preprocessing, recorded by indexes (for example
   * {@code all-minilm-l6-v2-q-t64}); a change in either must change the id.
   */
  String id();

  /** The length of every vector this embedder returns. */
  int dimension();

  /**
   * Embeds a batch of texts (documents, for example code chunks).
   *
   * @return one L2-normalised vector per text, in the same order
   * @throws EmbeddingException when the model cannot be loaded or fails
   */
  List<float[]> embed(List<String> texts);

  /**
   * Embeds a search query. Models that treat queries differently from documents override this; the
   * default embeds the query as a document.
   *
   * @throws EmbeddingException when the model cannot be loaded or fails
   */
  default float[] embedQuery(String query) {
    return embed(List.of(query)).get(0);
  }

  /**
   * Frees the memory a loaded model holds (its weights, its runtime's buffers and threads), which
   * the next {@link #embed} or {@link #embedQuery} call loads again: for a long-running host that
   * wants to be small while it is idle. Frees nothing while a call is running. The default has
   * nothing to free.
   *
   * @return whether a loaded model was freed
   */
  default boolean release() {
    return false;
  }
}
