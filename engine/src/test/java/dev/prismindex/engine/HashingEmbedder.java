package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small deterministic embedder for tests: feature hashing of the code-aware tokens of a text
 * (signed buckets), L2-normalised, so texts sharing identifiers or words are close. Thousands of
 * times faster than the real model; counts what it embeds, and can be told to fail.
 *
 * <p>Its {@link Provider} is registered for {@link java.util.ServiceLoader} in the engine's test
 * resources; test classes come first on the test class path, so {@link
 * EmbedderProvider#findDefault()} finds this embedder in tests (the real model, also on the test
 * class path, is picked explicitly by id by the few tests and harnesses that want it).
 */
public final class HashingEmbedder implements Embedder {

  /** The id of the default test embedder. */
  public static final String ID = "test-hashing";
  public static final int DIMENSION = 64;

  private static final CodeAnalyzer ANALYZER = new CodeAnalyzer();

  private final String id;
  private final int dimension;
  /** Texts embedded through {@link #embed} (documents). */
  public final AtomicLong documents = new AtomicLong();
  /** Queries embedded through {@link #embedQuery}. */
  public final AtomicLong queries = new AtomicLong();
  private volatile long failAfter = Long.MAX_VALUE;
  private volatile long delayMicrosPerText;

  public HashingEmbedder() {
    this(ID, DIMENSION);
  }

  public HashingEmbedder(String id, int dimension) {
    this.id = id;
    this.dimension = dimension;
  }

  /** Makes {@link #embed} fail once {@code texts} more documents have been embedded. */
  public HashingEmbedder failAfter(long texts) {
    this.failAfter = documents.get() + texts;
    return this;
  }

  /** Makes {@link #embed} take about {@code micros} per text (like a real model, slower). */
  public HashingEmbedder slow(long micros) {
    this.delayMicrosPerText = micros;
    return this;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    long delay = delayMicrosPerText * texts.size();
    if (delay > 0) {
      try {
        Thread.sleep(delay / 1000, (int) (delay % 1000) * 1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EmbeddingException("interrupted", e);
      }
    }
    for (String t : texts) {
      if (documents.get() >= failAfter) {
        throw new EmbeddingException("embedding model failed: test failure after "
            + documents.get() + " texts");
      }
      out.add(vector(t));
      documents.incrementAndGet();
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    queries.incrementAndGet();
    return vector(query);
  }

  float[] vector(String text) {
    float[] v = new float[dimension];
    for (String term : ANALYZER.terms(text, 4096)) {
      int h = term.hashCode() * 0x9E3779B1;
      v[Math.floorMod(h, dimension)] += (h & 0x100) == 0 ? 1f : -1f;
    }
    double sum = 0;
    for (float f : v) {
      sum += f * f;
    }
    if (sum == 0) {
      v[0] = 1f;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(sum));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  /** Registered for {@link java.util.ServiceLoader} in the engine's test resources. */
  public static final class Provider implements EmbedderProvider {
    @Override
    public String id() {
      return ID;
    }

    @Override
    public Embedder create() {
      return new HashingEmbedder();
    }
  }
}
