package dev.prismindex.model.minilm;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.prismindex.embed.AbstractEmbedder;
import dev.prismindex.embed.EmbeddingException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * all-MiniLM-L6-v2, int8-quantized: 384-dimensional, L2-normalised sentence embeddings (mean of the
 * token states, as the model was trained). Every input is cut at {@value #DEFAULT_MAX_TOKENS} word
 * pieces, {@code [CLS]} and {@code [SEP]} included, so only the start of a longer text counts.
 * The model costs about the same per word piece whatever the text, and almost every chunk text is
 * longer than the cap, so the cap sets the indexing speed: 64 embeds 1.5-2.1x as fast as the
 * tokenizer's own limit of 128, and with the engine's chunk texts hybrid search of
 * natural-language queries ranked within 0.01 of it on every language of the quality benchmark
 * (docs/benchmarks.md, section 5). {@code -Dprism.minilm.maxTokens=N}, for measuring only,
 * changes the cap and with it the {@link #id()}.
 *
 * <p>The model runs on its own ONNX Runtime session, one text per call (no padding), with one
 * intra-op thread: on two cores, two calling threads with one
 * intra-op thread each embed fastest, and a second intra-op thread spinning beside a busy core
 * costs CPU for nothing (the engine-vectors run log, docs/runs/README.md). Callers that want both cores call
 * {@link #embed} from two threads, which is safe. {@link #embedQuery} runs on a second session
 * with ONNX Runtime's default threads (one per core), since a query is embedded alone and waited
 * for; a process that only searches loads only that one. Grouping texts of similar length into one
 * call was measured and not kept: the model is dynamically quantized, so its activation scales are
 * taken over the whole call and a text's vector then depends on its neighbours (cosine 0.97 to
 * its own for a short text), for about 5 % less CPU.
 *
 * <p>The sessions and the tokenizer are the process's, loaded on first use and freed by
 * {@link #release} (a resident server calls it when idle), after which the next call loads them
 * again.
 */
final class MiniLmEmbedder extends AbstractEmbedder {

  /** The model, as its langchain4j artifact names it. */
  static final String MODEL_NAME = "all-minilm-l6-v2-q";

  static final int DIMENSION = 384;

  /** The word pieces per text unless a property says otherwise. */
  static final int DEFAULT_MAX_TOKENS = 64;

  /** Word pieces per text, special tokens included (the property is for measuring). */
  static final int MAX_TOKENS = Integer.getInteger("prism.minilm.maxTokens", DEFAULT_MAX_TOKENS);

  /**
   * The id recorded by indexes ({@code all-minilm-l6-v2-q-t64}): the model and its token cap, since
   * vectors cut at another cap differ; it changes whenever the model or its preprocessing does.
   */
  static final String ID = MODEL_NAME + "-t" + MAX_TOKENS;

  /** ONNX Runtime threads inside one call of {@link #embed} (documents: throughput). */
  static final int INTRA_OP_THREADS = Integer.getInteger("prism.minilm.intraOpThreads", 1);

  /**
   * ONNX Runtime threads inside one call of {@link #embedQuery} (a query: latency); 0 is ONNX
   * Runtime's default, one per core.
   */
  static final int QUERY_INTRA_OP_THREADS =
      Integer.getInteger("prism.minilm.queryIntraOpThreads", 0);

  /**
   * Characters of a long text tokenized per word piece of the cap ({@link #wordPieces}): code and
   * prose take about 3-5 characters per word piece, so a prefix of 5 per piece almost always fills
   * the cap (all but 19 of gson's 4 666 chunk texts at 64 pieces).
   */
  static final int PREFIX_CHARS_PER_TOKEN = 5;

  /** What a blank text is embedded as. */
  static final String BLANK_STAND_IN = "(empty)";

  private static final Logger LOG = LoggerFactory.getLogger(MiniLmEmbedder.class);

  MiniLmEmbedder() {
    super(ID, DIMENSION, Kind.TRANSFORMER);
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    if (texts.isEmpty()) {
      return List.of();
    }
    return embed(texts, false);
  }

  /** Embeds the query on the query session (all cores inside the call: one query, latency). */
  @Override
  public float[] embedQuery(String query) {
    return embed(List.of(query), true).get(0);
  }

  /**
   * Frees the process's loaded sessions and tokenizer unless a call is running (they load again
   * on the next call): a resident server does so when it has been idle for a while.
   */
  @Override
  public boolean release() {
    return Loaded.release();
  }

  private static List<float[]> embed(List<String> texts, boolean query) {
    Loaded.USE.readLock().lock();
    try {
      Model model = query ? Loaded.query() : Loaded.document();
      HuggingFaceTokenizer tokenizer = Loaded.tokenizer();
      List<float[]> out = new ArrayList<>(texts.size());
      for (String text : texts) {
        out.add(model.run(wordPieces(tokenizer, sanitize(text))));
      }
      return out;
    } catch (OrtException | RuntimeException e) {
      throw new EmbeddingException("embedding model failed: " + e.getMessage(), e);
    } finally {
      Loaded.USE.readLock().unlock();
    }
  }

  /**
   * The word-piece ids of {@code text} (a {@link #sanitize}d one), cut at {@link #MAX_TOKENS}. A
   * long text is tokenized from its first {@value #PREFIX_CHARS_PER_TOKEN} characters per word
   * piece of the cap, cut at a whitespace character: the tokenizer splits words at whitespace and
   * normalizes character by character, so such a prefix gives the text's own first word pieces, and
   * when they fill the cap they are the text's whole result. Otherwise (a prefix short of the cap,
   * or no whitespace to cut at) the whole text is tokenized. Tokenizing a whole chunk text cost
   * about twice as much, for word pieces the cap then drops.
   */
  static long[] wordPieces(String text) {
    Loaded.USE.readLock().lock();
    try {
      return wordPieces(Loaded.tokenizer(), text);
    } finally {
      Loaded.USE.readLock().unlock();
    }
  }

  private static long[] wordPieces(HuggingFaceTokenizer tokenizer, String text) {
    int cut = prefixEnd(text, PREFIX_CHARS_PER_TOKEN * MAX_TOKENS);
    if (cut > 0) {
      long[] ids = tokenizer.encode(text.substring(0, cut)).getIds();
      if (ids.length == MAX_TOKENS) {
        return ids;
      }
    }
    return tokenizer.encode(text).getIds();
  }

  /**
   * Where a prefix of at most about {@code chars} characters of {@code text} ends: the index of the
   * last ASCII whitespace character at or before {@code chars} and after {@code chars / 2}; -1 when
   * the text is not longer than that or has no such character.
   */
  static int prefixEnd(String text, int chars) {
    if (text.length() <= chars) {
      return -1;
    }
    for (int i = chars; i > chars / 2; i--) {
      char c = text.charAt(i);
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        return i;
      }
    }
    return -1;
  }

  /**
   * Replaces lone surrogates (which the tokenizer rejects) and gives blank text a fixed stand-in, since
   * the model cannot embed a blank segment (all blank texts thus share one vector).
   */
  static String sanitize(String text) {
    StringBuilder out = null;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      boolean pairedHigh = Character.isHighSurrogate(c) && i + 1 < n
          && Character.isLowSurrogate(text.charAt(i + 1));
      if (pairedHigh) {
        if (out != null) {
          out.append(c).append(text.charAt(i + 1));
        }
        i++;
        continue;
      }
      if (Character.isSurrogate(c)) {
        if (out == null) {
          out = new StringBuilder(n).append(text, 0, i);
        }
        out.append('\uFFFD');
      } else if (out != null) {
        out.append(c);
      }
    }
    String clean = out == null ? text : out.toString();
    return clean.isBlank() ? BLANK_STAND_IN : clean;
  }

  /** An ONNX Runtime session of the bundled model. */
  private static final class Model {
    final OrtEnvironment env;
    final OrtSession session;
    final boolean typeIds;

    Model(OrtEnvironment env, OrtSession session) {
      this.env = env;
      this.session = session;
      this.typeIds = session.getInputNames().contains("token_type_ids");
    }

    void close() {
      try {
        session.close();
      } catch (OrtException e) {
        LOG.debug("closing an ONNX Runtime session failed: {}", e.toString());
      }
    }

    /** The unit vector of one tokenized text (its word-piece ids). */
    float[] run(long[] ids) throws OrtException {
      long[] shape = {1, ids.length};
      long[] mask = new long[ids.length];
      Arrays.fill(mask, 1L);
      Map<String, OnnxTensor> inputs = new HashMap<>();
      try {
        inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape));
        inputs.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape));
        if (typeIds) {
          inputs.put("token_type_ids",
              OnnxTensor.createTensor(env, LongBuffer.wrap(new long[ids.length]), shape));
        }
        try (OrtSession.Result result = session.run(inputs)) {
          return meanPool(((OnnxTensor) result.get(0)).getFloatBuffer(), ids.length);
        }
      } finally {
        for (OnnxTensor t : inputs.values()) {
          t.close();
        }
      }
    }
  }

  /**
   * The mean of the first {@code tokens} states of {@code states} (the model's output for one text,
   * {@value #DIMENSION} values per token, row by row), at unit length.
   */
  static float[] meanPool(FloatBuffer states, int tokens) {
    float[] v = new float[DIMENSION];
    for (int t = 0; t < tokens; t++) {
      int row = t * DIMENSION;
      for (int d = 0; d < DIMENSION; d++) {
        v[d] += states.get(row + d);
      }
    }
    double sum = 0;
    for (float f : v) {
      sum += (double) f * f;
    }
    if (sum == 0) {
      return v;
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    for (int d = 0; d < v.length; d++) {
      v[d] *= inv;
    }
    return v;
  }

  /**
   * What this process has loaded, shared by every instance: the documents' session, the queries'
   * session (a process that only searches loads only this one) and the tokenizer they share, each
   * on first use. Calls hold {@link #USE}'s read lock; {@link #release} takes its write lock
   * without waiting, so it never frees what a call is using.
   */
  private static final class Loaded {
    static final ReentrantReadWriteLock USE = new ReentrantReadWriteLock();
    private static @Nullable Model document;
    private static @Nullable Model query;
    private static @Nullable HuggingFaceTokenizer tokenizer;

    static synchronized Model document() {
      if (document == null) {
        document = load(INTRA_OP_THREADS, false);
      }
      return document;
    }

    static synchronized Model query() {
      if (query == null) {
        query = load(QUERY_INTRA_OP_THREADS, true);
      }
      return query;
    }

    static synchronized HuggingFaceTokenizer tokenizer() {
      if (tokenizer == null) {
        tokenizer = loadTokenizer();
      }
      return tokenizer;
    }

    static boolean release() {
      if (!USE.writeLock().tryLock()) {
        return false;
      }
      try {
        synchronized (Loaded.class) {
          boolean any = document != null || query != null || tokenizer != null;
          for (Model m : new Model[] {document, query}) {
            if (m != null) {
              m.close();
            }
          }
          if (tokenizer != null) {
            tokenizer.close();
          }
          document = null;
          query = null;
          tokenizer = null;
          if (any) {
            LOG.debug("released {}", ID);
          }
          return any;
        }
      } finally {
        USE.writeLock().unlock();
      }
    }
  }

  /**
   * Loads a session of the model. The queries' session runs without ONNX Runtime's memory arena:
   * a query's tensors are small, and the arena kept about 11 MB that a resident server would hold
   * while idle (measured: a process that loaded the query session and embedded 21 queries, 126 MB
   * RSS with the arena, 114 MB without; the same query time within noise). The documents' session
   * keeps the arena (indexing throughput, not measured without it).
   */
  private static Model load(int intraOpThreads, boolean query) {
    long start = System.nanoTime();
    try {
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      if (intraOpThreads > 0) {
        options.setIntraOpNumThreads(intraOpThreads);
      }
      options.setInterOpNumThreads(1);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      if (query) {
        options.setCPUArenaAllocator(false);
      }
      OrtSession session = env.createSession(resource(MODEL_NAME + ".onnx"), options);
      LOG.debug("loaded {} in {} ms ({} intra-op thread(s), 0 = one per core; {} tokens)", ID,
          (System.nanoTime() - start) / 1_000_000, intraOpThreads, MAX_TOKENS);
      return new Model(env, session);
    } catch (OrtException | IOException | RuntimeException | LinkageError e) {
      throw new EmbeddingException("embedding model unavailable: " + e.getMessage(), e);
    }
  }

  static HuggingFaceTokenizer loadTokenizer() {
    try (InputStream in = stream(MODEL_NAME + "-tokenizer.json")) {
      return HuggingFaceTokenizer.newInstance(in, Map.of("padding", "false",
          "truncation", "true", "maxLength", Integer.toString(MAX_TOKENS)));
    } catch (IOException | RuntimeException | LinkageError e) {
      throw new EmbeddingException("embedding model unavailable: " + e.getMessage(), e);
    }
  }

  private static InputStream stream(String name) throws IOException {
    InputStream in = AllMiniLmL6V2QuantizedEmbeddingModel.class.getResourceAsStream("/" + name);
    if (in == null) {
      throw new IOException("the model resource " + name + " is missing");
    }
    return in;
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = stream(name)) {
      return in.readAllBytes();
    }
  }
}
