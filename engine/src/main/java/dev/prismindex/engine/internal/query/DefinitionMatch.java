package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The definition prior of a HYBRID search for a sentence ({@link LexicalSearcher#isProse}): a
 * sentence that describes what a function does usually says its name ({@code "Resumes the
 * stopwatch after a suspend"} names {@code resume}), so among candidates of similar fused score
 * the definition whose own name the sentence says comes first. A candidate's fused score is
 * multiplied by 1 + {@link #NAME_WEIGHT} (0.5) x the share of its definition's name words (split at case changes, digits
 * and underscores, stemmed as English prose) found among the query's prose stems; a chunk without
 * a definition, or whose name the query does not say, keeps its score. A chunk of a type (its
 * header, the lines between its members) whose name the sentence does not fully say is multiplied
 * by {@link #TYPE_WEIGHT} (0.8): a sentence describes what a function does; a type header wins only
 * when the sentence names the type. Then the list is sorted again (stable) and brought back into
 * [0, 1]. Sentences only: an identifier or a name phrase is the identifier guard's.
 */
final class DefinitionMatch {

  /**
   * The weight of a fully named definition: its fused score times 1 + this. The property is for
   * measuring.
   */
  static final double NAME_WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.nameWeight", "0.5"));

  /** Case changes, digits and separators that split an identifier into words. */
  private static final Pattern WORDS =
      Pattern.compile("(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[^A-Za-z]+");

  private static final int MAX_TERMS = 64;

  /**
   * The factor of a type's chunk (its header, or the lines between its members) whose name the
   * query does not fully say ({@link #isType}). The property is for measuring.
   */
  static final double TYPE_WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.typeWeight", "0.8"));

  private DefinitionMatch() {}

  /**
   * The share of the words of {@code name} (an identifier) whose prose stem is in {@code
   * queryStems}; 0 for an empty name.
   */
  static double nameShare(String name, Set<String> queryStems, CodeAnalyzer analyzer) {
    if (name.isEmpty() || queryStems.isEmpty()) {
      return 0;
    }
    Set<String> stems = analyzer.proseTerms(String.join(" ", WORDS.split(name)), MAX_TERMS);
    if (stems.isEmpty()) {
      return 0;
    }
    int said = 0;
    for (String s : stems) {
      if (queryStems.contains(s)) {
        said++;
      }
    }
    return (double) said / stems.size();
  }

  /**
   * Whether the chunk belongs to a type rather than a function: its definition's name is
   * capitalised in a language that capitalises types and not functions ({@link RankFeatures#kind}),
   * and it is not a constructor.
   */
  static boolean isType(ChunkDoc c) {
    int kind = RankFeatures.kind(c);
    return kind == 3 || kind == 1 && RankFeatures.capitalisedType(c);
  }

  /** How the search reads a chunk's stored fields. */
  @FunctionalInterface
  interface Chunks {
    ChunkDoc chunk(int doc) throws IOException;
  }

  /**
   * Re-scores {@code fused} in place by the definition prior for {@code query} and sorts it again
   * by {@link HybridFuser#ORDER}, the fusion's own order; leaves it as it is when the query is not
   * a sentence.
   */
  static void apply(List<HybridFuser.Fused> fused, String query, Chunks chunks,
      CodeAnalyzer analyzer) throws IOException {
    if (NAME_WEIGHT == 0 && TYPE_WEIGHT == 1 || !LexicalSearcher.isProse(query)) {
      return;
    }
    Set<String> stems = analyzer.proseTerms(query, MAX_TERMS);
    for (int i = 0; i < fused.size(); i++) {
      HybridFuser.Fused f = fused.get(i);
      ChunkDoc c = chunks.chunk(f.doc());
      double share =
          c.symbolNames().isEmpty() ? 0 : nameShare(c.symbolNames().get(0), stems, analyzer);
      double factor = 1 + NAME_WEIGHT * share;
      if (share < 1 && isType(c)) {
        factor *= TYPE_WEIGHT;
      }
      if (factor != 1) {
        fused.set(i, new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), f.score() * factor));
      }
    }
    fused.sort(HybridFuser.ORDER);
    double top = fused.isEmpty() ? 1 : fused.get(0).score();
    if (top > 1) { // back into [0, 1]
      fused.replaceAll(f ->
          new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), f.score() / top));
    }
  }
}
