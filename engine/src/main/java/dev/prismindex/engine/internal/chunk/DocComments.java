package dev.prismindex.engine.internal.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * Attaches to each definition the comment and attribute lines right above it (tree-sitter's
 * definition node does not hold them): {@code //} and {@code ///} line comments (not Rust's inner
 * {@code //!}), block comments whose lines start with {@code /*} or {@code *} (Javadoc, JSDoc),
 * Python {@code #} comments, Rust attributes {@code #[...]} (also over several lines) and
 * {@code @} annotations or decorators written before the node. The run stops at a blank line, at
 * any other line, at the previous definition's end and at the enclosing definition's first line.
 * The definition's header line ({@link ChunkBuilder.Def#line()}) does not move.
 */
final class DocComments {

  /** How far up a multi-line Rust attribute is followed. */
  private static final int MAX_ATTRIBUTE_LINES = 30;

  private DocComments() {}

  /** {@code defs} with their starts moved up over their doc comments (children too). */
  static List<ChunkBuilder.Def> attach(List<ChunkBuilder.Def> defs, List<String> lines,
      String language) {
    return attach(defs, lines, language, 1);
  }

  private static List<ChunkBuilder.Def> attach(List<ChunkBuilder.Def> defs, List<String> lines,
      String language, int floor) {
    List<ChunkBuilder.Def> out = new ArrayList<>(defs.size());
    int lowest = floor;
    for (ChunkBuilder.Def d : defs) {
      int start = d.start() > lowest && d.start() <= lines.size() + 1
          ? up(d.start(), lowest, lines, language) : d.start();
      List<ChunkBuilder.Def> children = d.children().isEmpty() ? d.children()
          : attach(d.children(), lines, language, d.start() + 1);
      out.add(d.withStart(start, children));
      lowest = Math.max(lowest, d.end() + 1);
    }
    return out;
  }

  /** The first line of the comment/attribute run right above {@code start}, not above floor. */
  private static int up(int start, int floor, List<String> lines, String language) {
    boolean python = language.equals("python");
    boolean rust = language.equals("rust");
    int s = start;
    int i = start - 1;
    while (i >= floor) {
      String t = lines.get(i - 1).strip();
      if (t.isEmpty()) {
        break;
      }
      if (python ? t.startsWith("#") : lineComment(t, rust)) {
        s = i--;
        continue;
      }
      if (!python && t.endsWith("*/")) {
        int j = i;
        while (j >= floor && !lines.get(j - 1).strip().startsWith("/*")) {
          String u = lines.get(j - 1).strip();
          if (j != i && !u.startsWith("*")) {
            j = floor - 1;
            break;
          }
          j--;
        }
        if (j < floor) {
          break;
        }
        s = j;
        i = j - 1;
        continue;
      }
      if (rust ? t.startsWith("#[") : !python && t.startsWith("@")) {
        s = i--;
        continue;
      }
      if (rust && t.endsWith("]")) {
        int j = i - 1;
        while (j >= floor && j > i - MAX_ATTRIBUTE_LINES && !lines.get(j - 1).isBlank()
            && !lines.get(j - 1).strip().startsWith("#[")) {
          j--;
        }
        if (j >= floor && j > i - MAX_ATTRIBUTE_LINES && lines.get(j - 1).strip()
            .startsWith("#[")) {
          s = j;
          i = j - 1;
          continue;
        }
      }
      break;
    }
    return s;
  }

  private static boolean lineComment(String t, boolean rust) {
    return t.startsWith("//") && !(rust && t.startsWith("//!"));
  }
}
