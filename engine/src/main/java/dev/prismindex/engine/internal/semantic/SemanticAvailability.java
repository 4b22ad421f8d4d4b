package dev.prismindex.engine.internal.semantic;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.internal.store.Schema;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether this process can search an index semantically: semantic search switched on, a model
 * present, and the model the one the index's vectors come from (by the commit's metadata). The
 * one place that builds {@link SemanticSearchUnavailableException}.
 */
public final class SemanticAvailability {

  /**
   * The answer for one commit.
   *
   * @param state the state
   * @param message why semantic search is unavailable (null when available)
   */
  public record Verdict(SemanticState state, @Nullable String message) {
    /** Whether semantic search is available. */
    public boolean available() {
      return state == SemanticState.AVAILABLE;
    }
  }

  private final boolean enabled;
  private final @Nullable Embedder embedder;

  /**
   * @param enabled whether semantic search is switched on
   * @param embedder the model, if one was found
   */
  public SemanticAvailability(boolean enabled, @Nullable Embedder embedder) {
    this.enabled = enabled;
    this.embedder = embedder;
  }

  /** The model (null when none was found or semantic search is off). */
  public @Nullable Embedder embedder() {
    return embedder;
  }

  /** Whether this process can search semantically an index whose commit recorded {@code data}. */
  public Verdict check(Map<String, String> data) {
    if (!enabled) {
      return new Verdict(SemanticState.DISABLED, SemanticSearchUnavailableException.PREFIX
          + "semantic search is disabled (HybridIndexOptions.semantic(false), or --no-semantic)");
    }
    Embedder e = embedder;
    if (e == null) {
      return new Verdict(SemanticState.NO_MODEL, SemanticSearchUnavailableException.MESSAGE);
    }
    String id = data.getOrDefault(Schema.META_EMBEDDER_ID, "");
    String dim = data.getOrDefault(Schema.META_EMBEDDER_DIM, "");
    if (!id.isEmpty() && (!id.equals(e.id()) || !dim.equals(Integer.toString(e.dimension())))) {
      return new Verdict(SemanticState.MODEL_MISMATCH, SemanticSearchUnavailableException.PREFIX
          + "index was built with model " + id + " (dim " + dim + "); this process has "
          + e.id() + " (dim " + e.dimension() + "); rebuild with `prism-index index --full` "
          + "(RefreshOptions.FULL)");
    }
    return new Verdict(SemanticState.AVAILABLE, null);
  }

  /**
   * The model, after checking that semantic search is available for {@code data}.
   *
   * @throws SemanticSearchUnavailableException when it is not
   */
  public Embedder require(Map<String, String> data) throws SemanticSearchUnavailableException {
    Verdict v = check(data);
    Embedder e = embedder;
    if (!v.available() || e == null) {
      throw new SemanticSearchUnavailableException(v.state(), Objects.requireNonNull(v.message()),
          null);
    }
    return e;
  }

  /** The error for a model that failed to load or to embed. */
  public static SemanticSearchUnavailableException modelFailed(EmbeddingException e) {
    String m = e.getMessage() == null ? "the model failed" : e.getMessage();
    return new SemanticSearchUnavailableException(SemanticState.MODEL_FAILED, m, e);
  }
}
