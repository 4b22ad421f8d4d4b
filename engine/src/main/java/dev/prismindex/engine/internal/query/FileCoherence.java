package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * File coherence of a HYBRID search for a sentence ({@link LexicalSearcher#isProse}): a function in
 * a file that both engines return many good candidates of is more likely the described one than an
 * isolated hit in another file. Each candidate's fused score is multiplied by 1 + {@link #WEIGHT} x
 * its file's aggregate (the sum of the fused scores of the first {@link #DEPTH} candidates that
 * share its file) over the largest file aggregate, so the boost is bounded by 1 + {@link #WEIGHT}
 * and the order within a file is unchanged. Runs after the fusion and the path prior, before the
 * definition prior ({@link DefinitionMatch#apply}).
 */
final class FileCoherence {

  /** The weight of the file aggregate; 0 turns it off. The property is for measuring. */
  static final double WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.fileCoherence", "0"));

  /**
   * How many of the first fused candidates count in the file aggregates (0: all of them). The
   * property is for measuring.
   */
  static final int DEPTH = Integer.getInteger("prism.rank.fileCoherenceDepth", 0);

  /**
   * How a file's aggregate is formed: {@code sum}, the sum of the fused scores of its first
   * {@link #DEPTH} candidates; {@code agree}, what both engines agree on: the smaller of its
   * chunks' lexical and semantic reciprocal ranks summed per engine (ranks up to {@link #DEPTH}).
   * The property is for measuring.
   */
  static final String MODE = System.getProperty("prism.rank.fileCoherenceMode", "sum");

  /**
   * Whether a definition counts once in its file's aggregate (its best candidate: the pieces of
   * one definition, its doc comment and the windows of its body, are no agreement of several).
   * The property is for measuring.
   */
  static final boolean PER_DEFINITION =
      Boolean.parseBoolean(System.getProperty("prism.rank.fileCoherencePerDefinition", "false"));

  private FileCoherence() {}

  /**
   * Re-scores {@code fused} (in {@link HybridFuser#ORDER}) in place by file coherence for {@code
   * query} with {@code weight} and sorts it again; leaves it as it is when the query is not a
   * sentence or the weight is 0. {@code repos} gives a chunk's repository in a workspace (null in
   * one repository).
   */
  static void apply(List<HybridFuser.Fused> fused, String query, DefinitionMatch.Chunks chunks,
      IntFunction<@Nullable String> repos, double weight, int depth) throws IOException {
    if (weight <= 0 || fused.isEmpty() || !LexicalSearcher.isProse(query)) {
      return;
    }
    int n = depth <= 0 ? fused.size() : Math.min(depth, fused.size());
    List<String> files = new ArrayList<>(fused.size());
    Map<String, Double> aggregate = new HashMap<>();
    Map<String, Double> lexical = new HashMap<>();
    Set<String> definitions = new HashSet<>();
    Map<String, Double> semantic = new HashMap<>();
    for (int i = 0; i < fused.size(); i++) {
      int doc = fused.get(i).doc();
      String repo = repos.apply(doc);
      String file = (repo == null ? "" : repo) + '\0' + chunks.chunk(doc).path();
      files.add(file);
      if (MODE.equals("agree")) {
        HybridFuser.Fused f = fused.get(i);
        int cut = depth <= 0 ? Integer.MAX_VALUE : depth;
        if (f.lexical() != null && f.lexical().rank() <= cut) {
          lexical.merge(file, 1.0 / (10 + f.lexical().rank()), Double::sum);
        }
        if (f.semantic() != null && f.semantic().rank() <= cut) {
          semantic.merge(file, 1.0 / (10 + f.semantic().rank()), Double::sum);
        }
      } else if (i < n && (!PER_DEFINITION
          || definitions.add(file + '\0' + RankedSearch.definition(chunks.chunk(doc))))) {
        aggregate.merge(file, fused.get(i).score(), Double::sum);
      }
    }
    for (Map.Entry<String, Double> e : lexical.entrySet()) {
      Double s = semantic.get(e.getKey());
      if (s != null) {
        aggregate.put(e.getKey(), Math.min(e.getValue(), s));
      }
    }
    double max = 0;
    for (double a : aggregate.values()) {
      max = Math.max(max, a);
    }
    if (max <= 0) {
      return;
    }
    double top = 0;
    for (int i = 0; i < fused.size(); i++) {
      HybridFuser.Fused f = fused.get(i);
      double score = f.score() * (1 + weight * aggregate.getOrDefault(files.get(i), 0.0) / max);
      top = Math.max(top, score);
      fused.set(i, new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), score));
    }
    double scale = top > 1 ? top : 1; // back into [0, 1]
    fused.replaceAll(f ->
        new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), f.score() / scale));
    fused.sort(HybridFuser.ORDER);
  }
}
