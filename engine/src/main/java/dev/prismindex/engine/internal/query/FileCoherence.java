package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * File coherence of a HYBRID search for a sentence ({@link LexicalSearcher#isProse}): a function in
 * a file of which several candidates rank high is more likely the described one than an isolated
 * candidate of another file. Each fused candidate's score is multiplied by 1 + {@link #WEIGHT}
 * (0.5) x its file's aggregate (the sum of the fused scores of the first {@link #DEPTH} (5)
 * candidates in its file) over the largest file aggregate, so the boost is at most 1 + {@link
 * #WEIGHT} and the order within a file is unchanged; then the definition prior ({@link
 * DefinitionMatch#apply}) runs as before, and the first hit of the ranking without coherence
 * keeps the first place ({@link #putFirst}; the in-file promotion then decides it within its
 * file: {@link InFilePromotion#promote}): coherence is evidence about where the rest of the
 * list should look, not about which single chunk answers (let it take the first place and it
 * passes a right first hit in a small file with a larger file's pair: Go, TypeScript worse).
 */
final class FileCoherence {

  /** The weight of the file aggregate; 0 turns it off. The property is for measuring. */
  static final double WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.fileCoherence", "0.5"));

  /**
   * How many of the first candidates count in the file aggregates (0: all of them). The property
   * is for measuring.
   */
  static final int DEPTH = Integer.getInteger("prism.rank.fileCoherenceDepth", 5);

  private FileCoherence() {}

  /** Moves candidate {@code doc} (when listed) to the first place with the best score. */
  static void putFirst(List<HybridFuser.Fused> fused, int doc) {
    for (int i = 1; i < fused.size(); i++) {
      HybridFuser.Fused f = fused.get(i);
      if (f.doc() == doc) {
        fused.remove(i);
        fused.add(0, new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(),
            fused.get(0).score()));
        return;
      }
    }
  }

  /**
   * Re-scores {@code fused} (in {@link HybridFuser#ORDER}) in place by file coherence for {@code
   * query} with {@code weight} over the first {@code depth} candidates and sorts it again; leaves it
   * as it is when the query is not a sentence or the weight is 0. {@code repos} gives a chunk's
   * repository in a workspace (null in one repository).
   *
   * @return each candidate's factor by chunk (empty when it leaves the list as it is)
   */
  static Map<Integer, Double> apply(List<HybridFuser.Fused> fused, String query,
      DefinitionMatch.Chunks chunks, IntFunction<@Nullable String> repos, double weight,
      int depth) throws IOException {
    if (weight <= 0 || fused.size() < 2 || !LexicalSearcher.isProse(query)) {
      return Map.of();
    }
    int n = depth <= 0 ? fused.size() : Math.min(depth, fused.size());
    List<String> files = new ArrayList<>(fused.size());
    Map<String, Double> aggregate = new HashMap<>();
    for (int i = 0; i < fused.size(); i++) {
      int doc = fused.get(i).doc();
      String repo = repos.apply(doc);
      String file = (repo == null ? "" : repo) + '\0' + chunks.chunk(doc).path();
      files.add(file);
      if (i < n) {
        aggregate.merge(file, fused.get(i).score(), Double::sum);
      }
    }
    double max = 0;
    for (double a : aggregate.values()) {
      max = Math.max(max, a);
    }
    if (max <= 0) {
      return Map.of();
    }
    Map<Integer, Double> factors = new HashMap<>();
    for (int i = 0; i < fused.size(); i++) {
      HybridFuser.Fused f = fused.get(i);
      double factor = 1 + weight * aggregate.getOrDefault(files.get(i), 0.0) / max;
      factors.put(f.doc(), factor);
      fused.set(i, new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), f.score() * factor));
    }
    fused.sort(HybridFuser.ORDER);
    double top = fused.get(0).score();
    if (top > 1) { // back into [0, 1]
      fused.replaceAll(f ->
          new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), f.score() / top));
    }
    return factors;
  }
}
