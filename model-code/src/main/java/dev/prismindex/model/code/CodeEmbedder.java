package dev.prismindex.model.code;

import dev.prismindex.embed.AbstractEmbedder;
import dev.prismindex.embed.EmbeddingException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * prism-index's static code-search embedding: a text's vector is the weighted sum of its tokens'
 * vectors ({@link CodeTokenizer}), at unit length, with one set of token weights (and, when the
 * model has two, one token table) for documents and another for queries. No network, no native
 * code: embedding a chunk is a few hash look-ups and a row of multiply-adds per distinct token.
 *
 * <p>The model is read once per process from the resource {@value #RESOURCE} on the first call
 * of {@link #embed} or {@link #embedQuery}; {@link #id()} and {@link #dimension()} are constants
 * that load nothing. Thread-safe and deterministic.
 */
final class CodeEmbedder extends AbstractEmbedder {

  /** The model's name as its resource records it: the id, which names the model version. */
  static final String ID = "prism-code-v1-" + CodeTokenizer.VERSION;

  static final int DIMENSION = 256;

  static final String RESOURCE = "/dev/prismindex/model/code/prism-code-v1.bin";

  private static volatile @Nullable CodeModel shared;

  CodeEmbedder() {
    super(ID, DIMENSION, Kind.STATIC);
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    CodeModel m = model();
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(m.embed(Objects.requireNonNull(t, "text"), false));
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    return model().embed(Objects.requireNonNull(query, "query"), true);
  }

  /**
   * The shared model, read on first use.
   *
   * @throws EmbeddingException when the resource is missing, damaged or of another model
   */
  static CodeModel model() {
    CodeModel m = shared;
    if (m == null) {
      synchronized (CodeEmbedder.class) {
        m = shared;
        if (m == null) {
          m = load();
          shared = m;
        }
      }
    }
    return m;
  }

  private static CodeModel load() {
    try (InputStream in = CodeEmbedder.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new EmbeddingException("the code model resource " + RESOURCE
            + " is not on the class path");
      }
      CodeModel m = CodeModel.read(in);
      if (!m.name.equals(ID) || !m.tokenizer.equals(CodeTokenizer.VERSION)
          || m.dimension != DIMENSION) {
        throw new EmbeddingException("the code model resource is " + m.name + " (tokenizer "
            + m.tokenizer + ", " + m.dimension + " dimensions), expected " + ID + " ("
            + CodeTokenizer.VERSION + ", " + DIMENSION + ")");
      }
      return m;
    } catch (IOException e) {
      throw new EmbeddingException("cannot read the code model " + RESOURCE + ": "
          + e.getMessage(), e);
    }
  }
}
