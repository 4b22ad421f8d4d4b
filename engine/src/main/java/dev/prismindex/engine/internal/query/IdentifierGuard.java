package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.internal.search.HitLocator;
import dev.prismindex.engine.internal.search.LiteralFragments;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.StoreFields;
import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.jspecify.annotations.Nullable;

/**
 * HYBRID's identifier guard: when the query is one identifier (or a name phrase) and the index
 * holds a definition of that name, that definition is HYBRID's first hit, however often the name
 * is used elsewhere (see {@code HybridIndex.searchResult} and {@code docs/engine.md}). Of several
 * definitions the guard takes the first in the fused order, else the best by BM25 among them;
 * either way library source before auxiliary files when the path prior applies. A name the index
 * does not define keeps the older rule: the lexical engine's top hit stays first when its best line
 * holds the identifier as a whole word.
 */
public final class IdentifierGuard {

  /** A query that is a single identifier. */
  private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]+");
  private static final Pattern NAME_WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  /** The most words a name phrase has. */
  public static final int MAX_PHRASE_WORDS = 6;
  /** How many chunks whose symbols hold the name the guard looks at beyond the fused ones. */
  static final int MAX_DEFINITIONS = 64;

  private IdentifierGuard() {}

  /**
   * The entry HYBRID puts first for {@code query}, or null when the guard does not apply.
   *
   * @param lexicalQuery the lexical engine's scored query (scores the definitions found by name
   *     alone)
   * @param filter the search's file filter ({@code FileMatcher#query}), null for every file
   * @param lex the lexical ranking
   * @param terms the query's analyzed terms
   * @param fused the fused ranking (path prior applied)
   * @param prior the path-prior weight, 1 when the prior does not apply
   */
  static HybridFuser.@Nullable Fused pinned(String query, StoreReader index,
      @Nullable Query lexicalQuery, @Nullable Query filter, List<Candidate> lex, Set<String> terms,
      HitLocator locator, List<HybridFuser.Fused> fused, double prior) throws IOException {
    String id = query.strip();
    String phrase = namePhrase(id);
    if (phrase == null && !IDENTIFIER.matcher(id).matches()) {
      return null;
    }
    HybridFuser.Fused definition = definition(id, phrase, index, lexicalQuery, filter, locator,
        fused, prior);
    if (definition != null) {
      return definition;
    }
    if (phrase != null) {
      return null;
    }
    for (Candidate r : lex) {
      // The lexical top hit is the first candidate whose file still yields a hit.
      ChunkDoc chunk = locator.chunk(r.chunk());
      Hit top = locator.locate(r.chunk(), terms, 1.0, null, null);
      if (top == null) {
        continue;
      }
      if (!exactIdentifierMatch(top, chunk.symbolNames(), id)) {
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
   * The definition of the name to put first, or null when the index defines no such name: library
   * source before auxiliary files (when the path prior applies), then a declaration before a
   * constructor or a Rust {@code impl} of the name ({@link #tier}), then the fused order, then the
   * lexical order of the definitions found by name alone.
   */
  private static HybridFuser.@Nullable Fused definition(String id, @Nullable String phrase,
      StoreReader index, @Nullable Query lexicalQuery, @Nullable Query filter,
      HitLocator locator, List<HybridFuser.Fused> fused, double prior) throws IOException {
    HybridFuser.Fused best = null;
    double bestFactor = 0;
    int bestTier = Integer.MAX_VALUE;
    for (HybridFuser.Fused f : fused) {
      ChunkDoc c = locator.chunk(f.doc());
      if (defines(c, id, phrase)) {
        double factor = PathPrior.factor(c.path(), prior);
        int tier = tier(f.doc(), c, id, phrase, locator);
        if (factor > bestFactor || factor == bestFactor && tier < bestTier) {
          best = f;
          bestFactor = factor;
          bestTier = tier;
        }
        if (factor == 1 && tier == 0) {
          return f;
        }
      }
    }
    for (Candidate r : index.lexical(definitions(id, phrase, lexicalQuery, filter))) {
      ChunkDoc c = locator.chunk(r.chunk());
      if (!defines(c, id, phrase)
          || locator.locate(r.chunk(), Set.of(), 1.0, null, null) == null) {
        continue;
      }
      double factor = PathPrior.factor(c.path(), prior);
      int tier = tier(r.chunk(), c, id, phrase, locator);
      if (factor > bestFactor || factor == bestFactor && tier < bestTier) {
        best = new HybridFuser.Fused(r.chunk(), null, null, 1.0);
        bestFactor = factor;
        bestTier = tier;
      }
      if (factor == 1 && tier == 0) {
        break;
      }
    }
    return best;
  }

  /**
   * The store request of the chunks whose symbols hold the name {@code query} (the guard's own
   * lexical request, when the fused ranking holds no declaration of it), or null when the guard
   * does not apply to {@code query}: for a store to send it with the search's others ({@link
   * StoreReader#prefetchRanked}).
   */
  static @Nullable LexicalQuery definitions(String query, @Nullable Query lexicalQuery,
      @Nullable Query filter) {
    String id = query.strip();
    String phrase = namePhrase(id);
    return phrase == null && !IDENTIFIER.matcher(id).matches() ? null
        : definitions(id, phrase, lexicalQuery, filter);
  }

  private static LexicalQuery definitions(String id, @Nullable String phrase,
      @Nullable Query lexicalQuery, @Nullable Query filter) {
    // The symbol field holds each name whole, lower-cased, and a snake_case name also joined.
    Term name = new Term(StoreFields.SYMBOL, phrase != null ? phrase : id.toLowerCase(Locale.ROOT));
    BooleanQuery.Builder b = new BooleanQuery.Builder()
        .add(new TermQuery(name), BooleanClause.Occur.FILTER);
    if (lexicalQuery != null) {
      b.add(lexicalQuery, BooleanClause.Occur.SHOULD);
    }
    return LexicalQuery.of(b.build(), filter, MAX_DEFINITIONS);
  }

  /**
   * How well a chunk that defines the name declares it: 0 for a declaration (a type, a function),
   * 1 for a constructor (a definition named as the type it sits in: {@code StopWatch()} in {@code
   * class StopWatch}) or a Rust {@code impl} block of the name, which a type's name as the query
   * does not ask for first.
   */
  private static int tier(int doc, ChunkDoc c, String id, @Nullable String phrase,
      HitLocator locator) throws IOException {
    int line = definitionLine(c, id);
    int i = 0;
    while (i < c.symbolLines().length && c.symbolLines()[i] != line) {
      i++;
    }
    if (i < c.symbolNames().size() && c.symbolNames().get(i).equals(c.parent())) {
      return 1;
    }
    if ("rust".equals(c.language())) {
      Hit declared = locator.locate(doc, Set.of(), line, 1.0, null, null);
      if (declared != null && declared.snippet().startsWith("impl")) {
        return 1;
      }
    }
    return 0;
  }

  /**
   * The line of the chunk's definition of the identifier or name phrase {@code query}, or 0 when
   * the chunk does not define it (the hit's line is then the best line for the query's terms).
   */
  static int definitionLine(ChunkDoc c, String query) {
    String id = query.strip();
    String phrase = namePhrase(id);
    for (int i = 0; i < c.symbolNames().size(); i++) {
      String n = c.symbolNames().get(i);
      if (phrase != null ? key(n).equals(phrase) : n.equals(id)) {
        return c.symbolLines()[i];
      }
    }
    return 0;
  }

  /** A name lower-cased without {@code _}: what a name phrase's words join to. */
  private static String key(String name) {
    return name.replace("_", "").toLowerCase(Locale.ROOT);
  }

  /** Whether {@code query} (stripped) is a single identifier. */
  static boolean isIdentifier(String query) {
    return IDENTIFIER.matcher(query).matches();
  }

  /** Whether the chunk defines the identifier (exactly) or the phrase (by {@link #namesPhrase}). */
  static boolean defines(ChunkDoc c, String id, @Nullable String phrase) {
    return phrase != null ? namesPhrase(c.symbolNames(), phrase) : c.symbolNames().contains(id);
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
      if (key(s).equals(phrase)) {
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
    return LiteralFragments.containsWord(hit.snippet(), id);
  }
}
