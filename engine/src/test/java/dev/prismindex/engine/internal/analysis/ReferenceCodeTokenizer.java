package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
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
final class ReferenceCodeTokenizer extends Tokenizer {

  /** The longest identifier kept whole. */
  public static final int MAX_TOKEN_CHARS = 128;

  private final boolean wordsOnly;

  /** The code tokenizer: whole identifiers, their parts stacked on them. */
  public ReferenceCodeTokenizer() {
    this(false);
  }

  private ReferenceCodeTokenizer(boolean wordsOnly) {
    this.wordsOnly = wordsOnly;
  }

  /** A tokenizer that emits the words of identifiers (their parts) and never the whole. */
  static ReferenceCodeTokenizer words() {
    return new ReferenceCodeTokenizer(true);
  }

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
  private final PositionIncrementAttribute posInc = addAttribute(PositionIncrementAttribute.class);

  private final char[] buffer = new char[4096];
  private int bufferLen;
  private int bufferPos;
  private int consumed; // chars consumed before buffer[0]
  private boolean eof;

  private final ArrayDeque<String> pending = new ArrayDeque<>();
  private int pendingStart;
  private int pendingEnd;
  private int finalOffset;

  @Override
  public boolean incrementToken() throws IOException {
    clearAttributes();
    if (!pending.isEmpty()) {
      emit(pending.poll(), wordsOnly ? 1 : 0);
      return true;
    }
    while (true) {
      StringBuilder ident = new StringBuilder();
      int start = -1;
      while (true) {
        int c = read();
        if (c < 0) {
          break;
        }
        char ch = (char) c;
        boolean identChar;
        if (Character.isHighSurrogate(ch)) {
          int low = peek();
          if (low >= 0 && Character.isLowSurrogate((char) low)) {
            read();
            int cp = Character.toCodePoint(ch, (char) low);
            identChar = Character.isLetterOrDigit(cp);
            if (identChar) {
              if (start < 0) {
                start = position() - 2;
              }
              ident.append(ch).append((char) low);
              if (ident.length() >= MAX_TOKEN_CHARS) {
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
          identChar = ch == '_' || Character.isLetterOrDigit(ch);
        }
        if (identChar) {
          if (start < 0) {
            start = position() - 1;
          }
          ident.append(ch);
          if (ident.length() >= MAX_TOKEN_CHARS) {
            break;
          }
        } else if (start >= 0) {
          break;
        }
      }
      finalOffset = correctOffset(position());
      if (start < 0) {
        return false;
      }
      List<String> tokens = wordsOnly ? wordsOf(ident.toString()) : tokensOf(ident.toString());
      if (tokens.isEmpty()) {
        continue; // words mode: an identifier of underscores only has no word
      }
      pendingStart = correctOffset(start);
      pendingEnd = correctOffset(start + ident.length());
      for (int i = 1; i < tokens.size(); i++) {
        pending.add(tokens.get(i));
      }
      emit(tokens.get(0), 1);
      return true;
    }
  }

  private void emit(String token, int increment) {
    term.setEmpty().append(token);
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
    pending.clear();
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
