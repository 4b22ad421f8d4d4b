package dev.prismindex.engine.internal.semantic;

import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.spi.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reciprocal rank fusion of the lexical and the semantic ranking of chunks (see {@link Fusion}).
 * Chunks are joined on their document id (both rankings come from the same reader); the order is
 * the fused score, then the lexical rank, then the semantic rank. Ranks are unique within a
 * ranking, so that order is total and equal inputs always give the same order.
 */
public final class HybridFuser {

  /** The order of fused chunks: score, then lexical rank, then semantic rank. */
  public static final Comparator<Fused> ORDER = Comparator.comparingDouble(Fused::score)
      .reversed()
      .thenComparingInt(f -> f.lexical() == null ? Integer.MAX_VALUE : f.lexical().rank())
      .thenComparingInt(f -> f.semantic() == null ? Integer.MAX_VALUE : f.semantic().rank());

  private HybridFuser() {}

  /**
   * One fused chunk.
   *
   * @param doc the CHUNK document's id
   * @param lexical its lexical ranking, if the lexical engine returned it
   * @param semantic its semantic ranking, if the semantic engine returned it
   * @param score the fused score normalised into [0, 1]
   */
  public record Fused(int doc, @Nullable Candidate lexical, @Nullable Candidate semantic,
      double score) {}

  /** Fuses two rankings (each best first, ranks from 1); a chunk missing from one counts 0. */
  public static List<Fused> fuse(List<Candidate> lexical, List<Candidate> semantic, Fusion fusion) {
    return fuse(lexical, semantic, fusion, 0);
  }

  /**
   * Fuses two rankings (each best first, ranks from 1) cut at {@code depth}. A chunk missing from a
   * ranking that holds {@code depth} chunks (a cut one) is scored as if that engine had ranked it
   * just below the cut, at {@code depth + 1}: it may well match, only less. A chunk missing from a
   * shorter ranking (the engine found nothing more) counts 0 there. Without this, RRF over two cut
   * rankings favours any chunk both engines list, however low (at k = 60 and depth 50 every one of
   * them outranks the first hit of one engine alone: 2/110 > 1/61). {@code depth} 0 disables it.
   */
  public static List<Fused> fuse(List<Candidate> lexical, List<Candidate> semantic, Fusion fusion,
      int depth) {
    int lexicalAbsent = depth > 0 && lexical.size() >= depth ? depth + 1 : 0;
    int semanticAbsent = depth > 0 && semantic.size() >= depth ? depth + 1 : 0;
    Map<Integer, Candidate[]> byChunk = new LinkedHashMap<>();
    for (Candidate r : lexical) {
      byChunk.computeIfAbsent(r.chunk(), k -> new Candidate[2])[0] = r;
    }
    for (Candidate r : semantic) {
      byChunk.computeIfAbsent(r.chunk(), k -> new Candidate[2])[1] = r;
    }
    List<Fused> out = new ArrayList<>(byChunk.size());
    for (Candidate[] pair : byChunk.values()) {
      Candidate l = pair[0];
      Candidate s = pair[1];
      out.add(new Fused(l != null ? l.chunk() : s.chunk(), l, s,
          fusion.normalised(l == null ? lexicalAbsent : l.rank(),
              s == null ? semanticAbsent : s.rank())));
    }
    out.sort(ORDER);
    return out;
  }
}
