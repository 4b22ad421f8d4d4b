package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.semantic.HybridFuser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps each engine's strongest definitions among a HYBRID search's first {@value #TOP}: the
 * first {@code reserved} definitions of the lexical ranking and of the semantic ranking that the
 * fused order leaves out of its first {@value #TOP} take its last places there (best engine rank
 * first; each engine's ranking as its own mode orders it, after the path prior), in place of the fused definitions that held them, which follow. Fusion favours what both
 * engines list; an answer only one engine ranks near its top would otherwise fall out of the first
 * page. Definitions, not chunks ({@link RankedSearch#definition}): the hits are one per
 * definition. Scores are then capped from the top down so they never rise along the list.
 */
final class EngineReserve {

  /** The page a reserve keeps the engines' strongest definitions in. */
  static final int TOP = 10;

  /**
   * Definitions of each engine kept in the first {@value #TOP}; 0 turns the reserve off. The
   * property is for measuring.
   */
  static final int RESERVED = Integer.getInteger("prism.rank.reserve", 0);

  private EngineReserve() {}

  /** The definition of a fused chunk, by its document id. */
  @FunctionalInterface
  interface Definitions {
    String of(int doc) throws IOException;
  }

  /**
   * Re-orders {@code fused} (in the fusion's order) so that each engine's first {@code reserved}
   * definitions lie among its first {@value #TOP} definitions.
   */
  static void apply(List<HybridFuser.Fused> fused, int reserved, Definitions definitions,
      List<Integer> lexicalOrder, List<Integer> semanticOrder) throws IOException {
    if (reserved <= 0 || fused.isEmpty()) {
      return;
    }
    Map<HybridFuser.Fused, String> def = new HashMap<>();
    LinkedHashSet<String> order = new LinkedHashSet<>();
    for (HybridFuser.Fused f : fused) {
      String d = definitions.of(f.doc());
      def.put(f, d);
      order.add(d);
    }
    List<String> defs = new ArrayList<>(order);
    if (defs.size() <= TOP) {
      return;
    }
    Set<String> top = new LinkedHashSet<>(defs.subList(0, TOP));
    List<String> lexical = strongest(lexicalOrder, definitions, reserved);
    List<String> semantic = strongest(semanticOrder, definitions, reserved);
    LinkedHashSet<String> missing = new LinkedHashSet<>();
    for (int i = 0; i < reserved; i++) {
      for (List<String> engine : List.of(lexical, semantic)) {
        if (i < engine.size() && !top.contains(engine.get(i))) {
          missing.add(engine.get(i));
        }
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    List<String> reordered = new ArrayList<>(defs.subList(0, TOP - missing.size()));
    reordered.addAll(missing);
    for (String d : defs) {
      if (!missing.contains(d) && reordered.size() < defs.size() && !reordered.contains(d)) {
        reordered.add(d);
      }
    }
    Map<String, Integer> slot = new HashMap<>();
    for (int i = 0; i < reordered.size(); i++) {
      slot.put(reordered.get(i), i);
    }
    fused.sort(Comparator.comparingInt(f -> slot.get(def.get(f)))); // stable
    double cap = Double.POSITIVE_INFINITY;
    for (int i = 0; i < fused.size(); i++) {
      HybridFuser.Fused f = fused.get(i);
      if (f.score() > cap) {
        fused.set(i, new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), cap));
      } else {
        cap = f.score();
      }
    }
  }

  /** The first {@code n} distinct definitions of one engine's ranking (document ids, in order). */
  private static List<String> strongest(List<Integer> order, Definitions definitions, int n)
      throws IOException {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (int doc : order) {
      if (out.size() == n) {
        break;
      }
      out.add(definitions.of(doc));
    }
    return new ArrayList<>(out);
  }
}
