package dev.prismindex.engine.internal.chunk;

import dev.prismindex.engine.spi.Chunk;
import org.jspecify.annotations.Nullable;

/**
 * The text the embedding model sees for a chunk (its vector key is the BLAKE3 of exactly this
 * text, so the embedding cache stays exact and deterministic). By default ({@link
 * Variant#CONTEXT_SPLIT}) a short context header, then the chunk's text with its identifiers split
 * into words, then the original text when all of it stays within about {@value #BOTH_MAX_CHARS}
 * characters (the bundled model reads only the first 64 word pieces, about 200 characters):
 *
 * <pre>
 * path: src/runtime/task/join.rs
 * in: join handle
 * symbol: abort handle
 * signature: pub fn abort_handle(&amp;self) -&gt; AbortHandle {
 * ...the chunk, identifiers split: pub fn abort handle(&amp;self) -&gt; abort handle {...
 * </pre>
 *
 * <p>{@code in:} is the enclosing type, {@code symbol:} the chunk's main definition, both split
 * into words ({@code getEntryCount}, {@code get_entry_count} and {@code GetEntryCount} all become
 * {@code get entry count}); {@code signature:} the definition's header line, when the chunk holds
 * it. Queries are embedded as they are.
 *
 * <p>Other variants exist only to measure them with the quality benchmark: the system property
 * {@code prism.embedText} = {@code raw} (the chunk text alone), {@code context} (header
 * and the original text), {@code context-split} (the default), {@code signature} (the header
 * alone). The variant changes the texts and so the keys: an index built with one variant re-embeds
 * every chunk under another.
 */
public final class EmbedText {

  /** What is embedded for a chunk. */
  public enum Variant {
    RAW, CONTEXT, CONTEXT_SPLIT, SIGNATURE;

    /** The variant named by {@code name} ({@code context-split}), the default when unknown. */
    static Variant parse(String name) {
      for (Variant v : values()) {
        if (v.name().replace('_', '-').equalsIgnoreCase(name.strip())) {
          return v;
        }
      }
      return CONTEXT_SPLIT;
    }
  }

  /** The variant of this process: {@code -Dprism.embedText=raw|context|context-split|signature}. */
  public static final Variant VARIANT =
      Variant.parse(System.getProperty("prism.embedText", "context-split"));

  /** Split and original text both are embedded only while the whole stays within this size. */
  static final int BOTH_MAX_CHARS = 1200;

  /** Room for the header's labels, the parent's and the symbol's words and the signature. */
  private static final int HEADER_CHARS = 256;

  private EmbedText() {}

  /** The text embedded for {@code chunk} of the file at repository-relative {@code path}. */
  public static String of(String path, Chunk chunk) {
    return of(path, chunk, VARIANT);
  }

  static String of(String path, Chunk chunk, Variant variant) {
    if (variant == Variant.RAW) {
      return chunk.text();
    }
    // Room for the header, the split text (a space per split) and the text when both fit: grown from
    // the default, the builder was copied several times per chunk.
    int n = chunk.text().length();
    int room = HEADER_CHARS + path.length() + n + Math.min(n, BOTH_MAX_CHARS);
    StringBuilder header = new StringBuilder(room).append("path: ").append(path);
    if (chunk.parent() != null) {
      header.append("\nin: ").append(words(chunk.parent()));
    }
    Chunk.Symbol primary = chunk.primary();
    if (primary != null) {
      header.append("\nsymbol: ").append(words(primary.name()));
      if (chunk.hasHeader()) {
        String signature = line(chunk.text(), primary.line() - chunk.startLine());
        if (signature != null && !signature.isBlank()) {
          header.append("\nsignature: ").append(signature.strip());
        }
      }
    }
    switch (variant) {
      case SIGNATURE:
        return header.toString();
      case CONTEXT:
        return header.append('\n').append(chunk.text()).toString();
      default:
        header.append('\n');
        boolean split = splitIdentifiers(chunk.text(), header);
        if (split && header.length() + 1 + chunk.text().length() <= BOTH_MAX_CHARS) {
          header.append('\n').append(chunk.text());
        }
        return header.toString();
    }
  }

  /**
   * Line {@code index} (0-based) of {@code text} as {@link String#lines()} counts them (ended by
   * {@code \n}, {@code \r} or {@code \r\n}; no line after a final terminator), or null.
   */
  static @Nullable String line(String text, int index) {
    int n = text.length();
    int start = 0;
    for (int k = 0; start < n && index >= 0; k++) {
      int end = start;
      while (end < n && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
        end++;
      }
      if (k == index) {
        return text.substring(start, end);
      }
      start = end + (end + 1 < n && text.charAt(end) == '\r' && text.charAt(end + 1) == '\n'
          ? 2 : 1);
    }
    return null;
  }

  /** {@code name} split into lower-case words ({@code JoinHandle<T>} becomes {@code join handle t}). */
  static String words(String name) {
    char[] s = name.toCharArray();
    char[] out = new char[2 * s.length];
    int length = split(s, out, true);
    return length < 0 ? name : new String(out, 0, length);
  }

  /**
   * {@code text} with every identifier of two words or more replaced by its lower-case words.
   * Identifiers are {@code [A-Za-z_$][A-Za-z0-9_$]*}; words are split at lower-or-digit to upper
   * ({@code getX}), before the last upper of an upper run followed by a lower ({@code XMLHttp}), and
   * at runs of {@code _} and {@code $} (dropped). A hand-written scanner: the regular expressions
   * it replaced were an eighth of the lexical indexing time.
   */
  static String splitIdentifiers(String text) {
    StringBuilder out = new StringBuilder(text.length() + 64);
    return splitIdentifiers(text, out) ? out.toString() : text;
  }

  /**
   * Appends {@link #splitIdentifiers(String) text with its identifiers split} to {@code out};
   * returns whether any identifier was split (the appended text then differs from {@code text}).
   */
  private static boolean splitIdentifiers(String text, StringBuilder out) {
    char[] split = new char[2 * text.length()];
    int length = split(text.toCharArray(), split, false);
    if (length < 0) {
      out.append(text);
      return false;
    }
    out.append(split, 0, length);
    return true;
  }

  /**
   * The one walk over the identifiers of {@code s}: writes into {@code out} the lower-case words of
   * each identifier, space-separated, either of every identifier with the text between them
   * dropped ({@code every}: {@link #words}), or of those of two words or more only, with the rest
   * of the text kept ({@link #splitIdentifiers(String)}). Returns the length written, or -1 when no
   * identifier was split. It reads and writes arrays (a string's {@code charAt} and a builder's
   * {@code append} check their coder on every call): an identifier's words take at most twice its
   * characters, so {@code out} holds twice the length of {@code s}.
   */
  private static int split(char[] s, char[] out, boolean every) {
    int n = s.length;
    int at = 0;
    int last = 0; // the end of the last identifier split; 0 before the first
    for (int i = 0; i < n; ) {
      if (!identStart(s[i])) {
        i++;
        continue;
      }
      int end = identEnd(s, i);
      if (hasWords(s, i, end, every ? 1 : 2)) {
        if (!every) {
          System.arraycopy(s, last, out, at, i - last);
          at += i - last;
        }
        at = appendWords(s, i, end, out, at, every && last > 0);
        last = end;
      }
      i = end;
    }
    if (last == 0) {
      return -1;
    }
    if (!every) {
      System.arraycopy(s, last, out, at, n - last);
      at += n - last;
    }
    return at;
  }

  private static boolean identStart(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$';
  }

  private static int identEnd(char[] s, int from) {
    int i = from + 1;
    while (i < s.length && (identStart(s[i]) || digit(s[i]))) {
      i++;
    }
    return i;
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean upper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  private static boolean lower(char c) {
    return c >= 'a' && c <= 'z';
  }

  /**
   * Whether a word of the identifier {@code s[from, to)} starts at {@code i}: a character that is
   * not a separator, first or after one, or at a case boundary ({@code getX}, {@code XMLHttp}).
   */
  private static boolean wordStart(char[] s, int i, int from, int to) {
    if (separator(s[i])) {
      return false;
    }
    if (i == from || separator(s[i - 1])) {
      return true;
    }
    char prev = s[i - 1];
    char c = s[i];
    return (lower(prev) || digit(prev)) && upper(c)
        || upper(prev) && upper(c) && i + 1 < to && lower(s[i + 1]);
  }

  private static boolean separator(char c) {
    return c == '_' || c == '$';
  }

  /** Whether the identifier {@code s[from, to)} has at least {@code min} words. */
  private static boolean hasWords(char[] s, int from, int to, int min) {
    int words = 0;
    for (int i = from; i < to && words < min; i++) {
      if (wordStart(s, i, from, to)) {
        words++;
      }
    }
    return words >= min;
  }

  /**
   * Writes the words of {@code s[from, to)}, lower-cased, space-separated (after a space when
   * {@code space}), into {@code out} from {@code at} on; returns where they end.
   */
  private static int appendWords(char[] s, int from, int to, char[] out, int at, boolean space) {
    boolean first = !space;
    for (int i = from; i < to; i++) {
      char c = s[i];
      if (separator(c)) {
        continue;
      }
      if (wordStart(s, i, from, to)) {
        if (!first) {
          out[at++] = ' ';
        }
        first = false;
      }
      out[at++] = upper(c) ? (char) (c + ('a' - 'A')) : c;
    }
    return at;
  }
}
