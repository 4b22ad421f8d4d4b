package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/**
 * Splits text into identifiers (runs of letters, digits and {@code _}) and emits, for each, the whole
 * identifier lower-cased, then its parts: {@code XMLHttpRequest} gives {@code xmlhttprequest, xml,
 * http, request}; {@code parse_duration} gives {@code parse_duration, parse, duration,
 * parseduration}; {@code utf8Decoder} gives {@code utf8decoder, utf, 8, decoder}. Parts are stacked
 * on the whole identifier's position. Everything else (punctuation, control characters) separates
 * tokens and is dropped, so no input can fail. Identifiers longer than {@value #MAX_TOKEN_CHARS}
 * UTF-16 units are cut into pieces of that length.
 *
 * <p>In words mode ({@link #words()}, the start of prose analysis) each identifier gives only its
 * parts, lower-cased, each at its own position: {@code parseDuration} gives {@code parse,
 * duration}.
 */
public final class CodeTokenizer extends Tokenizer {

  /** The longest identifier kept whole. */
  public static final int MAX_TOKEN_CHARS = 128;

  private final boolean wordsOnly;

  /** The code tokenizer: whole identifiers, their parts stacked on them. */
  public CodeTokenizer() {
    this(false);
  }

  private CodeTokenizer(boolean wordsOnly) {
    this.wordsOnly = wordsOnly;
  }

  /** A tokenizer that emits the words of identifiers (their parts) and never the whole. */
  public static CodeTokenizer words() {
    return new CodeTokenizer(true);
  }

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
  private final PositionIncrementAttribute posInc = addAttribute(PositionIncrementAttribute.class);

  private final char[] buffer = new char[4096];
  private int bufferLen;
  private int bufferPos;
  private int consumed; // chars consumed before buffer[0]
  private boolean eof;

  /** The identifier being analysed (at most one surrogate pair past the cap). */
  private final char[] ident = new char[MAX_TOKEN_CHARS + 2];
  private int identLen;
  /** The tokens of the current identifier: chars in {@code tokens}, bounds in starts / ends. */
  private char[] tokens = new char[4 * MAX_TOKEN_CHARS];
  private int[] starts = new int[16];
  private int[] ends = new int[16];
  private int tokenCount;
  private int nextToken;
  /** Part bounds of the current identifier (reused). */
  private int[] partStarts = new int[16];
  private int[] partEnds = new int[16];
  private int pendingStart;
  private int pendingEnd;
  private int finalOffset;

  @Override
  public boolean incrementToken() throws IOException {
    clearAttributes();
    if (nextToken < tokenCount) {
      emit(nextToken++, wordsOnly ? 1 : 0);
      return true;
    }
    while (true) {
      int start = nextIdentifier();
      if (start < 0) {
        return false;
      }
      analyse(wordsOnly);
      if (tokenCount == 0) {
        continue; // words mode: an identifier of underscores only has no word
      }
      pendingStart = correctOffset(start);
      pendingEnd = correctOffset(start + identLen);
      nextToken = 1;
      emit(0, 1);
      return true;
    }
  }

  /**
   * Reads the next identifier of the input into {@link #identifier()} ({@link
   * #identifierLength()} chars) and returns the offset of its first char, or -1 at the end.
   */
  int nextIdentifier() throws IOException {
    identLen = 0;
    int start = -1;
    while (true) {
      int c = read();
      if (c < 0) {
        break;
      }
      char ch = (char) c;
      boolean identChar;
      if (ch < 0x80) {
        identChar = ASCII_IDENT[ch];
      } else if (Character.isHighSurrogate(ch)) {
        int low = peek();
        if (low >= 0 && Character.isLowSurrogate((char) low)) {
          read();
          int cp = Character.toCodePoint(ch, (char) low);
          if (Character.isLetterOrDigit(cp)) {
            if (start < 0) {
              start = position() - 2;
            }
            ident[identLen++] = ch;
            ident[identLen++] = (char) low;
            if (identLen >= MAX_TOKEN_CHARS) {
              break;
            }
            continue;
          } else if (start >= 0) {
            break;
          }
          continue;
        }
        identChar = false;
      } else {
        identChar = Character.isLetterOrDigit(ch);
      }
      if (identChar) {
        if (start < 0) {
          start = position() - 1;
        }
        ident[identLen++] = ch;
        if (identLen >= MAX_TOKEN_CHARS) {
          break;
        }
      } else if (start >= 0) {
        break;
      }
    }
    finalOffset = correctOffset(position());
    return start;
  }

  /** The identifier {@link #nextIdentifier()} read, or the one last analysed. */
  char[] identifier() {
    return ident;
  }

  int identifierLength() {
    return identLen;
  }

  /**
   * Analyses {@code chars[from, from + length)}, one identifier as {@link #nextIdentifier()} reads
   * them, in code or words mode: its tokens are then {@link #tokenCount()} and {@link
   * #tokenChars()}.
   */
  void analyse(char[] chars, int from, int length, boolean words) {
    System.arraycopy(chars, from, ident, 0, length);
    identLen = length;
    analyse(words);
  }

  /** The number of tokens of the identifier last analysed. */
  int tokenCount() {
    return tokenCount;
  }

  /**
   * The chars of the tokens of the identifier last analysed: token {@code t} is the range from
   * {@link #tokenStart} to {@link #tokenEnd}.
   */
  char[] tokenChars() {
    return tokens;
  }

  int tokenStart(int t) {
    return starts[t];
  }

  int tokenEnd(int t) {
    return ends[t];
  }

  /** Letters, digits and {@code _} among the ASCII characters. */
  private static final boolean[] ASCII_IDENT = new boolean[0x80];

  static {
    for (char c = 0; c < 0x80; c++) {
      ASCII_IDENT[c] = c == '_' || Character.isLetterOrDigit(c);
    }
  }

  /**
   * Fills the token arrays with the tokens of {@code ident}: in code mode {@link #tokensOf}, in words
   * mode ({@code words}) {@link #wordsOf}. ASCII identifiers (nearly all) are split in place without
   * allocating; others go through the string methods (their lower-casing can change lengths).
   */
  private void analyse(boolean words) {
    tokenCount = 0;
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
        used = addLower(partStarts[p], partEnds[p], used, false);
      }
      return;
    }
    used = addLower(0, identLen, used, true);
    for (int p = 0; p < parts; p++) {
      used = addLower(partStarts[p], partEnds[p], used, true);
    }
    if (parts > 1 && underscore) {
      int from = used;
      ensure(used + identLen);
      for (int p = 0; p < parts; p++) {
        for (int i = partStarts[p]; i < partEnds[p]; i++) {
          tokens[used++] = lower(ident[i]);
        }
      }
      if (!seen(from, used)) {
        push(from, used);
      } else {
        used = from;
      }
    }
  }

  /** Splits the ASCII identifier into parts, as {@link #parts} does; returns their number. */
  private int asciiParts() {
    int count = 0;
    int start = -1;
    int prevType = 0; // 0 none, 1 lower, 2 upper, 3 digit
    for (int i = 0; i < identLen; i++) {
      char c = ident[i];
      if (c == '_') {
        if (start >= 0) {
          count = part(count, start, i);
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
        count = part(count, start, i);
        start = i;
      } else if (start < 0) {
        start = i;
      }
      prevType = type;
    }
    if (start >= 0) {
      count = part(count, start, identLen);
    }
    return count;
  }

  private int part(int count, int start, int end) {
    if (count == partStarts.length) {
      partStarts = Arrays.copyOf(partStarts, count * 2);
      partEnds = Arrays.copyOf(partEnds, count * 2);
    }
    partStarts[count] = start;
    partEnds[count] = end;
    return count + 1;
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
    push(start, used);
    return used;
  }

  private int add(char[] chars, int from, int len, int used, boolean keepRepeats) {
    ensure(used + len);
    System.arraycopy(chars, from, tokens, used, len);
    if (!keepRepeats && seen(used, used + len)) {
      return used;
    }
    push(used, used + len);
    return used + len;
  }

  /** Whether {@code tokens[start, end)} equals a token already added. */
  private boolean seen(int start, int end) {
    int len = end - start;
    for (int t = 0; t < tokenCount; t++) {
      if (ends[t] - starts[t] == len
          && Arrays.equals(tokens, starts[t], ends[t], tokens, start, end)) {
        return true;
      }
    }
    return false;
  }

  private void push(int start, int end) {
    if (tokenCount == starts.length) {
      starts = Arrays.copyOf(starts, tokenCount * 2);
      ends = Arrays.copyOf(ends, tokenCount * 2);
    }
    starts[tokenCount] = start;
    ends[tokenCount] = end;
    tokenCount++;
  }

  private void ensure(int capacity) {
    if (capacity > tokens.length) {
      tokens = Arrays.copyOf(tokens, Math.max(capacity, tokens.length * 2));
    }
  }

  private void emit(int token, int increment) {
    term.copyBuffer(tokens, starts[token], ends[token] - starts[token]);
    offset.setOffset(pendingStart, pendingEnd);
    posInc.setPositionIncrement(increment);
  }

  private int position() {
    return consumed + bufferPos;
  }

  private int read() throws IOException {
    if (bufferPos >= bufferLen && !fill()) {
      return -1;
    }
    return buffer[bufferPos++];
  }

  private int peek() throws IOException {
    if (bufferPos >= bufferLen && !fill()) {
      return -1;
    }
    return buffer[bufferPos];
  }

  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    consumed += bufferLen;
    bufferPos = 0;
    bufferLen = 0;
    int n = input.read(buffer, 0, buffer.length);
    if (n <= 0) {
      eof = true;
      return false;
    }
    bufferLen = n;
    return true;
  }

  @Override
  public void end() throws IOException {
    super.end();
    offset.setOffset(finalOffset, finalOffset);
  }

  @Override
  public void reset() throws IOException {
    super.reset();
    bufferLen = 0;
    bufferPos = 0;
    consumed = 0;
    eof = false;
    tokenCount = 0;
    nextToken = 0;
    finalOffset = 0;
  }

  /**
   * The tokens of one identifier, in emission order and without duplicates: the whole identifier
   * lower-cased, its parts, and (when it has underscores and several parts) the parts joined.
   */
  public static List<String> tokensOf(String identifier) {
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
  public static List<String> wordsOf(String identifier) {
    List<String> parts = parts(identifier);
    List<String> out = new ArrayList<>(parts.size());
    for (String part : parts) {
      out.add(part.toLowerCase(Locale.ROOT));
    }
    return out;
  }

  /** The parts of an identifier: split on {@code _}, case changes (acronym-aware) and letter/digit. */
  public static List<String> parts(String identifier) {
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
