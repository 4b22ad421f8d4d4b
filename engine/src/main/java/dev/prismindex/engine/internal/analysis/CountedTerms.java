package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.util.BytesRef;

/**
 * The tokens of one text in one field, each with the number of times it stands for, and the length
 * of the text's token stream (its positions: overlapping tokens not counted), as {@link
 * ChunkTerms} counts them. Immutable; {@link #field} hands them to the index writer as term
 * frequencies, as often as asked, and {@link CodeSimilarity} takes the norm from the length. A
 * token may come more than once (the writer adds the frequencies up).
 */
public final class CountedTerms {

  /** The tokens in UTF-8, token {@code i} ending at {@code ends[i]}. */
  private final byte[] bytes;
  private final int[] ends;
  private final int[] freqs;
  private final int fieldLength;

  CountedTerms(byte[] bytes, int[] ends, int[] freqs, int fieldLength) {
    this.bytes = bytes;
    this.ends = ends;
    this.freqs = freqs;
    this.fieldLength = fieldLength;
  }

  /** No tokens: a field that gives its document a norm (of zero) and no term. */
  public static final CountedTerms NONE = new CountedTerms(new byte[0], new int[0], new int[0], 0);

  /**
   * The field {@code name} of these tokens, each with its count as its term frequency. Like
   * Lucene's own string field, it hands the writer the stream the writer last used for the field,
   * aimed at these tokens, instead of a new one per document.
   */
  public Field field(String name, FieldType type) {
    return new CountedField(name, type, this);
  }

  /** A field of counted tokens. */
  private static final class CountedField extends Field {
    private final CountedTerms terms;

    CountedField(String name, FieldType type, CountedTerms terms) {
      super(name, type);
      this.terms = terms;
    }

    @Override
    public TokenStream tokenStream(Analyzer analyzer, TokenStream reuse) {
      if (reuse instanceof Stream stream) {
        stream.terms = terms;
        return stream;
      }
      return new Stream(terms);
    }
  }

  /**
   * The tokens of a {@link CountedTerms}, read by one field of one document at a time, as bytes
   * (the writer takes a token's UTF-8; a character attribute would be encoded again for each).
   */
  static final class Stream extends TokenStream {
    private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
    private final BytesRef bytes = new BytesRef();
    private final TermFrequencyAttribute freq = addAttribute(TermFrequencyAttribute.class);
    private CountedTerms terms;
    private int next;

    Stream(CountedTerms terms) {
      this.terms = terms;
    }

    /** The length of the text's token stream, its overlapping tokens not counted. */
    int fieldLength() {
      return terms.fieldLength;
    }

    @Override
    public boolean incrementToken() {
      if (next == terms.ends.length) {
        return false;
      }
      clearAttributes();
      int start = next == 0 ? 0 : terms.ends[next - 1];
      bytes.bytes = terms.bytes;
      bytes.offset = start;
      bytes.length = terms.ends[next] - start;
      term.setBytesRef(bytes);
      freq.setTermFrequency(terms.freqs[next]);
      next++;
      return true;
    }

    @Override
    public void reset() throws IOException {
      super.reset();
      next = 0;
    }
  }
}
