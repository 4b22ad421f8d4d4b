package dev.prismindex.model.code;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The trained tables of the code-search model, read from its resource (written by
 * {@code scripts/train-code-model}). The format, big-endian:
 *
 * <pre>
 * bytes[8]  magic "PRSMCODE"
 * int       format version (1)
 * string    model name (the embedder's id), then the tokenizer version
 * int       dimension, vocabulary size V, tables T (1: one table for both sides; 2: code, query),
 *           document token cap
 * string[V] the tokens, in id order
 * float[V]  code-side token weights, then float[V] query-side token weights
 * T times:  float[V] row scales, then byte[V * dimension] int8 rows
 * </pre>
 *
 * A string is an unsigned short byte count and that many bytes of UTF-8. A token's vector on a
 * side is its row times its scale; a text's vector is the weighted sum of its tokens' vectors,
 * each token weighted by its weight on that side, at unit length.
 */
final class CodeModel {

  static final byte[] MAGIC = "PRSMCODE".getBytes(StandardCharsets.US_ASCII);
  static final int FORMAT = 1;

  final String name;
  final String tokenizer;
  final int dimension;
  final int maxTokens;
  final TokenTable ids;
  final float[] codeWeight;
  final float[] queryWeight;
  final float[] codeScale;
  /** The int8 rows of the code side, held as floats (exact): C1 converts bytes slowly. */
  final float[] codeRows;
  final float[] queryScale;
  final float[] queryRows;

  private CodeModel(String name, String tokenizer, int dimension, int maxTokens,
      TokenTable ids, float[] codeWeight, float[] queryWeight, float[] codeScale,
      float[] codeRows, float[] queryScale, float[] queryRows) {
    this.name = name;
    this.tokenizer = tokenizer;
    this.dimension = dimension;
    this.maxTokens = maxTokens;
    this.ids = ids;
    this.codeWeight = codeWeight;
    this.queryWeight = queryWeight;
    this.codeScale = codeScale;
    this.codeRows = codeRows;
    this.queryScale = queryScale;
    this.queryRows = queryRows;
  }

  /**
   * Reads a model.
   *
   * @throws IOException when the stream fails, or is not a model of this format
   */
  static CodeModel read(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(stream, 1 << 16));
    byte[] magic = new byte[MAGIC.length];
    in.readFully(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IOException("not a prism-index code model (bad magic)");
    }
    int format = in.readInt();
    if (format != FORMAT) {
      throw new IOException("code model format " + format + ", expected " + FORMAT);
    }
    String name = string(in);
    String tokenizer = string(in);
    int dimension = in.readInt();
    int vocab = in.readInt();
    int tables = in.readInt();
    int maxTokens = in.readInt();
    if (dimension < 1 || dimension > 4096 || vocab < 1 || vocab > 10_000_000
        || tables < 1 || tables > 2 || maxTokens < 1) {
      throw new IOException("code model header out of range: dimension " + dimension + ", vocab "
          + vocab + ", tables " + tables + ", token cap " + maxTokens);
    }
    String[] tokens = new String[vocab];
    for (int i = 0; i < vocab; i++) {
      tokens[i] = string(in);
    }
    TokenTable ids;
    try {
      ids = new TokenTable(tokens);
    } catch (IllegalArgumentException e) {
      throw new IOException("code model vocabulary: " + e.getMessage());
    }
    float[] codeWeight = floats(in, vocab);
    float[] queryWeight = floats(in, vocab);
    float[] codeScale = floats(in, vocab);
    int cells = Math.multiplyExact(vocab, dimension);
    float[] codeRows = rows(in, cells);
    float[] queryScale = codeScale;
    float[] queryRows = codeRows;
    if (tables == 2) {
      queryScale = floats(in, vocab);
      queryRows = rows(in, cells);
    }
    if (in.read() != -1) {
      throw new IOException("code model has bytes after its tables");
    }
    return new CodeModel(name, tokenizer, dimension, maxTokens, ids, codeWeight,
        queryWeight, codeScale, codeRows, queryScale, queryRows);
  }

  private static String string(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readUnsignedShort()];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  /** {@code n} int8 cells, each as a float. */
  private static float[] rows(DataInputStream in, int n) throws IOException {
    byte[] cells = new byte[n];
    in.readFully(cells);
    float[] out = new float[n];
    for (int i = 0; i < n; i++) {
      out[i] = cells[i];
    }
    return out;
  }

  private static float[] floats(DataInputStream in, int n) throws IOException {
    float[] out = new float[n];
    for (int i = 0; i < n; i++) {
      out[i] = in.readFloat();
      if (!Float.isFinite(out[i])) {
        throw new EOFException("code model holds a value that is not finite");
      }
    }
    return out;
  }

  /** The number of tokens in the vocabulary. */
  int vocabulary() {
    return ids.size();
  }

  /**
   * The unit-length vector of {@code text} on one side: the code side caps the text at
   * {@link #maxTokens} tokens, the query side takes them all. Tokens outside the vocabulary are
   * skipped; a text without any known token gives the zero vector.
   */
  float[] embed(String text, boolean query) {
    float[] weight = query ? queryWeight : codeWeight;
    float[] scale = query ? queryScale : codeScale;
    float[] rows = query ? queryRows : codeRows;
    // Each distinct known token once, in id order, with its count: a chunk repeats most of its
    // tokens (its identifiers split, then the original text), so this halves the arithmetic.
    Found found = scratch.get();
    try {
      CodeTokenizer.scan(text, query ? Integer.MAX_VALUE : maxTokens, found.word, found);
    } catch (RuntimeException | Error e) {
      scratch.remove(); // its counts may be half set
      throw e;
    }
    int m = found.distinct;
    int[] ids = new int[m];
    float[] factors = new float[m]; // count x weight x scale
    found.drain(ids, factors, weight, scale);
    // The sum in id order; four rows at a time (each component gets the same additions in the
    // same order as one row at a time, so the same float result, with a quarter of the passes).
    int d = dimension;
    float[] acc = new float[d];
    int r = 0;
    for (; r + 4 <= m; r += 4) {
      float f0 = factors[r];
      float f1 = factors[r + 1];
      float f2 = factors[r + 2];
      float f3 = factors[r + 3];
      int b0 = ids[r] * d;
      int b1 = ids[r + 1] * d;
      int b2 = ids[r + 2] * d;
      int b3 = ids[r + 3] * d;
      for (int k = 0; k < d; k++) {
        acc[k] = acc[k] + f0 * rows[b0 + k] + f1 * rows[b1 + k] + f2 * rows[b2 + k]
            + f3 * rows[b3 + k];
      }
    }
    for (; r < m; r++) {
      float f = factors[r];
      int base = ids[r] * d;
      for (int k = 0; k < d; k++) {
        acc[k] += f * rows[base + k];
      }
    }
    double sum = 0;
    for (float v : acc) {
      sum += (double) v * v;
    }
    if (sum > 0) {
      float inv = (float) (1.0 / Math.sqrt(sum));
      for (int k = 0; k < d; k++) {
        acc[k] *= inv;
      }
    }
    return acc;
  }

  /**
   * The counts of a text's known tokens, looked up from the tokenizer's buffer: one per thread,
   * reused (left empty by {@link Found#drain}).
   */
  private final ThreadLocal<Found> scratch = ThreadLocal.withInitial(Found::new);

  private final class Found implements CodeTokenizer.TokenSink {
    final char[] word = new char[CodeTokenizer.MAX_WORD];
    final int[] counts = new int[ids.size()];
    final long[] seen = new long[(ids.size() + 63) / 64]; // a bit per id counted
    int distinct;

    @Override
    public void accept(char[] w, int length) {
      int id = ids.id(w, length);
      if (id >= 0 && counts[id]++ == 0) {
        seen[id >>> 6] |= 1L << id;
        distinct++;
      }
    }

    /** Writes the ids counted, in id order, and their factors; clears the counts. */
    void drain(int[] out, float[] factors, float[] weight, float[] scale) {
      int at = 0;
      for (int w = 0; w < seen.length && at < distinct; w++) {
        long bits = seen[w];
        seen[w] = 0;
        while (bits != 0) {
          int t = (w << 6) + Long.numberOfTrailingZeros(bits);
          bits &= bits - 1;
          out[at] = t;
          factors[at++] = counts[t] * weight[t] * scale[t];
          counts[t] = 0;
        }
      }
      distinct = 0;
    }
  }
}
