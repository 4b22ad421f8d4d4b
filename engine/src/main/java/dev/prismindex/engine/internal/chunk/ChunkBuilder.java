package dev.prismindex.engine.internal.chunk;

import dev.prismindex.engine.spi.Chunk;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns definition ranges (or nothing) into bounded chunks over a file's lines.
 *
 * <p>A type with member definitions (class, interface, enum, record, impl, trait, module...) is
 * split: its header (its first lines up to its first member, doc comment included) is one chunk
 * and each member is its own chunk, recursively; the lines between members (fields, the closing
 * brace) become windows of the type. A function or method that fits the limits is one chunk with
 * its nested definitions (closures, local classes); a longer one is split at its nested
 * definitions, or cut into line windows that all carry its symbol. Tiny pieces are merged with a
 * neighbour when the result fits, but two definitions never share a chunk.
 */
final class ChunkBuilder {

  /**
   * A definition found by a parser.
   *
   * @param start 1-based first line (its doc comment and attributes included once attached)
   * @param end 1-based last line (inclusive)
   * @param line 1-based line of the definition's name (its header)
   * @param name the definition's name
   * @param container whether it is a type whose members become chunks of their own
   * @param children the definitions nested in it
   */
  record Def(int start, int end, int line, String name, boolean container, List<Def> children) {

    Def withStart(int newStart, List<Def> newChildren) {
      return new Def(newStart, end, line, name, container, newChildren);
    }
  }

  /** A chunk before merging: {@code definition} when it holds (part of) one definition. */
  private record Piece(int start, int end, List<Chunk.Symbol> symbols, @Nullable String parent,
      boolean definition) {}

  private final List<String> lines;
  private final int[] prefixChars; // prefixChars[i] = chars of lines[0..i) incl. one \n each
  private final List<Piece> out = new ArrayList<>();

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
      range(1, lines.size(), topLevel, null, null, false);
    }
    List<Chunk> chunks = new ArrayList<>();
    for (Piece p : merge(out)) {
      chunks.add(new Chunk(p.start(), p.end(), p.symbols(), p.parent(), text(p.start(), p.end())));
    }
    return chunks;
  }

  private String text(int from, int to) {
    return String.join("\n", lines.subList(from - 1, to));
  }

  private int chars(int from, int to) {
    return prefixChars[to] - prefixChars[from - 1] - 1;
  }

  private boolean fits(int from, int to) {
    return to - from + 1 <= ChunkLimits.MAX_LINES && chars(from, to) <= ChunkLimits.MAX_CHARS;
  }

  /**
   * Chunks lines {@code from..to} holding {@code defs}; the lines between them become windows
   * carrying {@code gapSymbol} (the enclosing definition) inside {@code parent}.
   */
  private void range(int from, int to, List<Def> defs, Chunk.@Nullable Symbol gapSymbol,
      @Nullable String parent, boolean gapIsDefinition) {
    int cursor = from;
    for (Def def : defs) {
      int start = Math.max(def.start(), cursor);
      int end = Math.min(def.end(), to);
      if (end < start) {
        continue;
      }
      if (start > cursor) {
        windows(cursor, start - 1, gapSymbol, parent, gapIsDefinition);
      }
      definition(start, end, def, parent);
      cursor = end + 1;
    }
    if (cursor <= to) {
      windows(cursor, to, gapSymbol, parent, gapIsDefinition);
    }
  }

  private void definition(int start, int end, Def def, @Nullable String parent) {
    Chunk.Symbol self = new Chunk.Symbol(def.name(), def.line());
    int firstMember = def.children().isEmpty() ? end + 1 : def.children().get(0).start();
    if (def.container() && !def.children().isEmpty() && firstMember > def.line()
        && firstMember > start) {
      // A type: its header, then each member on its own, the rest as windows of the type.
      int headerEnd = Math.min(firstMember - 1, end);
      windows(start, headerEnd, self, parent, true);
      range(headerEnd + 1, end, def.children(), self, def.name(), false);
    } else if (fits(start, end)) {
      List<Chunk.Symbol> symbols = new ArrayList<>();
      flatten(def, symbols);
      add(start, end, symbols, parent, true);
    } else if (!def.children().isEmpty()) {
      range(start, end, def.children(), self, parent, true);
    } else {
      windows(start, end, self, parent, true);
    }
  }

  private static void flatten(Def def, List<Chunk.Symbol> out) {
    Chunk.Symbol s = new Chunk.Symbol(def.name(), def.line());
    if (!out.contains(s)) { // a decorated Python definition and its definition share a name
      out.add(s);
    }
    for (Def child : def.children()) {
      flatten(child, out);
    }
  }

  private void windows(int from, int to, Chunk.@Nullable Symbol symbol, @Nullable String parent,
      boolean definition) {
    int start = from;
    while (start <= to) {
      int end = start;
      while (end < to && fits(start, end + 1)) {
        end++;
      }
      add(start, end, symbol == null ? List.of() : List.of(symbol), parent, definition);
      start = end + 1;
    }
  }

  private void add(int start, int end, List<Chunk.Symbol> symbols, @Nullable String parent,
      boolean definition) {
    boolean blank = true;
    for (int i = start; i <= end && blank; i++) {
      blank = lines.get(i - 1).isBlank();
    }
    if (blank) {
      return;
    }
    out.add(new Piece(start, end, symbols, parent, definition));
  }

  private boolean tiny(Piece p) {
    return p.end() - p.start() + 1 < ChunkLimits.TINY_LINES
        || chars(p.start(), p.end()) < ChunkLimits.TINY_CHARS;
  }

  /**
   * Merges neighbours when one is tiny and the result fits, unless both hold a definition. A
   * definition keeps its own symbols and parent when it absorbs a window; two windows pool theirs.
   */
  private List<Piece> merge(List<Piece> pieces) {
    List<Piece> merged = new ArrayList<>();
    Piece current = null; // NOPMD
    for (Piece next : pieces) {
      if (current != null && !(current.definition() && next.definition())
          && (tiny(current) || tiny(next)) && fits(current.start(), next.end())) {
        List<Chunk.Symbol> symbols;
        String parent;
        if (current.definition() || next.definition()) {
          Piece def = current.definition() ? current : next;
          symbols = def.symbols();
          parent = def.parent();
        } else {
          symbols = new ArrayList<>(current.symbols());
          for (Chunk.Symbol s : next.symbols()) {
            if (!symbols.contains(s)) {
              symbols.add(s);
            }
          }
          parent = current.parent() != null ? current.parent() : next.parent();
        }
        current = new Piece(current.start(), next.end(), symbols, parent,
            current.definition() || next.definition());
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
