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

  /**
   * The kind of the embedder this provider creates (equal to its {@link Embedder#kind()}; a
   * constant: never loads the model).
   */
  default Embedder.Kind kind() {
    return Embedder.Kind.TRANSFORMER;
  }

  /**
   * The default model: the first {@link Embedder.Kind#STATIC} provider found on the class path or
   * module path (prism-index's own code model, {@code prism-index-model-code}), else the first
   * provider found, if any. A static model is preferred whatever the class path's order: it
   * embeds as fast as the index is built and needs no native runtime at query time.
   */
  static Optional<EmbedderProvider> findDefault() {
    EmbedderProvider first = null;
    for (EmbedderProvider provider : ServiceLoader.load(EmbedderProvider.class)) {
      if (provider.kind() == Embedder.Kind.STATIC) {
        return Optional.of(provider);
      }
      if (first == null) {
        first = provider;
      }
    }
    return Optional.ofNullable(first);
  }

  /** The provider with the given id, if one is on the class path or module path. */
  static Optional<EmbedderProvider> find(String id) {
    return ServiceLoader.load(EmbedderProvider.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(provider -> provider.id().equals(id))
        .findFirst();
  }
}
