package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;

/**
 * The engine tests' configuration of core's {@link FakeEmbedder}: it hashes the engine's code-aware
 * terms ({@link CodeAnalyzer}), so texts sharing identifiers are close the way the index sees them.
 *
 * <p>{@link Provider} is registered for {@link java.util.ServiceLoader} in the engine's test
 * resources; test classes come first on the test class path, so {@link
 * EmbedderProvider#findDefault()} finds this embedder in tests (the real model, also on the test
 * class path, is picked explicitly by id by the few tests and harnesses that want it).
 */
public final class TestEmbedders {

  private static final CodeAnalyzer ANALYZER = new CodeAnalyzer();

  private TestEmbedders() {}

  /** A fake embedder with the default id and dimension over code-aware terms. */
  public static FakeEmbedder fake() {
    return new FakeEmbedder().tokenizer(TestEmbedders::terms);
  }

  /** A fake embedder with this id and dimension over code-aware terms. */
  public static FakeEmbedder fake(String id, int dimension) {
    return new FakeEmbedder(id, dimension).tokenizer(TestEmbedders::terms);
  }

  private static Iterable<String> terms(String text) {
    return ANALYZER.terms(text, 4096);
  }

  /** Registered for {@link java.util.ServiceLoader} in the engine's test resources. */
  public static final class Provider implements EmbedderProvider {
    @Override
    public String id() {
      return FakeEmbedder.ID;
    }

    @Override
    public Embedder create() {
      return fake();
    }
  }
}
