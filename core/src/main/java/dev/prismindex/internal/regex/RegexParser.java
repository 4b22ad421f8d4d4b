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

  private final String pattern;
  private int pos;
  private int depth;
  private boolean anyLiteral;
  private boolean anyUppercase;

  /** The flags in force; a group works on a copy. */
  private static final class Flags {
    boolean caseInsensitive;
    boolean swapGreed;
    boolean verbose;

    Flags copy() {
      Flags f = new Flags();
      f.caseInsensitive = caseInsensitive;
      f.swapGreed = swapGreed;
      f.verbose = verbose;
      return f;
    }
  }

  private RegexParser(String pattern) {
    this.pattern = pattern;
  }

  /**
   * The tree of {@code pattern}.
   *
   * @param caseInsensitive whether the whole pattern starts as {@code (?i)}
   * @throws RegexSyntaxException when the pattern does not parse or asks for something unsupported
   */
  public static Node parse(String pattern, boolean caseInsensitive) {
    RegexParser p = new RegexParser(pattern);
    Flags flags = new Flags();
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
    p.parseTop(new Flags());
    return p.anyLiteral && !p.anyUppercase;
  }

  private RegexSyntaxException error(int at, String what) {
    return new RegexSyntaxException(pattern, at, what);
  }

  private Node parseTop(Flags flags) {
    Node n = parseAlternation(flags, false);
    if (pos < pattern.length()) {
      throw error(pos, "unopened group: ')' without '('");
    }
    return n;
  }

  private boolean eof() {
    return pos >= pattern.length();
  }

  private int peek() {
    return pattern.codePointAt(pos);
  }

  private boolean lookingAt(String s) {
    return pattern.startsWith(s, pos);
  }

  private int next() {
    int cp = pattern.codePointAt(pos);
    pos += Character.charCount(cp);
    return cp;
  }

  /** In verbose mode ({@code x}), skips white space and comments ({@code #} to the line's end). */
  private void skipVerbose(Flags flags) {
    if (!flags.verbose) {
      return;
    }
    while (!eof()) {
      int cp = peek();
      if (cp == '#') {
        while (!eof() && peek() != '\n') {
          next();
        }
      } else if (Character.isWhitespace(cp) || cp == 0x85 || cp == 0xA0 || cp == 0x2007
          || cp == 0x202F) {
        next();
      } else {
        return;
      }
    }
  }

  private Node parseAlternation(Flags flags, boolean inGroup) {
    List<Node> branches = new ArrayList<>();
    List<Node> concat = new ArrayList<>();
    while (true) {
      skipVerbose(flags);
      if (eof()) {
        break;
      }
      int cp = peek();
      if (cp == '|') {
        next();
        branches.add(concat(concat));
        concat = new ArrayList<>();
        continue;
      }
      if (cp == ')') {
        if (inGroup) {
          break;
        }
        throw error(pos, "unopened group: ')' without '('");
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
  private void parseRepeated(Flags flags, List<Node> concat) {
    int start = pos;
    Node atom = parseAtom(flags, concat);
    while (true) {
      skipVerbose(flags);
      if (eof()) {
        break;
      }
      int at = pos;
      int cp = peek();
      int min;
      int max;
      if (cp == '*') {
        next();
        min = 0;
        max = -1;
      } else if (cp == '+') {
        next();
        min = 1;
        max = -1;
      } else if (cp == '?') {
        next();
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
        throw error(at, "repetition operator missing expression");
      }
      boolean greedy = true;
      if (!eof() && peek() == '?') {
        next();
        greedy = false;
      }
      if (flags.swapGreed) {
        greedy = !greedy;
      }
      atom = new Node.Repeat(atom, min, max, greedy);
    }
    if (atom != null) {
      concat.add(atom);
    } else if (pos == start) {
      throw error(pos, "internal: no progress");
    }
  }

  /**
   * A counted repetition {@code {n}}, {@code {n,}} or {@code {n,m}} at {@code pos} as {min, max}
   * ({@code -1}: no bound), consumed; null (nothing consumed) when the brace starts none.
   */
  private int @Nullable [] counted(Flags flags) {
    int save = pos;
    next(); // {
    skipVerbose(flags);
    int min = digits();
    if (min < 0) {
      pos = save;
      return null;
    }
    skipVerbose(flags);
    int max = min;
    if (!eof() && peek() == ',') {
      next();
      skipVerbose(flags);
      max = digits();
      skipVerbose(flags);
    }
    if (eof() || peek() != '}') {
      pos = save;
      return null;
    }
    next();
    if (min > MAX_COUNT || max > MAX_COUNT) {
      throw error(save, "repetition count over " + MAX_COUNT);
    }
    if (max >= 0 && max < min) {
      throw error(save, "invalid repetition range {" + min + "," + max + "}");
    }
    return new int[] {min, max};
  }

  /** A decimal number at {@code pos} (consumed), or -1 when there is none. */
  private int digits() {
    int start = pos;
    long value = 0;
    while (!eof() && peek() >= '0' && peek() <= '9') {
      value = Math.min((long) Integer.MAX_VALUE, value * 10 + (next() - '0'));
    }
    return pos == start ? -1 : (int) value;
  }

  /**
   * Parses one atom; returns it, or null when there is none to repeat (a flag group such as
   * {@code (?i)}). Literal runs of {@code \Q...\E} are appended to {@code concat} but for their
   * last character, which is returned.
   */
  private @Nullable Node parseAtom(Flags flags, List<Node> concat) {
    int at = pos;
    int cp = peek();
    switch (cp) {
      case '(':
        return parseGroup(flags);
      case '[':
        return chars(parseClass(flags), at);
      case '.':
        next();
        return chars(CodePointSet.ANY, at);
      case '^':
        next();
        return new Node.Assert(Node.Kind.LINE_START);
      case '$':
        next();
        return new Node.Assert(Node.Kind.LINE_END);
      case '*':
      case '+':
      case '?':
        throw error(at, "repetition operator missing expression");
      case '{':
        if (counted(flags) != null) {
          throw error(at, "repetition operator missing expression");
        }
        next();
        return literal('{', flags, at);
      case '\\':
        return parseEscape(flags, concat);
      default:
        next();
        return literal(cp, flags, at);
    }
  }

  private @Nullable Node parseGroup(Flags flags) {
    int open = pos;
    next(); // (
    if (++depth > NEST_LIMIT) {
      throw error(open, "groups nest deeper than " + NEST_LIMIT);
    }
    Flags inner = flags.copy();
    if (!eof() && peek() == '?') {
      next();
      if (eof()) {
        throw error(open, "unclosed group");
      }
      if (lookingAt("=") || lookingAt("!") || lookingAt("<=") || lookingAt("<!")) {
        throw error(open, "look-around is not supported");
      }
      if (lookingAt("P<") || lookingAt("<")) {
        pos += lookingAt("P<") ? 2 : 1;
        int nameStart = pos;
        while (!eof() && peek() != '>') {
          int c = next();
          boolean ok = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
              || (pos - 1 > nameStart && (c >= '0' && c <= '9' || c == '.' || c == '['
                  || c == ']'));
          if (!ok) {
            throw error(pos - 1, "invalid character in a group name");
          }
        }
        if (eof() || pos == nameStart) {
          throw error(open, eof() ? "unclosed group name" : "empty group name");
        }
        next(); // >
      } else if (!lookingAt(":")) {
        // Flags: (?flags) or (?flags:...)
        boolean negate = false;
        boolean any = false;
        while (true) {
          if (eof()) {
            throw error(open, "unclosed group");
          }
          int c = next();
          if (c == ')') {
            if (!any) {
              throw error(open, "empty flag group");
            }
            // (?flags): they apply to the rest of the enclosing group.
            flags.caseInsensitive = inner.caseInsensitive;
            flags.swapGreed = inner.swapGreed;
            flags.verbose = inner.verbose;
            depth--;
            return null;
          }
          if (c == ':') {
            if (!any) {
              throw error(open, "empty flag group");
            }
            break;
          }
          if (c == '-') {
            if (negate) {
              throw error(pos - 1, "repeated negation in flags");
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
                throw error(pos - 1, "(?-u) is not supported: lines are always matched as"
                    + " Unicode text");
              }
            }
            default -> throw error(pos - 1, "unknown flag '" + new String(Character.toChars(c))
                + "'");
          }
        }
      } else {
        next(); // :
      }
    }
    Node body = parseAlternation(inner, true);
    if (eof() || peek() != ')') {
      throw error(open, "unclosed group");
    }
    next();
    depth--;
    return body;
  }

  /** A literal code point, case-folded when the flags say so. */
  private Node literal(int cp, Flags flags, int at) {
    anyLiteral = true;
    anyUppercase |= Character.isUpperCase(cp);
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
        throw error(at, "the literal '\\n' is not allowed in a regex (matches are found line"
            + " by line)");
      }
      throw error(at, "the class matches no character");
    }
    return new Node.Chars(stripped);
  }

  private @Nullable Node parseEscape(Flags flags, List<Node> concat) {
    int at = pos;
    next(); // backslash
    if (eof()) {
      throw error(at, "incomplete escape sequence: '\\' at the end");
    }
    int cp = peek();
    switch (cp) {
      case 'b':
        next();
        return new Node.Assert(Node.Kind.WORD_BOUNDARY);
      case 'B':
        next();
        return new Node.Assert(Node.Kind.NOT_WORD_BOUNDARY);
      case 'A':
        next();
        return new Node.Assert(Node.Kind.LINE_START);
      case 'z':
        next();
        return new Node.Assert(Node.Kind.LINE_END);
      case 'Q': {
        next();
        int end = pattern.indexOf("\\E", pos);
        String quoted = pattern.substring(pos, end < 0 ? pattern.length() : end);
        pos = end < 0 ? pattern.length() : end + 2;
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
    Object item = classEscape(flags, at);
    if (item instanceof CodePointSet set) {
      return chars(set, at);
    }
    return literal((Integer) item, flags, at);
  }

  /**
   * An escape valid both outside and inside a class, after its backslash: a {@link CodePointSet}
   * for {@code \d \s \w \p...} and their negations, else the code point ({@code Integer}) it names.
   */
  private Object classEscape(Flags flags, int at) {
    int cp = next();
    switch (cp) {
      case 'd':
        return UnicodeSets.digit();
      case 'D':
        return UnicodeSets.digit().negate();
      case 's':
        return UnicodeSets.space();
      case 'S':
        return UnicodeSets.space().negate();
      case 'w':
        return UnicodeSets.word();
      case 'W':
        return UnicodeSets.word().negate();
      case 'p':
      case 'P':
        return property(cp == 'P', flags, at);
      case 'a':
        return 0x07;
      case 'f':
        return 0x0C;
      case 't':
        return 0x09;
      case 'n':
        return 0x0A;
      case 'r':
        return 0x0D;
      case 'v':
        return 0x0B;
      case 'x':
        return hex(at, 2);
      case 'u':
        return hex(at, 4);
      case 'U':
        return hex(at, 8);
      default:
        break;
    }
    if (cp >= '0' && cp <= '9') {
      throw error(at, "backreferences are not supported");
    }
    if (cp < 0x80 && !Character.isLetterOrDigit(cp)) {
      return cp; // escaped punctuation or space stands for itself
    }
    throw error(at, "unrecognized escape sequence '\\" + new String(Character.toChars(cp)) + "'");
  }

  /**
   * {@code \xHH}, {@code \x{H...}}, and with {@code u} (4 digits), {@code U} (8): the code point.
   */
  private int hex(int at, int fixed) {
    long value = 0;
    int count = 0;
    if (!eof() && peek() == '{') {
      next();
      while (!eof() && peek() != '}') {
        int d = Character.digit(next(), 16);
        if (d < 0) {
          throw error(at, "invalid hexadecimal digit in escape");
        }
        value = Math.min(0x7FFF_FFFFL, value * 16 + d);
        count++;
      }
      if (eof()) {
        throw error(at, "unclosed hexadecimal escape");
      }
      next();
      if (count == 0) {
        throw error(at, "empty hexadecimal escape");
      }
    } else {
      for (int i = 0; i < fixed; i++) {
        if (eof()) {
          throw error(at, "incomplete hexadecimal escape");
        }
        int d = Character.digit(next(), 16);
        if (d < 0) {
          throw error(at, "invalid hexadecimal digit in escape");
        }
        value = value * 16 + d;
      }
    }
    if (value > CodePointSet.MAX || value >= 0xD800 && value <= 0xDFFF) {
      throw error(at, "escape names no Unicode scalar value");
    }
    return (int) value;
  }

  /** {@code \pN}, {@code \p{Name}}, {@code \p{^Name}} (after {@code \p} or {@code \P}). */
  private CodePointSet property(boolean negated, Flags flags, int at) {
    if (eof()) {
      throw error(at, "incomplete Unicode class");
    }
    String name;
    if (peek() == '{') {
      next();
      int end = pattern.indexOf('}', pos);
      if (end < 0) {
        throw error(at, "unclosed Unicode class");
      }
      name = pattern.substring(pos, end);
      pos = end + 1;
      if (name.startsWith("^")) {
        negated = !negated;
        name = name.substring(1);
      }
    } else {
      name = new String(Character.toChars(next()));
    }
    CodePointSet set = UnicodeSets.property(name);
    if (set == null) {
      throw error(at, "unknown Unicode class '" + name + "'");
    }
    if (flags.caseInsensitive) {
      set = CaseFolding.close(set);
    }
    return negated ? set.negate() : set;
  }

  /** A bracketed class at {@code pos}: its set, case-folded and negated as the flags say. */
  private CodePointSet parseClass(Flags flags) {
    int open = pos;
    next(); // [
    if (++depth > NEST_LIMIT) {
      throw error(open, "classes nest deeper than " + NEST_LIMIT);
    }
    boolean negated = false;
    skipVerbose(flags);
    if (!eof() && peek() == '^') {
      next();
      negated = true;
    }
    CodePointSet set = parseUnion(flags, true, open);
    while (true) {
      skipVerbose(flags);
      if (eof()) {
        throw error(open, "unclosed character class");
      }
      if (peek() == ']') {
        next();
        break;
      }
      String op = lookingAt("&&") ? "&&" : lookingAt("--") ? "--" : lookingAt("~~") ? "~~"
          : null;
      if (op == null) {
        throw error(pos, "internal: unexpected class syntax");
      }
      pos += 2;
      CodePointSet rhs = parseUnion(flags, false, open);
      if (flags.caseInsensitive) {
        set = CaseFolding.close(set);
        rhs = CaseFolding.close(rhs);
      }
      set = switch (op) {
        case "&&" -> set.intersect(rhs);
        case "--" -> set.minus(rhs);
        default -> set.symmetricDifference(rhs);
      };
    }
    depth--;
    if (flags.caseInsensitive) {
      set = CaseFolding.close(set);
    }
    return negated ? set.negate() : set;
  }

  /** The union of class items up to a set operator or the closing bracket. */
  private CodePointSet parseUnion(Flags flags, boolean first, int open) {
    CodePointSet union = CodePointSet.EMPTY;
    boolean any = false;
    while (true) {
      skipVerbose(flags);
      if (eof()) {
        throw error(open, "unclosed character class");
      }
      int cp = peek();
      if (cp == ']' && !(first && !any)) {
        return union;
      }
      if (lookingAt("&&") || lookingAt("--") || lookingAt("~~")) {
        return union;
      }
      int at = pos;
      Object item = classItem(flags, first && !any);
      any = true;
      if (item instanceof Integer lo) {
        skipVerbose(flags);
        if (!eof() && peek() == '-' && !lookingAt("--") && pos + 1 < pattern.length()
            && pattern.charAt(pos + 1) != ']') {
          next(); // -
          skipVerbose(flags);
          if (eof()) {
            throw error(open, "unclosed character class");
          }
          int hiAt = pos;
          Object hi = classItem(flags, false);
          if (!(hi instanceof Integer h)) {
            throw error(hiAt, "invalid range: the end is a class");
          }
          if (h < lo) {
            throw error(at, "invalid range: " + describe(lo) + " is after " + describe(h));
          }
          union = union.union(CodePointSet.of(lo, h));
        } else {
          union = union.union(CodePointSet.single(lo));
        }
      } else {
        union = union.union((CodePointSet) item);
      }
    }
  }

  private static String describe(int cp) {
    return cp >= 0x20 && cp < 0x7F ? "'" + (char) cp + "'" : String.format("U+%04X", cp);
  }

  /** One class item: a code point ({@code Integer}) or a set (nested class, escape class). */
  private Object classItem(Flags flags, boolean first) {
    int at = pos;
    int cp = peek();
    if (cp == '[') {
      CodePointSet ascii = asciiClass();
      if (ascii != null) {
        return ascii;
      }
      return parseClass(flags);
    }
    if (cp == '\\') {
      next();
      if (eof()) {
        throw error(at, "incomplete escape sequence: '\\' at the end");
      }
      int e = peek();
      if (e == 'b' || e == 'B' || e == 'A' || e == 'z' || e == 'Q') {
        throw error(at, "escape sequence '\\" + (char) e + "' is not allowed in a class");
      }
      Object item = classEscape(flags, at);
      if (item instanceof Integer c) {
        anyLiteral = true;
        anyUppercase |= Character.isUpperCase(c);
      }
      return item;
    }
    next();
    anyLiteral = true;
    anyUppercase |= Character.isUpperCase(cp);
    return cp;
  }

  /** {@code [:name:]} or {@code [:^name:]} at {@code pos}, consumed; null when there is none. */
  private @Nullable CodePointSet asciiClass() {
    if (!lookingAt("[:")) {
      return null;
    }
    int end = pattern.indexOf(":]", pos + 2);
    if (end < 0) {
      return null;
    }
    String name = pattern.substring(pos + 2, end);
    boolean negated = name.startsWith("^");
    CodePointSet set = UnicodeSets.ascii(negated ? name.substring(1) : name);
    if (set == null) {
      return null;
    }
    pos = end + 2;
    return negated ? set.negate() : set;
  }
}
