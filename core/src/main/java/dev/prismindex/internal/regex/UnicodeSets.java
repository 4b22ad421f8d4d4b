package dev.prismindex.internal.regex;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import org.jspecify.annotations.Nullable;

/**
 * The Unicode classes of the pattern syntax, built from {@link Character}'s tables (the JDK's
 * Unicode version) on first use and cached: ripgrep's Perl classes ({@code \w}: Alphabetic, marks,
 * decimal digits, connector punctuation and the join controls; {@code \d}: decimal digits;
 * {@code \s}: White_Space), the general categories, the scripts and a few binary properties for
 * {@code \p{...}}, and simple case folding.
 */
final class UnicodeSets {

  private UnicodeSets() {}

  private static final Map<String, CodePointSet> CACHE = new ConcurrentHashMap<>();

  /**
   * {@code \w}: what ripgrep (the Unicode regular-expression standard, UTS #18) calls a word
   * character.
   */
  static CodePointSet word() {
    return CACHE.computeIfAbsent("\\w", k -> build(UnicodeSets::isWord));
  }

  /**
   * Whether {@code cp} is a word character ({@link #word()}); false for anything not a scalar
   * value.
   */
  static boolean isWord(int cp) {
    if (cp < 128) {
      return cp >= 'a' && cp <= 'z' || cp >= 'A' && cp <= 'Z' || cp >= '0' && cp <= '9'
          || cp == '_';
    }
    if (cp > CodePointSet.MAX || cp >= 0xD800 && cp <= 0xDFFF) {
      return false;
    }
    if (cp == 0x200C || cp == 0x200D || Character.isAlphabetic(cp)) {
      return true;
    }
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
        || type == Character.COMBINING_SPACING_MARK || type == Character.DECIMAL_DIGIT_NUMBER
        || type == Character.CONNECTOR_PUNCTUATION;
  }

  /** {@code \d}: the decimal digits (general category Nd). */
  static CodePointSet digit() {
    return CACHE.computeIfAbsent("\\d",
        k -> build(cp -> Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER));
  }

  /** {@code \s}: the White_Space property. */
  static CodePointSet space() {
    return CodePointSet.of(0x09, 0x0D, 0x20, 0x20, 0x85, 0x85, 0xA0, 0xA0, 0x1680, 0x1680,
        0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000);
  }

  /** The ASCII classes of {@code [[:name:]]}, or null for an unknown name. */
  static @Nullable CodePointSet ascii(String name) {
    return switch (name) {
      case "alnum" -> CodePointSet.of('0', '9', 'A', 'Z', 'a', 'z');
      case "alpha" -> CodePointSet.of('A', 'Z', 'a', 'z');
      case "ascii" -> CodePointSet.of(0, 0x7F);
      case "blank" -> CodePointSet.of('\t', '\t', ' ', ' ');
      case "cntrl" -> CodePointSet.of(0, 0x1F, 0x7F, 0x7F);
      case "digit" -> CodePointSet.of('0', '9');
      case "graph" -> CodePointSet.of('!', '~');
      case "lower" -> CodePointSet.of('a', 'z');
      case "print" -> CodePointSet.of(' ', '~');
      case "punct" -> CodePointSet.of('!', '/', ':', '@', '[', '`', '{', '~');
      case "space" -> CodePointSet.of('\t', '\r', ' ', ' ');
      case "upper" -> CodePointSet.of('A', 'Z');
      case "word" -> CodePointSet.of('0', '9', 'A', 'Z', 'a', 'z', '_', '_');
      case "xdigit" -> CodePointSet.of('0', '9', 'A', 'F', 'a', 'f');
      default -> null;
    };
  }

  /**
   * The class of {@code \p{name}}: a general category by its short or long name ({@code L},
   * {@code Lu}, {@code Letter}, {@code Uppercase_Letter}, optionally as {@code gc=...}), a script
   * ({@code Greek}, {@code sc=Greek}, {@code Script=Greek}), or {@code Any}, {@code ASCII},
   * {@code Assigned}, {@code Alphabetic}, {@code Uppercase}, {@code Lowercase},
   * {@code White_Space}, {@code Ideographic}. Names match loosely, as ripgrep's do: case, spaces,
   * underscores and hyphens are ignored. Null for an unknown name.
   */
  static @Nullable CodePointSet property(String name) {
    String loose = loose(name);
    String value = loose;
    int eq = Math.max(loose.indexOf('='), loose.indexOf(':'));
    String key = null;
    if (eq >= 0) {
      key = loose.substring(0, eq);
      value = loose.substring(eq + 1);
    }
    if (key == null || key.equals("gc") || key.equals("generalcategory")) {
      CodePointSet gc = generalCategory(value);
      if (gc != null || key != null) {
        return gc;
      }
    }
    if (key == null || key.equals("sc") || key.equals("script")) {
      CodePointSet sc = script(value);
      if (sc != null || key != null) {
        return sc;
      }
    }
    return switch (value) {
      case "any" -> CodePointSet.ANY;
      case "ascii" -> CodePointSet.of(0, 0x7F);
      case "assigned" -> CACHE.computeIfAbsent("assigned",
          k -> build(cp -> Character.getType(cp) != Character.UNASSIGNED));
      case "alphabetic", "alpha" -> CACHE.computeIfAbsent("alphabetic",
          k -> build(Character::isAlphabetic));
      case "uppercase", "upper" -> CACHE.computeIfAbsent("uppercase",
          k -> build(Character::isUpperCase));
      case "lowercase", "lower" -> CACHE.computeIfAbsent("lowercase",
          k -> build(Character::isLowerCase));
      case "whitespace", "wspace", "space" -> space();
      case "ideographic", "ideo" -> CACHE.computeIfAbsent("ideographic",
          k -> build(Character::isIdeographic));
      default -> null;
    };
  }

  private static String loose(String name) {
    StringBuilder b = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c != ' ' && c != '_' && c != '-') {
        b.append(Character.toLowerCase(c));
      }
    }
    return b.toString();
  }

  /** A general category: one letter for a group, two for a category, or the long names. */
  private static @Nullable CodePointSet generalCategory(String loose) {
    int[] types = switch (loose) {
      case "l", "letter" -> new int[] {Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER, Character.MODIFIER_LETTER, Character.OTHER_LETTER};
      case "lc", "casedletter" -> new int[] {Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER};
      case "lu", "uppercaseletter" -> new int[] {Character.UPPERCASE_LETTER};
      case "ll", "lowercaseletter" -> new int[] {Character.LOWERCASE_LETTER};
      case "lt", "titlecaseletter" -> new int[] {Character.TITLECASE_LETTER};
      case "lm", "modifierletter" -> new int[] {Character.MODIFIER_LETTER};
      case "lo", "otherletter" -> new int[] {Character.OTHER_LETTER};
      case "m", "mark", "combiningmark" -> new int[] {Character.NON_SPACING_MARK,
          Character.COMBINING_SPACING_MARK, Character.ENCLOSING_MARK};
      case "mn", "nonspacingmark" -> new int[] {Character.NON_SPACING_MARK};
      case "mc", "spacingmark" -> new int[] {Character.COMBINING_SPACING_MARK};
      case "me", "enclosingmark" -> new int[] {Character.ENCLOSING_MARK};
      case "n", "number" -> new int[] {Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER,
          Character.OTHER_NUMBER};
      case "nd", "decimalnumber", "digit" -> new int[] {Character.DECIMAL_DIGIT_NUMBER};
      case "nl", "letternumber" -> new int[] {Character.LETTER_NUMBER};
      case "no", "othernumber" -> new int[] {Character.OTHER_NUMBER};
      case "p", "punctuation", "punct" -> new int[] {Character.CONNECTOR_PUNCTUATION,
          Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION};
      case "pc", "connectorpunctuation" -> new int[] {Character.CONNECTOR_PUNCTUATION};
      case "pd", "dashpunctuation" -> new int[] {Character.DASH_PUNCTUATION};
      case "ps", "openpunctuation" -> new int[] {Character.START_PUNCTUATION};
      case "pe", "closepunctuation" -> new int[] {Character.END_PUNCTUATION};
      case "pi", "initialpunctuation" -> new int[] {Character.INITIAL_QUOTE_PUNCTUATION};
      case "pf", "finalpunctuation" -> new int[] {Character.FINAL_QUOTE_PUNCTUATION};
      case "po", "otherpunctuation" -> new int[] {Character.OTHER_PUNCTUATION};
      case "s", "symbol" -> new int[] {Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
          Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL};
      case "sm", "mathsymbol" -> new int[] {Character.MATH_SYMBOL};
      case "sc", "currencysymbol" -> new int[] {Character.CURRENCY_SYMBOL};
      case "sk", "modifiersymbol" -> new int[] {Character.MODIFIER_SYMBOL};
      case "so", "othersymbol" -> new int[] {Character.OTHER_SYMBOL};
      case "z", "separator" -> new int[] {Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR};
      case "zs", "spaceseparator" -> new int[] {Character.SPACE_SEPARATOR};
      case "zl", "lineseparator" -> new int[] {Character.LINE_SEPARATOR};
      case "zp", "paragraphseparator" -> new int[] {Character.PARAGRAPH_SEPARATOR};
      case "c", "other" -> new int[] {Character.CONTROL, Character.FORMAT, Character.SURROGATE,
          Character.PRIVATE_USE, Character.UNASSIGNED};
      case "cc", "control", "cntrl" -> new int[] {Character.CONTROL};
      case "cf", "format" -> new int[] {Character.FORMAT};
      case "cs", "surrogate" -> new int[] {Character.SURROGATE};
      case "co", "privateuse" -> new int[] {Character.PRIVATE_USE};
      case "cn", "unassigned" -> new int[] {Character.UNASSIGNED};
      default -> null;
    };
    if (types == null) {
      return null;
    }
    int[] t = types;
    return CACHE.computeIfAbsent("gc:" + loose, k -> build(cp -> {
      int type = Character.getType(cp);
      for (int x : t) {
        if (type == x) {
          return true;
        }
      }
      return false;
    }));
  }

  private static @Nullable CodePointSet script(String loose) {
    Character.UnicodeScript found = null;
    for (Character.UnicodeScript s : Character.UnicodeScript.values()) {
      if (loose(s.name()).equals(loose)) {
        found = s;
        break;
      }
    }
    if (found == null) {
      try {
        found = Character.UnicodeScript.forName(loose.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    Character.UnicodeScript script = found;
    return CACHE.computeIfAbsent("sc:" + script.name(),
        k -> build(cp -> Character.UnicodeScript.of(cp) == script));
  }

  /** The scalar values for which {@code test} holds. */
  private static CodePointSet build(IntPredicate test) {
    int[] pairs = new int[64];
    int n = 0;
    int start = -1;
    for (int cp = 0; cp <= CodePointSet.MAX + 1; cp++) {
      boolean in = cp <= CodePointSet.MAX && (cp < 0xD800 || cp > 0xDFFF) && test.test(cp);
      if (in && start < 0) {
        start = cp;
      } else if (!in && start >= 0) {
        if (n + 2 > pairs.length) {
          pairs = java.util.Arrays.copyOf(pairs, pairs.length * 2);
        }
        pairs[n++] = start;
        pairs[n++] = cp - 1;
        start = -1;
      }
    }
    return CodePointSet.normalise(pairs, n);
  }
}
