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

  private EmbedText() {}

  /** The text embedded for {@code chunk} of the file at repository-relative {@code path}. */
  public static String of(String path, Chunk chunk) {
    return of(path, chunk, VARIANT);
  }

  static String of(String path, Chunk chunk, Variant variant) {
    if (variant == Variant.RAW) {
      return chunk.text();
    }
    StringBuilder header = new StringBuilder("path: ").append(path);
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
    StringBuilder out = new StringBuilder(name.length() + 8);
    int n = name.length();
    int words = 0;
    for (int i = 0; i < n; ) {
      if (!identStart(name.charAt(i))) {
        i++;
        continue;
      }
      int end = identEnd(name, i);
      words += appendWords(name, i, end, out, words > 0);
      i = end;
    }
    return words == 0 ? name : out.toString();
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
    int n = text.length();
    boolean split = false;
    int last = 0;
    for (int i = 0; i < n; ) {
      if (!identStart(text.charAt(i))) {
        i++;
        continue;
      }
      int end = identEnd(text, i);
      if (splits(text, i, end)) {
        out.append(text, last, i);
        appendWords(text, i, end, out, false);
        last = end;
        split = true;
      }
      i = end;
    }
    out.append(text, last, n);
    return split;
  }

  private static boolean identStart(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$';
  }

  private static int identEnd(String s, int from) {
    int i = from + 1;
    while (i < s.length() && (identStart(s.charAt(i)) || digit(s.charAt(i)))) {
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

  /** Whether a word starts at {@code i} (not the first char) of the identifier ending at end. */
  private static boolean boundary(String s, int i, int end) {
    char prev = s.charAt(i - 1);
    char c = s.charAt(i);
    return (lower(prev) || digit(prev)) && upper(c)
        || upper(prev) && upper(c) && i + 1 < end && lower(s.charAt(i + 1));
  }

  private static boolean separator(char c) {
    return c == '_' || c == '$';
  }

  /** Whether the identifier {@code s[from, to)} has two words or more. */
  private static boolean splits(String s, int from, int to) {
    return appendWords(s, from, to, null, false) >= 2;
  }

  /**
   * Appends the words of {@code s[from, to)}, lower-cased, space-separated, to {@code out} (when
   * not null); returns how many there are.
   */
  private static int appendWords(String s, int from, int to, @Nullable StringBuilder out,
      boolean space) {
    int words = 0;
    boolean inWord = false;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (separator(c)) {
        inWord = false;
        continue;
      }
      if (!inWord || i > from && boundary(s, i, to)) {
        if (out != null && (space || words > 0)) {
          out.append(' ');
        }
        words++;
        inWord = true;
      }
      if (out != null) {
        out.append(upper(c) ? (char) (c + ('a' - 'A')) : c);
      }
    }
    return words;
  }
}
