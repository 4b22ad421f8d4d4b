package dev.prismindex.engine.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.chunk.SourceLines;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.repository.RegexPattern;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The regex plan ({@link RegexPlanner}) is sound, whatever the pattern: a file holding a match
 * always satisfies it, evaluated against the grams the indexer gives that file ({@link
 * GramSet#ofFile}); and it is selective where a pattern has literal pieces.
 */
class RegexPlannerTest {

  private static GramPlan plan(String pattern, boolean insensitive) {
    return RegexSearcher.plan(RegexPattern.compile(pattern, insensitive
        ? RegexPattern.CaseMode.INSENSITIVE : RegexPattern.CaseMode.SENSITIVE, false, 4096));
  }

  /** The trigrams of {@code text} (one line) that the index holds. */
  private static Set<String> grams(String text) {
    return new HashSet<>(GramSet.ofFile(List.of(text), "p").grams());
  }

  @Test
  void literalPiecesBecomeTrigramsAndAlternationsBranches() {
    GramPlan q = plan("parseDuration", false);
    assertThat(q.op).isEqualTo(GramPlan.Op.AND);
    // Common trigrams (par, ati, tio, ion, ...) are never required.
    assertThat(q.grams).containsExactly("ars", "dur", "edu", "rse", "ura");
    assertThat(q.matches(grams("x.parseDuration(y)"))).isTrue();
    assertThat(q.matches(grams("parse the duration"))).isFalse();
    assertThat(plan("foo\\w+bar", false).toString()).isEqualTo("\"bar\" \"foo\"");
    GramPlan alt = plan("quux|zebra", false);
    assertThat(alt.op).isEqualTo(GramPlan.Op.OR);
    assertThat(alt.matches(grams("a zebra"))).isTrue();
    assertThat(alt.matches(grams("quux"))).isTrue();
    assertThat(alt.matches(grams("quokka zebu"))).isFalse();
    // Case-insensitive: the index is lower-cased, so case costs nothing.
    assertThat(plan("QuuX", true)).isEqualTo(plan("quux", false));
    // Nothing to require: every file is a candidate.
    assertThat(plan("\\w+", false).op).isEqualTo(GramPlan.Op.ALL);
    assertThat(plan("a.c", false).op).isEqualTo(GramPlan.Op.ALL);
    assertThat(plan("[a-z]+_\\d", false).op).isEqualTo(GramPlan.Op.ALL);
    // The suffix of a class repetition and the literal after it still give a trigram.
    assertThat(plan("[a-z]+_id", false).toString()).isEqualTo("\"_id\"");
    // A common trigram is never required.
    assertThat(plan("return", false).op).isEqualTo(GramPlan.Op.ALL);
  }

  @Test
  void aSmallClassIsExpandedIntoItsStrings() {
    GramPlan q = plan("get[XY]ml", false);
    assertThat(q.matches(Set.of("get", "etx", "txm", "xml"))).isTrue();
    assertThat(q.matches(Set.of("get", "ety", "tym", "yml"))).isTrue();
    assertThat(q.matches(Set.of("get", "etz", "tzm", "zml"))).isFalse();
  }

  private static final String[] PIECES = {"foo", "Bar", "quux", "ΣΊΣΥΦΟΣ", "ς", "σ", "İstanbul",
      "straße", "STRASSE", "K", "\u212A", "ſ", "😀", "x", "ab", "\r", "\t", "  ", "return", "é",
      "\uFFFD", "_", "1", "-"};
  private static final String[] ATOMS = {"foo", "bar", "Bar", "qu+x", "(?i)quux", "\\w+", "\\d",
      ".", "[a-c]", "[^a]", "σ", "Σ", "(?i)σ", "ς", "İ", "(?i)i", "\\pL", "(?i)k", "K", "\u212A",
      "ſ", "(?i)s", "x?", "(?:ab)+", "(?:ab){2}", "a{0,2}", "^", "$", "\\b", "😀", "\\r", "\\t",
      "é", "\\x{FFFD}", "[xyz]", "(?i)[xyz]", "(?:foo|ba)", "ret(?:urn)?", "|"};

  @Test
  void aFileWithAMatchAlwaysSatisfiesThePlan() {
    Random random = new Random(39);
    int matched = 0;
    int ruledOut = 0;
    for (int round = 0; round < 4000; round++) {
      StringBuilder text = new StringBuilder();
      int lines = 1 + random.nextInt(4);
      for (int l = 0; l < lines; l++) {
        int words = random.nextInt(6);
        for (int w = 0; w < words; w++) {
          text.append(PIECES[random.nextInt(PIECES.length)]);
          if (random.nextBoolean()) {
            text.append(' ');
          }
        }
        text.append(random.nextInt(4) == 0 ? "\r\n" : "\n");
      }
      StringBuilder p = new StringBuilder();
      int atoms = 1 + random.nextInt(4);
      for (int a = 0; a < atoms; a++) {
        p.append(ATOMS[random.nextInt(ATOMS.length)]);
      }
      String pattern = p.toString();
      boolean insensitive = random.nextInt(3) == 0;
      RegexPattern compiled;
      try {
        compiled = RegexPattern.compile(pattern, insensitive ? RegexPattern.CaseMode.INSENSITIVE
            : RegexPattern.CaseMode.SENSITIVE, false, 4096);
      } catch (RuntimeException e) {
        continue;
      }
      byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      boolean[] found = {false};
      RegexPattern.Matcher m = compiled.matcher();
      RegexPattern.forEachLine(bytes, (n, line, b) -> {
        found[0] |= m.find(line, 0);
        return !found[0];
      });
      String path = "f" + round + ".txt";
      Set<String> grams = new HashSet<>(GramSet.ofFile(
          SourceLines.split(FileReader.decode(bytes, bytes.length)), path).grams());
      GramPlan plan = RegexSearcher.plan(compiled);
      if (found[0]) {
        matched++;
        assertThat(plan.matches(grams)).as("plan %s of /%s/ (insensitive %s) on %s", plan,
            pattern, insensitive, List.of(text.toString())).isTrue();
      } else if (!plan.matches(grams)) {
        ruledOut++;
      }
    }
    assertThat(matched).isGreaterThan(500);
    assertThat(ruledOut).isGreaterThan(500); // the plan does select
  }
}
