package dev.prismindex.engine.internal.analysis;

import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.PorterStemFilter;

/**
 * The English prose analysis chain of the {@code prose} field and of prose queries (built by {@link
 * CodeAnalyzer}): the words of identifiers ({@link IdentifierTokenizer#words()}: {@code removeEntry} gives
 * {@code remove, entry}), lower-cased, without {@link #STOP_WORDS}, stemmed by Lucene's {@link
 * PorterStemFilter} ({@code removes, removed, removing -> remov}; {@code entries, entry -> entri}),
 * the last two by {@link ProseFilter}.
 * Porter was measured against Lucene's English minimal (plural-only) stemmer and ranked as well with
 * a smaller index (the quality run log, docs/runs/README.md). Versioned with {@link CodeAnalyzer#VERSION}.
 */
final class ProseAnalyzer {

  /**
   * English function words, never indexed or searched as prose: Lucene's English stop set plus the
   * words the lexical searcher drops from prose queries.
   */
  static final CharArraySet STOP_WORDS = new CharArraySet(List.of("a", "an", "and", "are",
      "as", "at", "be", "been", "but", "by", "do", "does", "for", "from", "how", "if", "in", "into",
      "is", "it", "its", "no", "not", "of", "on", "or", "our", "such", "that", "the", "their",
      "them", "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "what",
      "when", "where", "which", "whose", "will", "with", "you"), false);

  private ProseAnalyzer() {}

  /** A new prose analysis chain. */
  static Analyzer.TokenStreamComponents components() {
    IdentifierTokenizer tokenizer = IdentifierTokenizer.words();
    return new Analyzer.TokenStreamComponents(tokenizer, new ProseFilter(tokenizer));
  }
}
