package dev.prismindex.internal.regex;

import org.jspecify.annotations.Nullable;

/** Parses what becomes a set of code points: bracketed classes, set operations, escapes. */
final class ClassParser {

  private final PatternCursor in;

  ClassParser(PatternCursor in) {
    this.in = in;
  }

  /**
   * An escape valid both outside and inside a class, after its backslash: a {@link CodePointSet}
   * for {@code \d \s \w \p...} and their negations, else the code point ({@code Integer}) it names.
   */
  Object classEscape(RegexFlags flags, int at) {
    int cp = in.next();
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
      throw in.error(at, "backreferences are not supported");
    }
    if (cp < 0x80 && !Character.isLetterOrDigit(cp)) {
      return cp; // escaped punctuation or space stands for itself
    }
    throw in.error(at, "unrecognized escape sequence '\\" + new String(Character.toChars(cp))
        + "'");
  }

  /**
   * {@code \xHH}, {@code \x{H...}}, and with {@code u} (4 digits), {@code U} (8): the code point.
   */
  private int hex(int at, int fixed) {
    long value = 0;
    int count = 0;
    if (!in.eof() && in.peek() == '{') {
      in.next();
      while (!in.eof() && in.peek() != '}') {
        int d = Character.digit(in.next(), 16);
        if (d < 0) {
          throw in.error(at, "invalid hexadecimal digit in escape");
        }
        value = Math.min(0x7FFF_FFFFL, value * 16 + d);
        count++;
      }
      if (in.eof()) {
        throw in.error(at, "unclosed hexadecimal escape");
      }
      in.next();
      if (count == 0) {
        throw in.error(at, "empty hexadecimal escape");
      }
    } else {
      for (int i = 0; i < fixed; i++) {
        if (in.eof()) {
          throw in.error(at, "incomplete hexadecimal escape");
        }
        int d = Character.digit(in.next(), 16);
        if (d < 0) {
          throw in.error(at, "invalid hexadecimal digit in escape");
        }
        value = value * 16 + d;
      }
    }
    if (value > CodePointSet.MAX || value >= 0xD800 && value <= 0xDFFF) {
      throw in.error(at, "escape names no Unicode scalar value");
    }
    return (int) value;
  }

  /** {@code \pN}, {@code \p{Name}}, {@code \p{^Name}} (after {@code \p} or {@code \P}). */
  private CodePointSet property(boolean negated, RegexFlags flags, int at) {
    if (in.eof()) {
      throw in.error(at, "incomplete Unicode class");
    }
    String name;
    if (in.peek() == '{') {
      in.next();
      int end = in.pattern.indexOf('}', in.pos);
      if (end < 0) {
        throw in.error(at, "unclosed Unicode class");
      }
      name = in.pattern.substring(in.pos, end);
      in.pos = end + 1;
      if (name.startsWith("^")) {
        negated = !negated;
        name = name.substring(1);
      }
    } else {
      name = new String(Character.toChars(in.next()));
    }
    CodePointSet set = UnicodeSets.property(name);
    if (set == null) {
      throw in.error(at, "unknown Unicode class '" + name + "'");
    }
    if (flags.caseInsensitive) {
      set = CaseFolding.close(set);
    }
    return negated ? set.negate() : set;
  }

  /** A bracketed class at {@code pos}: its set, case-folded and negated as the flags say. */
  CodePointSet parseClass(RegexFlags flags) {
    int open = in.pos;
    in.next(); // [
    if (++in.depth > RegexParser.NEST_LIMIT) {
      throw in.error(open, "classes nest deeper than " + RegexParser.NEST_LIMIT);
    }
    boolean negated = false;
    in.skipVerbose(flags);
    if (!in.eof() && in.peek() == '^') {
      in.next();
      negated = true;
    }
    CodePointSet set = parseUnion(flags, true, open);
    while (true) {
      in.skipVerbose(flags);
      if (in.eof()) {
        throw in.error(open, "unclosed character class");
      }
      if (in.peek() == ']') {
        in.next();
        break;
      }
      String op = in.lookingAt("&&") ? "&&" : in.lookingAt("--") ? "--" : in.lookingAt("~~") ? "~~"
          : null;
      if (op == null) {
        throw in.error(in.pos, "internal: unexpected class syntax");
      }
      in.pos += 2;
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
    in.depth--;
    if (flags.caseInsensitive) {
      set = CaseFolding.close(set);
    }
    return negated ? set.negate() : set;
  }

  /** The union of class items up to a set operator or the closing bracket. */
  private CodePointSet parseUnion(RegexFlags flags, boolean first, int open) {
    CodePointSet union = CodePointSet.EMPTY;
    boolean any = false;
    while (true) {
      in.skipVerbose(flags);
      if (in.eof()) {
        throw in.error(open, "unclosed character class");
      }
      int cp = in.peek();
      if (cp == ']' && !(first && !any)) {
        return union;
      }
      if (in.lookingAt("&&") || in.lookingAt("--") || in.lookingAt("~~")) {
        return union;
      }
      int at = in.pos;
      Object item = classItem(flags, first && !any);
      any = true;
      if (item instanceof Integer lo) {
        in.skipVerbose(flags);
        if (!in.eof() && in.peek() == '-' && !in.lookingAt("--") && in.pos + 1 < in.pattern.length()
            && in.pattern.charAt(in.pos + 1) != ']') {
          in.next(); // -
          in.skipVerbose(flags);
          if (in.eof()) {
            throw in.error(open, "unclosed character class");
          }
          int hiAt = in.pos;
          Object hi = classItem(flags, false);
          if (!(hi instanceof Integer h)) {
            throw in.error(hiAt, "invalid range: the end is a class");
          }
          if (h < lo) {
            throw in.error(at, "invalid range: " + describe(lo) + " is after " + describe(h));
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
  private Object classItem(RegexFlags flags, boolean first) {
    int at = in.pos;
    int cp = in.peek();
    if (cp == '[') {
      CodePointSet ascii = asciiClass();
      if (ascii != null) {
        return ascii;
      }
      return parseClass(flags);
    }
    if (cp == '\\') {
      in.next();
      if (in.eof()) {
        throw in.error(at, "incomplete escape sequence: '\\' at the end");
      }
      int e = in.peek();
      if (e == 'b' || e == 'B' || e == 'A' || e == 'z' || e == 'Q') {
        throw in.error(at, "escape sequence '\\" + (char) e + "' is not allowed in a class");
      }
      Object item = classEscape(flags, at);
      if (item instanceof Integer c) {
        in.literal(c);
      }
      return item;
    }
    in.next();
    in.literal(cp);
    return cp;
  }

  /** {@code [:name:]} or {@code [:^name:]} at {@code pos}, consumed; null when there is none. */
  private @Nullable CodePointSet asciiClass() {
    if (!in.lookingAt("[:")) {
      return null;
    }
    int end = in.pattern.indexOf(":]", in.pos + 2);
    if (end < 0) {
      return null;
    }
    String name = in.pattern.substring(in.pos + 2, end);
    boolean negated = name.startsWith("^");
    CodePointSet set = UnicodeSets.ascii(negated ? name.substring(1) : name);
    if (set == null) {
      return null;
    }
    in.pos = end + 2;
    return negated ? set.negate() : set;
  }
}
