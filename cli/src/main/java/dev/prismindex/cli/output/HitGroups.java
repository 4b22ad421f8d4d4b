package dev.prismindex.cli.output;

import dev.prismindex.engine.Hit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Ranked hits with their context grouped grep's way: the hits of one file whose lines overlap or
 * touch form one group, each line once (a line that is a hit is one, also inside another hit's
 * context); groups in the order of their best hit, lines in file order.
 */
final class HitGroups {

  private HitGroups() {}

  /** One line of a group: its text, and the hit whose line it is (null for context). */
  record GroupLine(String text, @Nullable Hit hit) {}

  /** The lines of one file around hits whose contexts overlap or touch. */
  static final class Group {
    final String path;
    int rank;
    final TreeMap<Integer, GroupLine> lines = new TreeMap<>();
    int end;

    Group(String path, int rank) {
      this.path = path;
      this.rank = rank;
    }

    void add(Hit h, int hitRank) {
      rank = Math.min(rank, hitRank);
      Hit.Context c = h.context();
      String text = c == null ? h.snippet() : c.text();
      GroupLine existing = lines.get(h.line());
      if (existing == null || existing.hit() == null) {
        lines.put(h.line(), new GroupLine(text, h));
      }
      if (c != null) {
        for (int i = 0; i < c.before().size(); i++) {
          lines.putIfAbsent(h.line() - c.before().size() + i, new GroupLine(c.before().get(i),
              null));
        }
        for (int i = 0; i < c.after().size(); i++) {
          lines.putIfAbsent(h.line() + 1 + i, new GroupLine(c.after().get(i), null));
        }
      }
      end = Math.max(end, h.line() + (c == null ? 0 : c.after().size()));
    }
  }

  /** The groups of {@code hits} (in rank order), the group of the best hit first. */
  static List<Group> of(List<Hit> hits) {
    List<Group> groups = new ArrayList<>();
    Map<String, List<Integer>> byPath = new LinkedHashMap<>();
    for (int i = 0; i < hits.size(); i++) {
      byPath.computeIfAbsent(HumanPrinter.shown(hits.get(i)), k -> new ArrayList<>()).add(i);
    }
    for (Map.Entry<String, List<Integer>> e : byPath.entrySet()) {
      List<Integer> ranks = new ArrayList<>(e.getValue());
      ranks.sort(Comparator.comparingInt((Integer i) -> hits.get(i).line()));
      Group current = null;
      for (int rank : ranks) {
        Hit h = hits.get(rank);
        Hit.Context c = h.context();
        int start = h.line() - (c == null ? 0 : c.before().size());
        if (current == null || start > current.end + 1) {
          current = new Group(e.getKey(), rank);
          groups.add(current);
        }
        current.add(h, rank);
      }
    }
    groups.sort(Comparator.comparingInt(g -> g.rank));
    return groups;
  }
}
