package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.internal.search.ChunkDoc;
import dev.prismindex.engine.internal.search.HitLocator;
import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * HYBRID's identifier guard: when the query is one identifier (or a name phrase) and the lexical
 * engine's top hit matches it exactly, that hit stays HYBRID's first hit (see
 * {@code HybridIndex.searchResult} and {@code docs/engine.md}).
 */
public final class IdentifierGuard {

  /** A query that is a single identifier. */
  private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]+");
  private static final Pattern NAME_WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  /** The most words a name phrase has. */
  public static final int MAX_PHRASE_WORDS = 6;

  private IdentifierGuard() {}

  /**
   * The fused entry of the lexical engine's top hit when the query is one identifier and that hit
   * matches it exactly, else null.
   */
  static HybridFuser.@Nullable Fused pinned(String query, List<Ranked> lex, Set<String> terms,
      HitLocator locator, List<HybridFuser.Fused> fused) throws IOException {
    String id = query.strip();
    String phrase = namePhrase(id);
    if (phrase == null && !IDENTIFIER.matcher(id).matches()) {
      return null;
    }
    for (Ranked r : lex) {
      // The lexical top hit is the first candidate whose file still yields a hit.
      ChunkDoc chunk = locator.chunk(r.doc());
      Hit top = locator.locate(chunk, terms, 1.0, null, null);
      if (top == null) {
        continue;
      }
      if (phrase != null ? !namesPhrase(chunk.symbolNames(), phrase)
          : !exactIdentifierMatch(top, chunk.symbolNames(), id)) {
        return null;
      }
      for (HybridFuser.Fused f : fused) {
        if (f.lexical() == r) {
          return f;
        }
      }
      return null;
    }
    return null;
  }

  /**
   * The words of a name phrase ({@code parse duration string}: 2 to {@value #MAX_PHRASE_WORDS}
   * space-separated words of letters and digits) joined and lower-cased ({@code
   * parsedurationstring}), or null when {@code query} is not one.
   */
  public static @Nullable String namePhrase(String query) {
    String[] words = query.split(" +");
    if (words.length < 2 || words.length > MAX_PHRASE_WORDS) {
      return null;
    }
    StringBuilder joined = new StringBuilder();
    for (String w : words) {
      if (!NAME_WORD.matcher(w).matches()) {
        return null;
      }
      joined.append(w.toLowerCase(Locale.ROOT));
    }
    return joined.toString();
  }

  /** Whether one of {@code symbols}, lower-cased and without {@code _}, is {@code phrase}. */
  public static boolean namesPhrase(List<String> symbols, String phrase) {
    for (String s : symbols) {
      if (s.replace("_", "").toLowerCase(Locale.ROOT).equals(phrase)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code hit} defines {@code id} or its best line contains it as a whole word. */
  public static boolean exactIdentifierMatch(Hit hit, List<String> symbols, String id) {
    if (symbols.contains(id)) {
      return true;
    }
    String line = hit.snippet();
    for (int i = line.indexOf(id); i >= 0; i = line.indexOf(id, i + 1)) {
      boolean startOk = i == 0 || !isIdentifierPart(line.codePointBefore(i));
      int end = i + id.length();
      boolean endOk = end == line.length() || !isIdentifierPart(line.codePointAt(end));
      if (startOk && endOk) {
        return true;
      }
    }
    return false;
  }

  private static boolean isIdentifierPart(int cp) {
    return cp == '_' || cp == '$' || Character.isLetterOrDigit(cp);
  }
}
