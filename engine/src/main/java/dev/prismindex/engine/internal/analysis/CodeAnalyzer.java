package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The code-aware analyzer of the {@code body}, {@code symbol} and {@code path_text} fields and of
 * lexical queries: {@link CodeTokenizer} alone (it lower-cases). Its behaviour is versioned by
 * {@link #VERSION}, which every commit records; an index written with another version is refused.
 */
public final class CodeAnalyzer extends Analyzer {

  /** Bump whenever the emitted tokens change for any input. */
  public static final String VERSION = "code-1";

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    CodeTokenizer tokenizer = new CodeTokenizer();
    return new TokenStreamComponents(tokenizer);
  }

  /** The distinct terms of {@code text}, in order of first appearance, at most {@code max}. */
  public Set<String> terms(String text, int max) {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = tokenStream("body", new StringReader(text))) {
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
