package dev.prismindex.internal.regex;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Parses a pattern in the syntax ripgrep accepts (RE2's, as Rust's {@code regex} crate spells it)
 * into a {@link Node} tree with ripgrep's meaning: Unicode classes ({@code \w}, {@code \d},
 * {@code \s}, {@code \pL}, {@code [[:alpha:]]} ASCII), simple case folding under {@code (?i)}
 * applied to a class before it is negated, class set operations ({@code &&}, {@code --},
 * {@code ~~}, nested brackets), the flags {@code i m s U x} ({@code u} is always on), and lines as
 * the haystack: {@code ^}/{@code \A} and {@code $}/{@code \z} anchor at the line's ends, and no
 * class or dot ever matches the line terminator (LF), as ripgrep strips it from every class; a
 * pattern naming it alone is an error. A CR is an ordinary character, as it is to ripgrep.
 *
 * <p>Beyond ripgrep 13 it also accepts RE2's {@code \Q...\E}, {@code (?<name>...)}, any escaped
 * ASCII punctuation, and a <code>&#123;</code> that starts no repetition as a literal. It refuses what no
 * linear-time matcher can do (look-around, backreferences) with an error naming it. Capture
 * groups only group: nothing reports their positions.
 */
public final class RegexParser {

  /** The deepest nesting of groups and classes. */
  static final int NEST_LIMIT = 250;
  /** The largest repetition count. */
  static final int MAX_COUNT = 10_000;

  private static final CodePointSet LINE_TERMINATORS = CodePointSet.single('\n');

  private final PatternCursor in;
  private final ClassParser classes;

  private RegexParser(String pattern) {
    this.in = new PatternCursor(pattern);
    this.classes = new ClassParser(in);
  }

  /**
   * The tree of {@code pattern}.
   *
   * @param caseInsensitive whether the whole pattern starts as {@code (?i)}
   * @throws RegexSyntaxException when the pattern does not parse or asks for something unsupported
   */
  public static Node parse(String pattern, boolean caseInsensitive) {
    RegexParser p = new RegexParser(pattern);
    RegexFlags flags = new RegexFlags();
    flags.caseInsensitive = caseInsensitive;
    return p.parseTop(flags);
  }

  /**
   * ripgrep's smart case ({@code -S}): whether {@code pattern} is to be matched case-insensitively,
   * that is, whether it has a literal character and none of them is upper case ({@code foo},
   * {@code \w+_id}: yes; {@code Foo}, {@code \pL}, {@code \w+}: no). Escapes that name a
   * character ({@code \x41}) count as literals, classes ({@code \pL}) do not.
   *
   * @throws RegexSyntaxException when the pattern does not parse
   */
  public static boolean smartCaseInsensitive(String pattern) {
    RegexParser p = new RegexParser(pattern);
    p.parseTop(new RegexFlags());
    return p.in.anyLiteral && !p.in.anyUppercase;
  }

  private Node parseTop(RegexFlags flags) {
    Node n = parseAlternation(flags, false);
    if (in.pos < in.pattern.length()) {
      throw in.error(in.pos, "unopened group: ')' without '('");
    }
    return n;
  }

  private Node parseAlternation(RegexFlags flags, boolean inGroup) {
    List<Node> branches = new ArrayList<>();
    List<Node> concat = new ArrayList<>();
    while (true) {
      in.skipVerbose(flags);
      if (in.eof()) {
        break;
      }
      int cp = in.peek();
      if (cp == '|') {
        in.next();
        branches.add(concat(concat));
        concat = new ArrayList<>();
        continue;
      }
      if (cp == ')') {
        if (inGroup) {
          break;
        }
        throw in.error(in.pos, "unopened group: ')' without '('");
      }
      parseRepeated(flags, concat);
    }
    branches.add(concat(concat));
    return branches.size() == 1 ? branches.get(0) : new Node.Alternate(branches);
  }

  private static Node concat(List<Node> items) {
    if (items.isEmpty()) {
      return new Node.Empty();
    }
    return items.size() == 1 ? items.get(0) : new Node.Concat(items);
  }

  /** Parses one atom and its repetition operators, appending to {@code concat}. */
  private void parseRepeated(RegexFlags flags, List<Node> concat) {
    int start = in.pos;
    Node atom = parseAtom(flags, concat);
    while (true) {
      in.skipVerbose(flags);
      if (in.eof()) {
        break;
      }
      int at = in.pos;
      int cp = in.peek();
      int min;
      int max;
      if (cp == '*') {
        in.next();
        min = 0;
        max = -1;
      } else if (cp == '+') {
        in.next();
        min = 1;
        max = -1;
      } else if (cp == '?') {
        in.next();
        min = 0;
        max = 1;
      } else if (cp == '{') {
        int[] counted = counted(flags);
        if (counted == null) {
          break;
        }
        min = counted[0];
        max = counted[1];
      } else {
        break;
      }
      if (atom == null) {
        throw in.error(at, "repetition operator missing expression");
      }
      boolean greedy = true;
      if (!in.eof() && in.peek() == '?') {
        in.next();
        greedy = false;
      }
      if (flags.swapGreed) {
        greedy = !greedy;
      }
      atom = new Node.Repeat(atom, min, max, greedy);
    }
    if (atom != null) {
      concat.add(atom);
    } else if (in.pos == start) {
      throw in.error(in.pos, "internal: no progress");
    }
  }

  /**
   * A counted repetition {@code {n}}, {@code {n,}} or {@code {n,m}} at {@code pos} as {min, max}
   * ({@code -1}: no bound), consumed; null (nothing consumed) when the brace starts none.
   */
  private int @Nullable [] counted(RegexFlags flags) {
    int save = in.pos;
    in.next(); // {
    in.skipVerbose(flags);
    int min = in.digits();
    if (min < 0) {
      in.pos = save;
      return null;
    }
    in.skipVerbose(flags);
    int max = min;
    if (!in.eof() && in.peek() == ',') {
      in.next();
      in.skipVerbose(flags);
      max = in.digits();
      in.skipVerbose(flags);
    }
    if (in.eof() || in.peek() != '}') {
      in.pos = save;
      return null;
    }
    in.next();
    if (min > MAX_COUNT || max > MAX_COUNT) {
      throw in.error(save, "repetition count over " + MAX_COUNT);
    }
    if (max >= 0 && max < min) {
      throw in.error(save, "invalid repetition range {" + min + "," + max + "}");
    }
    return new int[] {min, max};
  }

  /**
   * Parses one atom; returns it, or null when there is none to repeat (a flag group such as
   * {@code (?i)}). Literal runs of {@code \Q...\E} are appended to {@code concat} but for their
   * last character, which is returned.
   */
  private @Nullable Node parseAtom(RegexFlags flags, List<Node> concat) {
    int at = in.pos;
    int cp = in.peek();
    switch (cp) {
      case '(':
        return parseGroup(flags);
      case '[':
        return chars(classes.parseClass(flags), at);
      case '.':
        in.next();
        return chars(CodePointSet.ANY, at);
      case '^':
        in.next();
        return new Node.Assert(Node.Kind.LINE_START);
      case '$':
        in.next();
        return new Node.Assert(Node.Kind.LINE_END);
      case '*':
      case '+':
      case '?':
        throw in.error(at, "repetition operator missing expression");
      case '{':
        if (counted(flags) != null) {
          throw in.error(at, "repetition operator missing expression");
        }
        in.next();
        return literal('{', flags, at);
      case '\\':
        return parseEscape(flags, concat);
      default:
        in.next();
        return literal(cp, flags, at);
    }
  }

  private @Nullable Node parseGroup(RegexFlags flags) {
    int open = in.pos;
    in.next(); // (
    if (++in.depth > NEST_LIMIT) {
      throw in.error(open, "groups nest deeper than " + NEST_LIMIT);
    }
    RegexFlags inner = flags.copy();
    if (!in.eof() && in.peek() == '?') {
      in.next();
      if (in.eof()) {
        throw in.error(open, "unclosed group");
      }
      if (in.lookingAt("=") || in.lookingAt("!") || in.lookingAt("<=") || in.lookingAt("<!")) {
        throw in.error(open, "look-around is not supported");
      }
      if (in.lookingAt("P<") || in.lookingAt("<")) {
        in.pos += in.lookingAt("P<") ? 2 : 1;
        int nameStart = in.pos;
        while (!in.eof() && in.peek() != '>') {
          int c = in.next();
          boolean ok = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
              || (in.pos - 1 > nameStart && (c >= '0' && c <= '9' || c == '.' || c == '['
                  || c == ']'));
          if (!ok) {
            throw in.error(in.pos - 1, "invalid character in a group name");
          }
        }
        if (in.eof() || in.pos == nameStart) {
          throw in.error(open, in.eof() ? "unclosed group name" : "empty group name");
        }
        in.next(); // >
      } else if (!in.lookingAt(":")) {
        // Flags: (?flags) or (?flags:...)
        boolean negate = false;
        boolean any = false;
        while (true) {
          if (in.eof()) {
            throw in.error(open, "unclosed group");
          }
          int c = in.next();
          if (c == ')') {
            if (!any) {
              throw in.error(open, "empty flag group");
            }
            // (?flags): they apply to the rest of the enclosing group.
            flags.caseInsensitive = inner.caseInsensitive;
            flags.swapGreed = inner.swapGreed;
            flags.verbose = inner.verbose;
            in.depth--;
            return null;
          }
          if (c == ':') {
            if (!any) {
              throw in.error(open, "empty flag group");
            }
            break;
          }
          if (c == '-') {
            if (negate) {
              throw in.error(in.pos - 1, "repeated negation in flags");
            }
            negate = true;
            continue;
          }
          any = true;
          switch (c) {
            case 'i' -> inner.caseInsensitive = !negate;
            case 'U' -> inner.swapGreed = !negate;
            case 'x' -> inner.verbose = !negate;
            case 'm', 's' -> {
              // Lines are the haystack: ^ and $ always anchor at a line's ends, and no dot
              // matches a line terminator, so neither flag changes a match.
            }
            case 'u' -> {
              if (negate) {
                throw in.error(in.pos - 1, "(?-u) is not supported: lines are always matched as"
                    + " Unicode text");
              }
            }
            default -> throw in.error(in.pos - 1, "unknown flag '"
                + new String(Character.toChars(c)) + "'");
          }
        }
      } else {
        in.next(); // :
      }
    }
    Node body = parseAlternation(inner, true);
    if (in.eof() || in.peek() != ')') {
      throw in.error(open, "unclosed group");
    }
    in.next();
    in.depth--;
    return body;
  }

  /** A literal code point, case-folded when the flags say so. */
  private Node literal(int cp, RegexFlags flags, int at) {
    in.literal(cp);
    return chars(flags.caseInsensitive ? CaseFolding.orbit(cp) : CodePointSet.single(cp), at);
  }

  /**
   * A class node: {@code set} without the line terminator (LF); an error when nothing is left, as
   * ripgrep's is ({@code \n} alone cannot be searched for line by line).
   */
  private Node chars(CodePointSet set, int at) {
    CodePointSet stripped = set.minus(LINE_TERMINATORS);
    if (stripped.isEmpty()) {
      if (set.contains('\n')) {
        throw in.error(at, "the literal '\\n' is not allowed in a regex (matches are found line"
            + " by line)");
      }
      throw in.error(at, "the class matches no character");
    }
    return new Node.Chars(stripped);
  }

  private @Nullable Node parseEscape(RegexFlags flags, List<Node> concat) {
    int at = in.pos;
    in.next(); // backslash
    if (in.eof()) {
      throw in.error(at, "incomplete escape sequence: '\\' at the end");
    }
    int cp = in.peek();
    switch (cp) {
      case 'b':
        in.next();
        return new Node.Assert(Node.Kind.WORD_BOUNDARY);
      case 'B':
        in.next();
        return new Node.Assert(Node.Kind.NOT_WORD_BOUNDARY);
      case 'A':
        in.next();
        return new Node.Assert(Node.Kind.LINE_START);
      case 'z':
        in.next();
        return new Node.Assert(Node.Kind.LINE_END);
      case 'Q': {
        in.next();
        int end = in.pattern.indexOf("\\E", in.pos);
        String quoted = in.pattern.substring(in.pos, end < 0 ? in.pattern.length() : end);
        in.pos = end < 0 ? in.pattern.length() : end + 2;
        Node last = null;
        for (int i = 0; i < quoted.length(); ) {
          int c = quoted.codePointAt(i);
          if (last != null) {
            concat.add(last);
          }
          last = literal(c, flags, at);
          i += Character.charCount(c);
        }
        return last;
      }
      default:
        break;
    }
    Object item = classes.classEscape(flags, at);
    if (item instanceof CodePointSet set) {
      return chars(set, at);
    }
    return literal((Integer) item, flags, at);
  }

}
