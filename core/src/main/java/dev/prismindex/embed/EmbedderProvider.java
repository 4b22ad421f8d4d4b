package dev.prismindex.embed;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A {@link ServiceLoader} entry point for an {@link Embedder} packaged in its own module (for example
 * the bundled local model), so the engine works lexical-only when no model is on the class path.
 */
public interface EmbedderProvider {

  /** The id of the embedder this provider creates (equal to its {@link Embedder#id()}). */
  String id();

  /** Creates the embedder; cheap: the model itself loads lazily on first use. */
  Embedder create();

  /** The first provider found on the class path or module path, if any. */
  static Optional<EmbedderProvider> findDefault() {
    return ServiceLoader.load(EmbedderProvider.class).findFirst();
  }

  /** The provider with the given id, if one is on the class path or module path. */
  static Optional<EmbedderProvider> find(String id) {
    return ServiceLoader.load(EmbedderProvider.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(provider -> provider.id().equals(id))
        .findFirst();
  }
}
