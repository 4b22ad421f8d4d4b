package dev.prismindex.engine.internal.semantic;

import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.spi.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
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

  /**
   * Keeps each engine's best {@code perEngine} definitions among the first {@code places}
   * definitions of {@code fused} (in place): a definition one engine ranks first or second that the
   * fusion, the priors after it, pushed below {@code places} moves up to the last places of the
   * first {@code places}, in the fused order among themselves, each with the score of the place it
   * takes (scores stay sorted); the definitions it passes move down one place. {@code definition}
   * maps a chunk to its definition (one hit per definition), or null for a chunk no engine's top may
   * claim (an auxiliary file under the path prior).
   */
  public static void keepEngineTops(List<Fused> fused, int perEngine, int places,
      IntFunction<@Nullable String> definition) {
    Set<String> kept = new HashSet<>();
    for (int engine = 0; engine < 2; engine++) {
      int side = engine;
      List<Fused> byEngine = new ArrayList<>();
      for (Fused f : fused) {
        if ((side == 0 ? f.lexical() : f.semantic()) != null) {
          byEngine.add(f);
        }
      }
      byEngine.sort(Comparator.comparingInt(
          f -> side == 0 ? f.lexical().rank() : f.semantic().rank()));
      Set<String> seen = new HashSet<>();
      for (Fused f : byEngine) {
        if (seen.size() == perEngine) {
          break;
        }
        String d = definition.apply(f.doc());
        if (d != null && seen.add(d)) {
          kept.add(d);
        }
      }
    }
    // The definitions in the fused order, each with its chunks (only a definition's first chunk
    // can give its hit, so moving its chunks together changes no hit).
    Map<String, List<Fused>> groups = new LinkedHashMap<>();
    for (Fused f : fused) {
      String d = definition.apply(f.doc());
      groups.computeIfAbsent(d == null ? "\0" + f.doc() : d, k -> new ArrayList<>()).add(f);
    }
    if (groups.size() <= places) {
      return;
    }
    List<String> order = new ArrayList<>(groups.keySet());
    List<String> top = new ArrayList<>(order.subList(0, places));
    List<String> rest = new ArrayList<>(order.subList(places, order.size()));
    List<String> below = new ArrayList<>();
    for (String d : rest) {
      if (kept.contains(d)) {
        below.add(d);
      }
    }
    int inside = 0;
    for (String d : top) {
      if (kept.contains(d)) {
        inside++;
      }
    }
    int moving = Math.min(below.size(), places - inside);
    if (moving == 0) {
      return;
    }
    // The last definitions of the top that no engine's top claims give up their places.
    List<String> displaced = new ArrayList<>();
    for (int h = places - 1; h >= 0 && displaced.size() < moving; h--) {
      if (!kept.contains(top.get(h))) {
        displaced.add(0, top.get(h));
      }
    }
    List<String> moved = below.subList(0, moving);
    top.removeAll(displaced);
    top.addAll(moved);
    rest.removeAll(moved);
    rest.addAll(0, displaced);
    top.addAll(rest);
    fused.clear();
    double previous = Double.POSITIVE_INFINITY;
    for (String d : top) {
      List<Fused> chunks = groups.get(d);
      Fused first = chunks.get(0);
      double score = Math.min(previous, first.score());
      fused.add(score == first.score() ? first
          : new Fused(first.doc(), first.lexical(), first.semantic(), score));
      fused.addAll(chunks.subList(1, chunks.size()));
      previous = score;
    }
  }
}
