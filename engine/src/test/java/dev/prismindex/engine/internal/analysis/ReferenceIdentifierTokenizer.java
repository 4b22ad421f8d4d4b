package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/**
 * The code tokenizer as it was before issue 16 (a {@code StringBuilder} per identifier, the
 * string-based {@link IdentifierTokens#tokensOf} / {@link IdentifierTokens#wordsOf}, which the new one
 * still uses for non-ASCII identifiers): the reference {@link IdentifierTokenizerEquivalenceTest}
 * compares the allocation-free tokenizer with.
 */
final class ReferenceIdentifierTokenizer extends Tokenizer {

  /** The longest identifier kept whole. */
  public static final int MAX_TOKEN_CHARS = 128;

  private final boolean wordsOnly;

  /** The code tokenizer: whole identifiers, their parts stacked on them. */
  public ReferenceIdentifierTokenizer() {
    this(false);
  }

  private ReferenceIdentifierTokenizer(boolean wordsOnly) {
    this.wordsOnly = wordsOnly;
  }

  /** A tokenizer that emits the words of identifiers (their parts) and never the whole. */
  static ReferenceIdentifierTokenizer words() {
    return new ReferenceIdentifierTokenizer(true);
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
      List<String> tokens = wordsOnly ? IdentifierTokens.wordsOf(ident.toString())
          : IdentifierTokens.tokensOf(ident.toString());
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
}
