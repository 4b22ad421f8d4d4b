package dev.prismindex.engine.internal.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How one identifier splits into tokens, for {@link IdentifierTokenizer} and {@link ChunkTerms}: in code
 * mode the whole identifier lower-cased, its parts, and (with underscores and several parts) the
 * parts joined, without repeats ({@link #tokensOf}); in words mode its parts lower-cased, repeats
 * kept ({@link #wordsOf}). Parts split on {@code _}, case changes (acronym-aware) and letter/digit
 * boundaries ({@link #parts}). {@link #analyse} fills reusable arrays with the tokens of the
 * identifier in {@link #ident}, in place for ASCII. Not thread-safe: one instance per user.
 */
final class IdentifierTokens {

  /** The identifier being analysed (at most one surrogate pair past the tokenizer's cap). */
  final char[] ident = new char[IdentifierTokenizer.MAX_TOKEN_CHARS + 2];
  int identLen;
  /** The tokens of the identifier: chars in {@code tokens}, their bounds in {@code bounds}. */
  private char[] tokens = new char[4 * IdentifierTokenizer.MAX_TOKEN_CHARS];
  private final IntPairs bounds = new IntPairs(16);
  /** Part bounds of the identifier (reused). */
  private final IntPairs partBounds = new IntPairs(16);

  /**
   * Analyses {@code chars[from, from + length)}, one identifier as {@link
   * IdentifierTokenizer#nextIdentifier()} reads them, in code or words mode.
   */
  void analyse(char[] chars, int from, int length, boolean words) {
    System.arraycopy(chars, from, ident, 0, length);
    identLen = length;
    analyse(words);
  }

  /** The number of tokens of the identifier last analysed. */
  int count() {
    return bounds.size();
  }

  /** The chars of the tokens: token {@code t} is the range from {@link #start} to {@link #end}. */
  char[] chars() {
    return tokens;
  }

  int start(int t) {
    return bounds.first(t);
  }

  int end(int t) {
    return bounds.second(t);
  }

  /** Forgets the tokens (a tokenizer reset between texts). */
  void clear() {
    bounds.clear();
  }

  /**
   * Fills the token arrays with the tokens of {@code ident}: in code mode {@link #tokensOf}, in words
   * mode ({@code words}) {@link #wordsOf}. ASCII identifiers (nearly all) are split in place without
   * allocating; others go through the string methods (their lower-casing can change lengths).
   */
  void analyse(boolean words) {
    bounds.clear();
    int used = 0;
    boolean ascii = true;
    boolean underscore = false;
    for (int i = 0; i < identLen; i++) {
      char c = ident[i];
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      underscore |= c == '_';
    }
    if (!ascii) {
      String id = new String(ident, 0, identLen);
      for (String t : words ? wordsOf(id) : tokensOf(id)) {
        used = add(t.toCharArray(), 0, t.length(), used, words);
      }
      return;
    }
    int parts = asciiParts();
    if (words) {
      for (int p = 0; p < parts; p++) {
        used = addLower(partBounds.first(p), partBounds.second(p), used, false);
      }
      return;
    }
    used = addLower(0, identLen, used, true);
    for (int p = 0; p < parts; p++) {
      used = addLower(partBounds.first(p), partBounds.second(p), used, true);
    }
    if (parts > 1 && underscore) {
      int from = used;
      ensure(used + identLen);
      for (int p = 0; p < parts; p++) {
        for (int i = partBounds.first(p); i < partBounds.second(p); i++) {
          tokens[used++] = lower(ident[i]);
        }
      }
      if (!seen(from, used)) {
        bounds.add(from, used);
      } else {
        used = from;
      }
    }
  }

  /** Splits the ASCII identifier into parts, as {@link #parts} does; returns their number. */
  private int asciiParts() {
    partBounds.clear();
    int start = -1;
    int prevType = 0; // 0 none, 1 lower, 2 upper, 3 digit
    for (int i = 0; i < identLen; i++) {
      char c = ident[i];
      if (c == '_') {
        if (start >= 0) {
          partBounds.add(start, i);
          start = -1;
        }
        prevType = 0;
        continue;
      }
      int type = c >= '0' && c <= '9' ? 3 : c >= 'A' && c <= 'Z' ? 2 : 1;
      boolean boundary = false;
      if (start >= 0) {
        if ((prevType == 3) != (type == 3)) {
          boundary = true;
        } else if (prevType == 1 && type == 2) {
          boundary = true;
        } else if (prevType == 2 && type == 2 && i + 1 < identLen) {
          char next = ident[i + 1];
          boundary = next >= 'a' && next <= 'z';
        }
      }
      if (boundary) {
        partBounds.add(start, i);
        start = i;
      } else if (start < 0) {
        start = i;
      }
      prevType = type;
    }
    if (start >= 0) {
      partBounds.add(start, identLen);
    }
    return partBounds.size();
  }

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }

  /** Appends {@code ident[from, to)} lower-cased as a token (unless {@code dedupe} and seen). */
  private int addLower(int from, int to, int used, boolean dedupe) {
    ensure(used + to - from);
    int start = used;
    for (int i = from; i < to; i++) {
      tokens[used++] = lower(ident[i]);
    }
    if (dedupe && seen(start, used)) {
      return start;
    }
    bounds.add(start, used);
    return used;
  }

  private int add(char[] chars, int from, int len, int used, boolean keepRepeats) {
    ensure(used + len);
    System.arraycopy(chars, from, tokens, used, len);
    if (!keepRepeats && seen(used, used + len)) {
      return used;
    }
    bounds.add(used, used + len);
    return used + len;
  }

  /** Whether {@code tokens[start, end)} equals a token already added. */
  private boolean seen(int start, int end) {
    int len = end - start;
    for (int t = 0; t < bounds.size(); t++) {
      int from = bounds.first(t);
      int to = bounds.second(t);
      if (to - from == len && Arrays.equals(tokens, from, to, tokens, start, end)) {
        return true;
      }
    }
    return false;
  }

  private void ensure(int capacity) {
    if (capacity > tokens.length) {
      tokens = Arrays.copyOf(tokens, Math.max(capacity, tokens.length * 2));
    }
  }

  /**
   * The tokens of one identifier, in emission order and without duplicates: the whole identifier
   * lower-cased, its parts, and (when it has underscores and several parts) the parts joined.
   */
  static List<String> tokensOf(String identifier) {
    Set<String> out = new LinkedHashSet<>();
    String whole = identifier.toLowerCase(Locale.ROOT);
    out.add(whole);
    List<String> parts = parts(identifier);
    StringBuilder joined = new StringBuilder();
    for (String part : parts) {
      String lower = part.toLowerCase(Locale.ROOT);
      out.add(lower);
      joined.append(lower);
    }
    if (parts.size() > 1 && identifier.indexOf('_') >= 0) {
      out.add(joined.toString());
    }
    return new ArrayList<>(out);
  }

  /** The words of one identifier: its parts lower-cased, in order (repeats kept). */
  static List<String> wordsOf(String identifier) {
    List<String> parts = parts(identifier);
    List<String> out = new ArrayList<>(parts.size());
    for (String part : parts) {
      out.add(part.toLowerCase(Locale.ROOT));
    }
    return out;
  }

  /** The parts of an identifier: split on {@code _}, case changes (acronym-aware) and letter/digit. */
  static List<String> parts(String identifier) {
    List<String> parts = new ArrayList<>();
    int n = identifier.length();
    int start = -1;
    int prevType = 0; // 0 none, 1 lower/other letter, 2 upper, 3 digit
    for (int i = 0; i < n; ) {
      int cp = identifier.codePointAt(i);
      int width = Character.charCount(cp);
      if (cp == '_') {
        if (start >= 0) {
          parts.add(identifier.substring(start, i));
          start = -1;
        }
        prevType = 0;
        i += width;
        continue;
      }
      int type = Character.isDigit(cp) ? 3 : Character.isUpperCase(cp) ? 2 : 1;
      boolean boundary = false;
      if (start >= 0) {
        if ((prevType == 3) != (type == 3)) {
          boundary = true; // letter <-> digit
        } else if (prevType == 1 && type == 2) {
          boundary = true; // lower -> Upper
        } else if (prevType == 2 && type == 2 && i + width < n) {
          int next = identifier.codePointAt(i + width);
          if (Character.isLowerCase(next)) {
            boundary = true; // XMLHttp: boundary before H
          }
        }
      }
      if (boundary) {
        parts.add(identifier.substring(start, i));
        start = i;
      } else if (start < 0) {
        start = i;
      }
      prevType = type;
      i += width;
    }
    if (start >= 0) {
      parts.add(identifier.substring(start));
    }
    return parts;
  }
}
