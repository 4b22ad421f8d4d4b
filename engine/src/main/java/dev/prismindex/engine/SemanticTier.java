package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One embedding model's share of an index: which model's vectors the index holds, how many of
 * its chunks have one, and whether this process can search with them. {@link
 * EngineStatus#tiers()} lists them (the CLI's {@code status}, the MCP server's {@code
 * index_status}).
 *
 * <p>The default tier is prism-index's static code model ({@link Embedder.Kind#STATIC}), whose
 * vectors are written with the lexical documents, so it covers every chunk the moment the lexical
 * index does. A transformer model (MiniLM, chosen with {@code index --model minilm}) is embedded
 * after the lexical commit, so its tier may cover part of the index for a while.
 *
 * @param model the model's id ({@code prism-code-v1-t1}, {@code all-minilm-l6-v2-q-t64})
 * @param kind the model's kind, or null when not known (an index written before kinds were
 *     recorded, whose model this process does not have)
 * @param dimension the vectors' dimension
 * @param chunksCovered chunks whose text has a vector of this model
 * @param chunks the index's chunks
 * @param state whether the tier is complete and usable
 */
public record SemanticTier(String model, Embedder.@Nullable Kind kind, int dimension,
    long chunksCovered, long chunks, State state) {

  /** Whether a tier answers, and for how much of the index. */
  public enum State {
    /** Every chunk has a vector, and this process can search with the model. */
    READY,
    /**
     * This process can search with the model, but some chunks have no vector yet: a transformer
     * model still embedding (or interrupted: the next {@code index} run continues), or an index
     * built lexical-only; semantic answers then miss those chunks and say so ({@link
     * SearchResult#coverage()}).
     */
    PARTIAL,
    /**
     * This process cannot search with the tier: the model is not on its class path, another
     * model was asked for ({@link SemanticState#MODEL_MISMATCH}), or semantic search is off.
     */
    UNAVAILABLE
  }

  public SemanticTier {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(state, "state");
    if (chunks < 0 || chunksCovered < 0 || chunksCovered > chunks) {
      throw new IllegalArgumentException("invalid coverage " + chunksCovered + "/" + chunks);
    }
  }
}
