package dev.prismindex.model.minilm;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * all-MiniLM-L6-v2, int8-quantized: 384-dimensional, L2-normalised sentence embeddings. The bundled
 * tokenizer cuts every input at 128 word pieces (its {@code tokenizer.json}), so only the start of a
 * longer text counts.
 *
 * <p>The model runs on the calling thread (ONNX Runtime itself uses the available cores for one call);
 * callers that want more parallelism call {@link #embed} from several threads, which is safe.
 */
final class MiniLmEmbedder implements Embedder {

  /** The id recorded by indexes; changes whenever the model or its preprocessing changes. */
  static final String ID = "all-minilm-l6-v2-q";

  static final int DIMENSION = 384;

  /** What a blank text is embedded as. */
  static final String BLANK_STAND_IN = "(empty)";

  private static final Logger LOG = LoggerFactory.getLogger(MiniLmEmbedder.class);

  @Override
  public String id() {
    return ID;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    if (texts.isEmpty()) {
      return List.of();
    }
    EmbeddingModel model = ModelHolder.model();
    List<float[]> vectors = new ArrayList<>(texts.size());
    try {
      for (String text : texts) {
        // One call per text: ONNX Runtime parallelises inside a call, and the quantized model gains
        // nothing from padding a batch to its longest member.
        float[] vector = model.embed(TextSegment.from(sanitize(text))).content().vector();
        vectors.add(normalize(vector));
      }
    } catch (RuntimeException e) {
      throw new EmbeddingException("embedding model failed: " + e.getMessage(), e);
    }
    return vectors;
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

  private static float[] normalize(float[] vector) {
    double sum = 0;
    for (float v : vector) {
      sum += (double) v * v;
    }
    if (sum == 0 || Math.abs(sum - 1.0) < 1e-6) {
      return vector;
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    for (int i = 0; i < vector.length; i++) {
      vector[i] *= inv;
    }
    return vector;
  }

  /** Loads the model once per process, on first use (the holder-class idiom). */
  private static final class ModelHolder {
    private static final EmbeddingModel MODEL = load();

    private static EmbeddingModel load() {
      long start = System.nanoTime();
      try {
        EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run);
        LOG.debug("loaded {} in {} ms", ID, (System.nanoTime() - start) / 1_000_000);
        return model;
      } catch (RuntimeException | LinkageError e) {
        throw new EmbeddingException("embedding model unavailable: " + e.getMessage(), e);
      }
    }

    static EmbeddingModel model() {
      return MODEL;
    }
  }
}
