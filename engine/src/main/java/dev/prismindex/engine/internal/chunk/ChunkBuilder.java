package dev.prismindex.engine.internal.chunk;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Turns definition ranges (or nothing) into bounded chunks over a file's lines. */
final class ChunkBuilder {

  /** A definition found by a parser: 1-based inclusive lines, name, nested definitions. */
  record Def(int start, int end, String name, List<Def> children) {}

  private final List<String> lines;
  private final int[] prefixChars; // prefixChars[i] = chars of lines[0..i) incl. one \n each
  private final List<Chunk> out = new ArrayList<>();

  ChunkBuilder(List<String> lines) {
    this.lines = lines;
    this.prefixChars = new int[lines.size() + 1];
    for (int i = 0; i < lines.size(); i++) {
      prefixChars[i + 1] = prefixChars[i] + lines.get(i).length() + 1;
    }
  }

  /** Chunks for the whole file given its top-level definitions (empty: plain windows). */
  List<Chunk> build(List<Def> topLevel) {
    if (!lines.isEmpty()) {
      range(1, lines.size(), topLevel, null, 0);
    }
    return merge(out);
  }

  private int chars(int from, int to) {
    return prefixChars[to] - prefixChars[from - 1] - 1;
  }

  private boolean fits(int from, int to) {
    return to - from + 1 <= ChunkLimits.MAX_LINES && chars(from, to) <= ChunkLimits.MAX_CHARS;
  }

  private void range(int from, int to, List<Def> defs, @Nullable String parent, int parentLine) {
    int cursor = from;
    for (Def def : defs) {
      int start = Math.max(def.start(), cursor);
      int end = Math.min(def.end(), to);
      if (end < start) {
        continue;
      }
      if (start > cursor) {
        windows(cursor, start - 1, parent, parentLine);
      }
      definition(start, end, def);
      cursor = end + 1;
    }
    if (cursor <= to) {
      windows(cursor, to, parent, parentLine);
    }
  }

  private void definition(int start, int end, Def def) {
    if (fits(start, end)) {
      List<Chunk.Symbol> symbols = new ArrayList<>();
      flatten(def, symbols);
      add(start, end, symbols);
    } else if (!def.children().isEmpty()) {
      range(start, end, def.children(), def.name(), def.start());
    } else {
      windows(start, end, def.name(), def.start());
    }
  }

  private static void flatten(Def def, List<Chunk.Symbol> out) {
    out.add(new Chunk.Symbol(def.name(), def.start()));
    for (Def child : def.children()) {
      flatten(child, out);
    }
  }

  private void windows(int from, int to, @Nullable String symbol, int symbolLine) {
    int start = from;
    while (start <= to) {
      int end = start;
      while (end < to && fits(start, end + 1)) {
        end++;
      }
      add(start, end, symbol == null ? List.of() : List.of(new Chunk.Symbol(symbol, symbolLine)));
      start = end + 1;
    }
  }

  private void add(int start, int end, List<Chunk.Symbol> symbols) {
    boolean blank = true;
    for (int i = start; i <= end && blank; i++) {
      blank = lines.get(i - 1).isBlank();
    }
    if (blank) {
      return;
    }
    out.add(new Chunk(start, end, symbols, String.join("\n", lines.subList(start - 1, end))));
  }

  private boolean tiny(Chunk c) {
    return c.endLine() - c.startLine() + 1 < ChunkLimits.TINY_LINES
        || c.text().length() < ChunkLimits.TINY_CHARS;
  }

  private List<Chunk> merge(List<Chunk> chunks) {
    List<Chunk> merged = new ArrayList<>();
    Chunk current = null; // NOPMD
    for (Chunk next : chunks) {
      if (current != null && (tiny(current) || tiny(next))
          && fits(current.startLine(), next.endLine())) {
        List<Chunk.Symbol> symbols = new ArrayList<>(current.symbols());
        for (Chunk.Symbol s : next.symbols()) {
          if (!symbols.contains(s)) {
            symbols.add(s);
          }
        }
        current = new Chunk(current.startLine(), next.endLine(), symbols,
            String.join("\n", lines.subList(current.startLine() - 1, next.endLine())));
      } else {
        if (current != null) {
          merged.add(current);
        }
        current = next;
      }
    }
    if (current != null) {
      merged.add(current);
    }
    return merged;
  }
}
