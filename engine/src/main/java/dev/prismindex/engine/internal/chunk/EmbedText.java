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
    int n = s.length;
    char[] out = new char[2 * n];
    int at = 0;
    int words = 0;
    for (int i = 0; i < n; ) {
      if (!identStart(s[i])) {
        i++;
        continue;
      }
      int end = identEnd(s, i);
      at = appendWords(s, i, end, out, at, words > 0);
      words += wordCount(s, i, end);
      i = end;
    }
    return words == 0 ? name : new String(out, 0, at);
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
   * It reads and writes arrays (a string's {@code charAt} and a builder's {@code append} check
   * their coder on every call): an identifier's words take at most twice its characters.
   */
  private static boolean splitIdentifiers(String text, StringBuilder out) {
    char[] s = text.toCharArray();
    int n = s.length;
    char[] split = null;
    int at = 0;
    int last = 0;
    for (int i = 0; i < n; ) {
      if (!identStart(s[i])) {
        i++;
        continue;
      }
      int end = identEnd(s, i);
      if (wordCount(s, i, end) >= 2) {
        if (split == null) {
          split = new char[2 * n];
        }
        System.arraycopy(s, last, split, at, i - last);
        at = appendWords(s, i, end, split, at + i - last, false);
        last = end;
      }
      i = end;
    }
    if (split == null) {
      out.append(text);
      return false;
    }
    System.arraycopy(s, last, split, at, n - last);
    out.append(split, 0, at + n - last);
    return true;
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

  /** Whether a word starts at {@code i} (not the first char) of the identifier ending at end. */
  private static boolean boundary(char[] s, int i, int end) {
    char prev = s[i - 1];
    char c = s[i];
    return (lower(prev) || digit(prev)) && upper(c)
        || upper(prev) && upper(c) && i + 1 < end && lower(s[i + 1]);
  }

  private static boolean separator(char c) {
    return c == '_' || c == '$';
  }

  /** The number of words of the identifier {@code s[from, to)}. */
  private static int wordCount(char[] s, int from, int to) {
    int words = 0;
    boolean inWord = false;
    for (int i = from; i < to; i++) {
      char c = s[i];
      if (separator(c)) {
        inWord = false;
      } else if (!inWord || i > from && boundary(s, i, to)) {
        words++;
        inWord = true;
      }
    }
    return words;
  }

  /**
   * Writes the words of {@code s[from, to)}, lower-cased, space-separated (after a space when
   * {@code space}), into {@code out} from {@code at} on; returns where they end.
   */
  private static int appendWords(char[] s, int from, int to, char[] out, int at, boolean space) {
    int words = 0;
    boolean inWord = false;
    for (int i = from; i < to; i++) {
      char c = s[i];
      if (separator(c)) {
        inWord = false;
        continue;
      }
      if (!inWord || i > from && boundary(s, i, to)) {
        if (space || words > 0) {
          out[at++] = ' ';
        }
        words++;
        inWord = true;
      }
      out[at++] = upper(c) ? (char) (c + ('a' - 'A')) : c;
    }
    return at;
  }
}
