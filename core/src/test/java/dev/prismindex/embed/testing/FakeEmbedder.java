package dev.prismindex.embed.testing;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The one deterministic stand-in for an embedding model in tests of every module (published in
 * core's test jar): feature hashing of a text's terms into signed buckets, L2-normalised, so texts
 * sharing words are close and semantic and hybrid answers are meaningful, with no model loaded.
 * Thousands of times faster than the real model.
 *
 * <p>Configurable where tests need it: the id and dimension (model-pinning tests), the tokenizer
 * (the engine's tests hash the engine's own code-aware terms; the default, {@link #words}, splits
 * camelCase and non-alphanumerics), an induced failure ({@link #failAfter}) and a delay per text
 * ({@link #slow}). It counts the documents and queries it embeds. Thread-safe.
 */
public final class FakeEmbedder implements Embedder {

  /** The default id. */
  public static final String ID = "test-hashing";
  /** The default dimension. */
  public static final int DIMENSION = 64;

  private static final Pattern CAMEL = Pattern.compile("([a-z])([A-Z])");
  private static final Pattern NON_WORD = Pattern.compile("[^a-z0-9]+");

  private final String id;
  private final int dimension;
  private volatile Function<String, ? extends Iterable<String>> tokenizer = FakeEmbedder::words;
  /** Texts embedded through {@link #embed} (documents). */
  public final AtomicLong documents = new AtomicLong();
  /** Queries embedded through {@link #embedQuery}. */
  public final AtomicLong queries = new AtomicLong();
  private volatile long failAfter = Long.MAX_VALUE;
  private volatile long delayMicrosPerText;
  private volatile Kind kind = Kind.TRANSFORMER;

  /** An embedder with id {@value #ID} and dimension {@value #DIMENSION}. */
  public FakeEmbedder() {
    this(ID, DIMENSION);
  }

  /** An embedder with this id and dimension. */
  public FakeEmbedder(String id, int dimension) {
    this.id = Objects.requireNonNull(id, "id");
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive: " + dimension);
    }
    this.dimension = dimension;
  }

  /** Hashes the terms {@code tokenizer} finds in a text instead of {@link #words}. */
  public FakeEmbedder tokenizer(Function<String, ? extends Iterable<String>> value) {
    this.tokenizer = Objects.requireNonNull(value, "tokenizer");
    return this;
  }

  /** Makes {@link #embed} fail once {@code texts} more documents have been embedded. */
  public FakeEmbedder failAfter(long texts) {
    this.failAfter = documents.get() + texts;
    return this;
  }

  /**
   * Declares this embedder of {@code value}'s kind (default {@link Kind#TRANSFORMER}: an index
   * embeds after its lexical commit; {@link Kind#STATIC}: as it indexes each chunk).
   */
  public FakeEmbedder kind(Kind value) {
    this.kind = Objects.requireNonNull(value, "kind");
    return this;
  }

  @Override
  public Kind kind() {
    return kind;
  }

  /** Makes {@link #embed} take about {@code micros} per text (like a real model, slower). */
  public FakeEmbedder slow(long micros) {
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

  /**
   * Embeds documents, counting them in {@link #documents}.
   *
   * @throws EmbeddingException once the {@link #failAfter} budget is spent, or when interrupted
   *     while {@link #slow}
   */
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

  /** Embeds a query, counting it in {@link #queries}. */
  @Override
  public float[] embedQuery(String query) {
    queries.incrementAndGet();
    return vector(query);
  }

  /** The vector of {@code text} (what {@link #embed} returns for it). */
  public float[] vector(String text) {
    float[] v = new float[dimension];
    for (String term : tokenizer.apply(text)) {
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

  /**
   * The default tokenizer: the distinct lower-cased words of {@code text} longer than one
   * character, camelCase parts split ({@code parseDuration} gives {@code parse}, {@code duration}).
   */
  public static Set<String> words(String text) {
    Set<String> out = new LinkedHashSet<>();
    String spaced = CAMEL.matcher(text).replaceAll("$1 $2").toLowerCase(Locale.ROOT);
    for (String word : NON_WORD.split(spaced)) {
      if (word.length() > 1) {
        out.add(word);
      }
    }
    return out;
  }
}
