package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * English prose analysis of the {@code prose} and {@code doc} fields and of prose queries: the
 * words of identifiers ({@link CodeTokenizer#words()}: {@code removeEntry} gives {@code remove,
 * entry}), lower-cased, without {@link #STOP_WORDS}, stemmed by Lucene's {@link PorterStemFilter}
 * ({@code removes, removed, removing -> remov}; {@code entries, entry -> entri}). Porter was
 * measured against Lucene's English minimal (plural-only) stemmer and ranked as well with a
 * smaller index (docs/benchmarks.md). Versioned with {@link CodeAnalyzer#VERSION}.
 */
public final class ProseAnalyzer extends Analyzer {

  /**
   * English function words, never indexed or searched as prose: Lucene's English stop set plus the
   * words the lexical searcher drops from prose queries.
   */
  public static final CharArraySet STOP_WORDS = new CharArraySet(List.of("a", "an", "and", "are",
      "as", "at", "be", "been", "but", "by", "do", "does", "for", "from", "how", "if", "in", "into",
      "is", "it", "its", "no", "not", "of", "on", "or", "our", "such", "that", "the", "their",
      "them", "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "what",
      "when", "where", "which", "whose", "will", "with", "you"), false);

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    return components();
  }

  /** A new prose analysis chain (also used by {@link CodeAnalyzer} for its prose fields). */
  TokenStreamComponents components() {
    CodeTokenizer tokenizer = CodeTokenizer.words();
    TokenStream stream = new StopFilter(tokenizer, STOP_WORDS);
    stream = new PorterStemFilter(stream);
    return new TokenStreamComponents(tokenizer, stream);
  }

  /** The distinct prose terms (stems) of {@code text}, in order of first appearance, at most {@code max}. */
  public Set<String> terms(String text, int max) {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = tokenStream("prose", new StringReader(text))) {
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
