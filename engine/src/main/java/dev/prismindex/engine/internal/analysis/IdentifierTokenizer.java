package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
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
 * duration}. How an identifier splits is {@link IdentifierTokens}'s.
 */
public final class IdentifierTokenizer extends Tokenizer {

  /** The longest identifier kept whole. */
  public static final int MAX_TOKEN_CHARS = 128;

  private final boolean wordsOnly;

  /** The code tokenizer: whole identifiers, their parts stacked on them. */
  public IdentifierTokenizer() {
    this(false);
  }

  private IdentifierTokenizer(boolean wordsOnly) {
    this.wordsOnly = wordsOnly;
  }

  /** A tokenizer that emits the words of identifiers (their parts) and never the whole. */
  public static IdentifierTokenizer words() {
    return new IdentifierTokenizer(true);
  }

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
  private final PositionIncrementAttribute posInc = addAttribute(PositionIncrementAttribute.class);

  private final char[] buffer = new char[4096];
  private int bufferLen;
  private int bufferPos;
  private int consumed; // chars consumed before buffer[0]
  private boolean eof;

  /** The identifier being read and its tokens. */
  private final IdentifierTokens id = new IdentifierTokens();
  private int nextToken;
  private int pendingStart;
  private int pendingEnd;
  private int finalOffset;

  @Override
  public boolean incrementToken() throws IOException {
    clearAttributes();
    if (nextToken < id.count()) {
      emit(nextToken++, wordsOnly ? 1 : 0);
      return true;
    }
    while (true) {
      int start = nextIdentifier();
      if (start < 0) {
        return false;
      }
      id.analyse(wordsOnly);
      if (id.count() == 0) {
        continue; // words mode: an identifier of underscores only has no word
      }
      pendingStart = correctOffset(start);
      pendingEnd = correctOffset(start + id.identLen);
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
    char[] ident = id.ident;
    int identLen = 0;
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
    id.identLen = identLen;
    finalOffset = correctOffset(position());
    return start;
  }

  /** The identifier {@link #nextIdentifier()} read: its chars. */
  char[] identifier() {
    return id.ident;
  }

  /** The length of the identifier {@link #nextIdentifier()} read. */
  int identifierLength() {
    return id.identLen;
  }

  /** Letters, digits and {@code _} among the ASCII characters. */
  private static final boolean[] ASCII_IDENT = new boolean[0x80];

  static {
    for (char c = 0; c < 0x80; c++) {
      ASCII_IDENT[c] = c == '_' || Character.isLetterOrDigit(c);
    }
  }

  private void emit(int token, int increment) {
    term.copyBuffer(id.chars(), id.start(token), id.end(token) - id.start(token));
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
    id.clear();
    nextToken = 0;
    finalOffset = 0;
  }

}
