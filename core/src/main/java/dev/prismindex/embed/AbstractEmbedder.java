package dev.prismindex.embed;

import java.util.Objects;

/**
 * An {@link Embedder} whose {@link #id()}, {@link #dimension()} and {@link #kind()} are fixed when
 * it is made, as the interface asks (constants that never load a model): a model-backed embedder
 * passes them to this constructor and implements only the embedding.
 */
public abstract class AbstractEmbedder implements Embedder {

  private final String id;
  private final int dimension;
  private final Kind kind;

  /**
   * An embedder recording {@code id}, returning vectors of {@code dimension} floats.
   *
   * @throws IllegalArgumentException when {@code id} is blank or {@code dimension} is not positive
   */
  protected AbstractEmbedder(String id, int dimension, Kind kind) {
    if (Objects.requireNonNull(id, "id").isBlank()) {
      throw new IllegalArgumentException("an embedder's id must not be blank");
    }
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive: " + dimension);
    }
    this.id = id;
    this.dimension = dimension;
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  @Override
  public final String id() {
    return id;
  }

  @Override
  public final int dimension() {
    return dimension;
  }

  @Override
  public final Kind kind() {
    return kind;
  }
}
