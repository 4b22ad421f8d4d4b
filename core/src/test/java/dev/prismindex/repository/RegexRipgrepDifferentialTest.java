package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RegexPattern} against ripgrep itself on seeded random patterns and lines (seed
 * {@code -Drgdiff.seed=N}): the same lines match, with the same first match (start, end, text), and
 * the same non-empty matches in the same order; a pattern ripgrep refuses is refused. Lines mix
 * ASCII, case-folding traps (the Kelvin sign, the long s, final sigma, the dotted capital I),
 * accents, astral characters, bytes that are not UTF-8, CRLF, a lone CR and a final CR; patterns
 * mix classes, Unicode properties, set operations, anchors, word boundaries, flags and every
 * repetition, under {@code -i}, {@code -S} and {@code -w}. ripgrep runs as {@code rg --encoding
 * none} (no transcoding of UTF-16 files with a byte-order mark: docs/cli.md).
 *
 * <p>What is not compared, all of it bugs of ripgrep 13.0.0 (Debian 12's) that ripgrep 14 fixed,
 * counted in the summary line:
 * <ul>
 *   <li>matches after the first, when the pattern has {@code \b} or {@code \B} or with
 *       {@code -w}: ripgrep 13's regex crate judges a word boundary at the start of a later
 *       search as if the line began there ({@code \Ba|2} on {@code 2a} lists only {@code 2});
 *   <li>empty matches after the first: ripgrep steps one byte after an empty match, so it also
 *       reports empty matches inside multi-byte characters, which no UTF-16 column can name;
 *   <li>{@code -w} with a pattern that can match empty (ripgrep's bug #1891), on a line with a
 *       byte that is not UTF-8 (ripgrep 13's {@code -w} wraps the pattern in
 *       {@code (?:^|\W)(...)(?:\W|$)}, and {@code \W} matches no such byte), and a first match at
 *       the start of a line that ripgrep 13 reports one character short (its bug #2574:
 *       {@code rg -w -o '\w+'} prints {@code oo} for a second line {@code foo bar}).
 * </ul>
 *
 * <p>Skipped, saying so on stderr, only when no {@code rg} is on the PATH ({@code .ci/run}
 * installs it); the fixed-fixture suite of the command line ({@code RgEquivalenceTest}) also
 * compares with a recorded answer when rg is absent.
 */
class RegexRipgrepDifferentialTest {

  private static final String[] UNITS = {"a", "b", "c", "A", "B", "K", "k", "\u212A", "s", "S",
      "\u017F", "\u03C3", "\u03C2", "\u03A3", "\u0130", "i", "I", "\u00E9", "\u00C9", " ", " ",
      "_", "1", "2", "-", ".", "(", "\u00DF", "\u4E2D", "\uD83D\uDE00", "\t", "\u00A0"};

  private static final long SEED = Long.getLong("rgdiff.seed", 20261204L);

  private static Path rg;

  @BeforeAll
  static void findRipgrep() {
    Optional<Path> found = Ripgrep.executable();
    if (found.isEmpty()) {
      System.err.println("*** RegexRipgrepDifferentialTest SKIPPED: no rg on the PATH (install"
          + " ripgrep: apt-get install ripgrep; .ci/run does) ***");
    }
    assumeTrue(found.isPresent(), "rg not installed");
    rg = found.get();
  }

  @Test
  void randomPatternsMatchLikeRipgrep(@TempDir Path dir) throws IOException {
    Random random = new Random(SEED);
    byte[] content = lines(random, 400);
    Files.write(dir.resolve("lines.txt"), content);
    List<String> decoded = new ArrayList<>();
    RegexPattern.forEachLine(content, (line, text, bytes) -> decoded.add(text));
    int compared = 0;
    int refused = 0;
    int wordsNullable = 0;
    int wordStartBug = 0;
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      String pattern = pattern(random, 3);
      RegexPattern.CaseMode mode = switch (random.nextInt(4)) {
        case 0 -> RegexPattern.CaseMode.INSENSITIVE;
        case 1 -> RegexPattern.CaseMode.SMART;
        default -> RegexPattern.CaseMode.SENSITIVE;
      };
      boolean words = random.nextInt(5) == 0;
      List<String> args = new ArrayList<>(List.of("--encoding", "none"));
      if (mode == RegexPattern.CaseMode.INSENSITIVE) {
        args.add("-i");
      } else if (mode == RegexPattern.CaseMode.SMART) {
        args.add("-S");
      }
      if (words) {
        args.add("-w");
      }
      args.addAll(List.of("-e", pattern, "lines.txt"));
      Ripgrep.Answer answer = Ripgrep.matches(rg, dir, args);
      RegexPattern compiled;
      try {
        compiled = RegexPattern.compile(pattern, mode, words, 4096);
      } catch (RepositoryException e) {
        if (answer.exit() != 2) {
          differences.add(pattern + " " + args + ": we refuse (" + e.getMessage()
              + "), rg does not");
        }
        refused++;
        continue;
      }
      if (words && RegexPattern.compile(pattern, mode, false, 4096).matcher().find("", 0)) {
        wordsNullable++;
        continue; // ripgrep 13's -w with a pattern that can match empty: its bug #1891
      }
      if (answer.exit() == 2) {
        differences.add(pattern + " " + args + ": rg refuses (" + answer.stderr().strip()
            + "), we do not");
        continue;
      }
      compared++;
      Map<Integer, Ripgrep.Match> theirs = new TreeMap<>();
      for (Ripgrep.Match m : answer.matches()) {
        theirs.put(m.line(), m);
      }
      RegexPattern.Matcher matcher = compiled.matcher();
      for (int n = 1; n <= decoded.size(); n++) {
        String line = decoded.get(n - 1);
        if (words && line.indexOf(RegexPattern.NOT_UTF8) >= 0) {
          continue; // ripgrep 13's -w never matches next to a byte that is not UTF-8
        }
        List<Ripgrep.Span> ours = new ArrayList<>();
        matcher.forEach(line, (s, e) -> ours.add(new Ripgrep.Span(s, e,
            RegexPattern.readable(line.substring(s, e)))));
        Ripgrep.Match their = theirs.get(n);
        if (ours.isEmpty() != (their == null)) {
          differences.add(pattern + " " + args + " line " + n + " '" + RegexPattern.readable(line)
              + "': ours " + ours + ", rg " + (their == null ? "no match" : their.spans()));
          continue;
        }
        if (their == null) {
          continue;
        }
        List<Ripgrep.Span> theirSpans = their.spans();
        if (words && !theirSpans.isEmpty()
            && rg13WordStartBug(line, ours.get(0), theirSpans.get(0))) {
          wordStartBug++;
          continue;
        }
        if (!theirSpans.isEmpty() && !theirSpans.get(0).equals(ours.get(0))) {
          differences.add(pattern + " " + args + " line " + n + " '" + RegexPattern.readable(line)
              + "': first match ours " + ours.get(0) + ", rg " + theirSpans.get(0));
          continue;
        }
        if (words || pattern.contains("\\b") || pattern.contains("\\B")) {
          continue; // ripgrep 13 loses later matches there (see the class comment)
        }
        List<Ripgrep.Span> ourNonEmpty = ours.stream().filter(s -> !s.empty()).toList();
        List<Ripgrep.Span> theirNonEmpty = theirSpans.stream().filter(s -> !s.empty()).toList();
        if (!ourNonEmpty.equals(theirNonEmpty)) {
          differences.add(pattern + " " + args + " line " + n + " '" + RegexPattern.readable(line)
              + "': ours " + ourNonEmpty + ", rg " + theirNonEmpty);
        }
      }
      if (differences.size() > 20) {
        break;
      }
    }
    System.err.println("RegexRipgrepDifferentialTest: " + Ripgrep.version(rg) + ", " + compared
        + " patterns compared on " + decoded.size() + " lines, " + refused + " refused by both, "
        + wordsNullable + " -w patterns that can match empty left out, " + wordStartBug
        + " -w first matches at a line start shortened by ripgrep 13, "
        + differences.size() + " differences");
    assertThat(differences).isEmpty();
    assertThat(compared).isGreaterThan(400);
  }

  @Test
  void patternsRipgrepRefusesAreRefused(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("lines.txt"), "a\n");
    List<String> refused = List.of("(?=a)", "(?<!a)b", "a(", "(a)\\1", "[a", "a\\n", "[\\n]",
        "*a", "\\p{Klingon}", "x{3,2}", "a)", "\\q");
    for (String pattern : refused) {
      Ripgrep.Answer answer = Ripgrep.matches(rg, dir, List.of("-e", pattern, "lines.txt"));
      assertThat(answer.exit()).as("rg on %s", pattern).isEqualTo(2);
      org.assertj.core.api.Assertions.assertThatThrownBy(
          () -> RegexPattern.compile(pattern, RegexPattern.CaseMode.SENSITIVE, false, 4096))
          .as(pattern).isInstanceOf(RepositoryException.class);
    }
  }

  /**
   * ripgrep 13's -w bug (fixed in ripgrep 14, its BUG #2574): a match found at the start of a line
   * other than its buffer's first is reported without its first character (and, when it ends the
   * line, without its last) whenever the shortened text still matches the pattern.
   */
  static boolean rg13WordStartBug(String line, Ripgrep.Span ours, Ripgrep.Span theirs) {
    if (ours.start() != 0 || ours.end() == 0) {
      return false;
    }
    int first = Character.charCount(line.codePointAt(0));
    int last = Character.charCount(line.codePointBefore(ours.end()));
    return theirs.start() == first
        && (theirs.end() == ours.end()
            || theirs.end() == ours.end() - last && ours.end() == line.length());
  }

  /** {@code count} random lines, some CRLF, with a lone CR, bad UTF-8 and a final CR. */
  static byte[] lines(Random random, int count) {
    return lines(random, count, UNITS);
  }

  /** {@link #lines(Random, int)} made of {@code units}. */
  static byte[] lines(Random random, int count, String[] units) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < count; i++) {
      int length = random.nextInt(14);
      for (int j = 0; j < length; j++) {
        int r = random.nextInt(60);
        if (r == 0) {
          out.write(0xFF);
        } else if (r == 1) {
          out.write(0xC3); // a lead byte without its continuation
        } else if (r == 2) {
          out.write('\r');
        } else {
          out.writeBytes(units[random.nextInt(units.length)].getBytes(StandardCharsets.UTF_8));
        }
      }
      if (i == count - 1) {
        out.write('\r'); // a final CR without LF
        break;
      }
      if (random.nextInt(5) == 0) {
        out.write('\r');
      }
      out.write('\n');
    }
    return out.toByteArray();
  }

  private static final String[] ATOMS = {"a", "b", "c", "A", "K", "k", "s", "S", "\u017F",
      "\u03C3", "\u03A3", "i", "I", "\u00E9", "\u00C9", "\\.", "-", "_", "1", " ", ".", "\\w",
      "\\W", "\\d", "\\D", "\\s", "\\S", "\\b", "\\B", "^", "$", "[a-c]", "[^a-c]", "[[:alpha:]]",
      "[kK]", "[^k]", "\\pL", "\\p{Lu}", "\\PL", "[\\w&&[^a]]", "[a-z--b]", "\\x41", "\\u00e9",
      "(?i:k)", "(?-i:S)", "\u4E2D", "\uD83D\uDE00", "[\u00E0-\u00FF]", "\\p{Greek}",
      "[[:^digit:]]"};

  static String pattern(Random random, int depth) {
    if (depth == 0 || random.nextInt(3) == 0) {
      return ATOMS[random.nextInt(ATOMS.length)];
    }
    return switch (random.nextInt(7)) {
      case 0, 1 -> pattern(random, depth - 1) + pattern(random, depth - 1);
      case 2 -> pattern(random, depth - 1) + "|" + pattern(random, depth - 1);
      case 3 -> "(?:" + pattern(random, depth - 1) + ")" + quantifier(random);
      case 4 -> atomRepeated(random);
      case 5 -> "(" + pattern(random, depth - 1) + ")";
      default -> pattern(random, depth - 1) + pattern(random, depth - 1) + pattern(random, 0);
    };
  }

  private static String atomRepeated(Random random) {
    return ATOMS[random.nextInt(ATOMS.length)] + quantifier(random);
  }

  private static String quantifier(Random random) {
    String q = switch (random.nextInt(6)) {
      case 0 -> "*";
      case 1 -> "+";
      case 2 -> "?";
      case 3 -> "{2}";
      case 4 -> "{1,3}";
      default -> "{0,2}";
    };
    return random.nextInt(4) == 0 ? q + "?" : q;
  }
}
