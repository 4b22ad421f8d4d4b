package dev.prismindex.engine.internal.analysis;

import dev.prismindex.engine.spi.StoreFields;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The analyzer of lexical queries and of the index writer's fields: the code-aware fields ({@code
 * body}, {@code symbol}, {@code path_text}) get {@link IdentifierTokenizer} alone (it lower-cases); the
 * prose field {@value #PROSE_FIELD} gets {@link ProseAnalyzer}'s English analysis. The writer gets
 * a chunk's terms from {@link ChunkTerms}, counted, which are the terms these chains give.
 * Its behaviour is versioned by {@link #VERSION}, which every commit records; an index written with
 * another version is refused.
 */
public final class CodeAnalyzer extends Analyzer {

  /** Bump whenever the emitted tokens or the literal index's grams change for any input. */
  public static final String VERSION = "code-1+prose-1+grams-2";

  /** The version before common trigrams were left out of the literal index ({@link Grams}). */
  private static final String ALL_GRAMS_VERSION = "code-1+prose-1";

  /**
   * Whether a local index written with analyzer {@code version} can be searched and updated by this
   * one: its own version, or {@value #ALL_GRAMS_VERSION}, whose literal index also holds the
   * common trigrams, which this version never asks for. The next commit records {@link #VERSION},
   * which older versions refuse.
   */
  public static boolean reads(String version) {
    return version.equals(VERSION) || version.equals(ALL_GRAMS_VERSION);
  }

  /** The field of a chunk's whole text analyzed as English prose. */
  public static final String PROSE_FIELD = StoreFields.PROSE;

  /** Token streams are reused per field: the code and prose fields have different chains. */
  public CodeAnalyzer() {
    super(PER_FIELD_REUSE_STRATEGY);
  }

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    if (fieldName.equals(PROSE_FIELD)) {
      return ProseAnalyzer.components();
    }
    IdentifierTokenizer tokenizer = new IdentifierTokenizer();
    return new TokenStreamComponents(tokenizer);
  }

  /** The distinct code-aware terms of {@code text}, in order of first appearance, at most {@code max}. */
  public Set<String> terms(String text, int max) {
    return terms("body", text, max);
  }

  /** The distinct prose terms (stems) of {@code text}, in order of first appearance, at most {@code max}. */
  public Set<String> proseTerms(String text, int max) {
    return terms(PROSE_FIELD, text, max);
  }

  private Set<String> terms(String field, String text, int max) {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = tokenStream(field, new StringReader(text))) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken() && out.size() < max) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader never fails
    }
    return out;
  }
}
