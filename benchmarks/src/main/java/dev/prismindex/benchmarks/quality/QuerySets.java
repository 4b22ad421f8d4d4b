package dev.prismindex.benchmarks.quality;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The three query sets of the quality benchmark, drawn deterministically (seeded) from a corpus's
 * definitions and text. See {@code docs/benchmarks.md}, section 5, for the rules in prose.
 */
final class QuerySets {

  /** Fewest words a natural-language query keeps. */
  static final int MIN_WORDS = 4;
  /** Literals matching more lines than this are not drawn (no scanner cap can cut their truth). */
  static final int MAX_TRUTH_LINES = 500;

  private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{3,40}");
  private static final Pattern STRING = Pattern.compile("\"([^\"\\\\\\r\\n]{3,40})\"");
  private static final String METACHARS = ".*+?()[]{}|^$\\";

  private QuerySets() {}

  /**
   * A natural-language query and its answer.
   *
   * @param query the first sentence of the answer's doc comment (its name dropped when it led)
   * @param target the documented function or method, a library definition
   */
  record NlQuery(String query, Definition target) {}

  /**
   * A "where is X defined" query.
   *
   * @param identifier the defined name
   * @param phrase its parts, lower-cased, joined by spaces
   * @param target the library definition, the only one of that name in the corpus
   */
  record NavQuery(String identifier, String phrase, Definition target) {}

  /**
   * A literal of the exactness set and its truth.
   *
   * @param kind identifier, string literal, regex metacharacters, non-ASCII or no-hit
   * @param literal the text searched for, case-sensitively
   */
  record ExactQuery(String kind, String literal) {}

  /**
   * The outcome of {@link #naturalLanguage}: the sample and what the filters dropped.
   *
   * @param queries the sampled queries
   * @param documented library functions with a body and a doc sentence
   * @param tooShort of those, dropped for a sentence under {@value #MIN_WORDS} words
   * @param duplicate of those, dropped for a sentence shared with another definition
   * @param restated of the rest, not drawn for a sentence that still stands elsewhere in the
   *     source once the answer's doc is blanked (see {@link Restatements})
   */
  record NlSet(List<NlQuery> queries, int documented, int tooShort, int duplicate,
      int restated) {}

  /**
   * Documented library functions and methods with a body whose first sentence (see {@link
   * DocSentence}) has at least {@value #MIN_WORDS} words and is not the first sentence of another
   * documented function of the corpus (case-insensitively, library or not); a seeded sample of
   * {@code count} of them whose sentence does not stand in {@code sources} (path to text, before
   * blanking) outside the answer, word for word ({@link Restatements}): the pool in its seeded
   * order, such queries skipped (so a query kept is drawn as it was before the rule).
   */
  static NlSet naturalLanguage(List<Definition> defs, Map<String, String> sources, int count,
      long seed) {
    Map<String, List<NlQuery>> byText = new LinkedHashMap<>();
    int documented = 0;
    int tooShort = 0;
    for (Definition d : defs) {
      if (d.kind() != Definition.Kind.FUNCTION || d.doc() == null) {
        continue;
      }
      String s = DocSentence.first(d.language(), d.doc(), d.name());
      if (s == null) {
        continue;
      }
      List<NlQuery> same = byText.computeIfAbsent(s.toLowerCase(Locale.ROOT),
          k -> new ArrayList<>());
      same.add(new NlQuery(s, d));
    }
    List<NlQuery> pool = new ArrayList<>();
    int duplicate = 0;
    for (List<NlQuery> same : byText.values()) {
      List<NlQuery> targets = same.stream().filter(q -> isTarget(q.target())).toList();
      documented += targets.size();
      if (targets.isEmpty()) {
        continue;
      }
      if (DocSentence.words(same.get(0).query()) < MIN_WORDS) {
        tooShort += targets.size();
      } else if (same.size() > 1) {
        duplicate += targets.size();
      } else {
        pool.add(targets.get(0));
      }
    }
    Set<NlQuery> restated = Restatements.ambiguous(pool, sources);
    List<NlQuery> queries = new ArrayList<>();
    for (NlQuery q : sample(pool, pool.size(), seed)) {
      if (queries.size() < count && !restated.contains(q)) {
        queries.add(q);
      }
    }
    return new NlSet(queries, documented, tooShort, duplicate, restated.size());
  }

  private static boolean isTarget(Definition d) {
    return d.isFunctionWithBody() && LibraryPaths.isLibrary(d.path());
  }

  /**
   * Library definitions (functions and types) whose name has at least two parts and is defined
   * exactly once in the corpus (library or not); a seeded sample of {@code count}.
   */
  static List<NavQuery> navigation(List<Definition> defs, int count, long seed) {
    Map<String, List<Definition>> byName = new TreeMap<>();
    for (Definition d : defs) {
      byName.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(d);
    }
    List<NavQuery> pool = new ArrayList<>();
    for (Map.Entry<String, List<Definition>> e : byName.entrySet()) {
      List<String> parts = identifierParts(e.getKey());
      if (e.getValue().size() != 1 || parts.size() < 2) {
        continue;
      }
      Definition d = e.getValue().get(0);
      if (LibraryPaths.isLibrary(d.path()) && d.name().matches("[\\p{L}_][\\p{L}\\p{N}_]*")) {
        pool.add(new NavQuery(d.name(), String.join(" ", parts), d));
      }
    }
    return sample(pool, count, seed);
  }

  /**
   * {@code perKind} literals of each kind drawn from the indexed text (file path to its lines):
   * identifiers, string literal contents, code fragments of 6 to 24 characters holding a regex
   * metacharacter, fragments of 2 to 12 characters around a non-ASCII character, and no-hit
   * literals (a drawn identifier with one letter changed that occurs nowhere). Literals whose truth
   * exceeds {@value #MAX_TRUTH_LINES} lines are redrawn.
   */
  static List<ExactQuery> exactness(Map<String, List<String>> texts, int perKind, long seed) {
    Random r = new Random(seed);
    List<String> paths = new ArrayList<>(texts.keySet());
    Collections.sort(paths);
    List<String> allLines = new ArrayList<>();
    for (String p : paths) {
      allLines.addAll(texts.get(p));
    }
    Set<String> seen = new LinkedHashSet<>();
    List<ExactQuery> out = new ArrayList<>();
    String[] kinds = {"identifier", "string literal", "regex metacharacters", "non-ASCII"};
    for (String kind : kinds) {
      List<String> candidates = candidates(kind, allLines);
      Collections.sort(candidates);
      Collections.shuffle(candidates, r);
      int taken = 0;
      for (String c : candidates) {
        if (taken == perKind) {
          break;
        }
        if (c.isBlank() || !seen.add(c) || truthLines(c, allLines) > MAX_TRUTH_LINES) {
          continue;
        }
        out.add(new ExactQuery(kind, c));
        taken++;
      }
    }
    List<String> idents = candidates("identifier", allLines);
    Collections.sort(idents);
    Collections.shuffle(idents, r);
    int taken = 0;
    for (String id : idents) {
      if (taken == perKind) {
        break;
      }
      char[] cs = id.toCharArray();
      int i = r.nextInt(cs.length);
      cs[i] = cs[i] == 'q' ? 'x' : 'q';
      String miss = new String(cs);
      if (seen.add(miss) && truthLines(miss, allLines) == 0) {
        out.add(new ExactQuery("no-hit", miss));
        taken++;
      }
    }
    return out;
  }

  private static List<String> candidates(String kind, List<String> lines) {
    Set<String> out = new LinkedHashSet<>();
    for (String line : lines) {
      switch (kind) {
        case "identifier" -> {
          Matcher m = IDENT.matcher(line);
          while (m.find()) {
            out.add(m.group());
          }
        }
        case "string literal" -> {
          Matcher m = STRING.matcher(line);
          while (m.find()) {
            out.add(m.group(1));
          }
        }
        case "regex metacharacters" -> {
          String t = line.strip();
          for (int i = 0; i + 6 <= t.length(); i += 7) {
            String frag = t.substring(i, Math.min(t.length(), i + 6 + (i * 31 + t.length()) % 19))
                .strip();
            if (frag.length() >= 6 && hasMeta(frag) && !frag.contains("  ")) {
              out.add(frag);
            }
          }
        }
        default -> {
          for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) > 127 && !Character.isWhitespace(line.charAt(i))) {
              int from = Math.max(0, i - 1 - (i % 5));
              int to = Math.min(line.length(), i + 1 + (i % 7));
              if (Character.isLowSurrogate(line.charAt(from))) {
                from--;
              }
              if (to < line.length() && Character.isLowSurrogate(line.charAt(to))) {
                to++;
              }
              String frag = line.substring(from, to).strip();
              if (frag.length() >= 2) {
                out.add(frag);
              }
            }
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  private static boolean hasMeta(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (METACHARS.indexOf(s.charAt(i)) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static int truthLines(String literal, List<String> lines) {
    int n = 0;
    for (String l : lines) {
      if (l.contains(literal)) {
        n++;
        if (n > MAX_TRUTH_LINES) {
          return n;
        }
      }
    }
    return n;
  }

  /** The files whose text contains {@code literal} (a full scan), in path order. */
  static List<String> truth(String literal, Map<String, List<String>> texts) {
    List<String> files = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : new TreeMap<>(texts).entrySet()) {
      for (String l : e.getValue()) {
        if (l.contains(literal)) {
          files.add(e.getKey());
          break;
        }
      }
    }
    return files;
  }

  /** A seeded sample of {@code count} elements (all of them when fewer), in sample order. */
  static <T> List<T> sample(List<T> pool, int count, long seed) {
    List<T> copy = new ArrayList<>(pool);
    Collections.shuffle(copy, new Random(seed));
    return new ArrayList<>(copy.subList(0, Math.min(count, copy.size())));
  }

  /** Counts how often each value occurs. */
  static <T> Map<T, Integer> counts(List<T> values) {
    Map<T, Integer> m = new HashMap<>();
    for (T v : values) {
      m.merge(v, 1, Integer::sum);
    }
    return m;
  }

  /**
   * The parts of an identifier, lower-cased: split on {@code _}, lower-to-upper case changes,
   * acronym ends ({@code XMLHttp}: {@code xml, http}) and letter/digit changes.
   */
  static List<String> identifierParts(String id) {
    List<String> parts = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int n = id.length();
    for (int i = 0; i < n; i++) {
      char c = id.charAt(i);
      if (c == '_' || c == '$') {
        flush(cur, parts);
        continue;
      }
      if (cur.length() > 0) {
        char p = id.charAt(i - 1);
        boolean boundary = Character.isLowerCase(p) && Character.isUpperCase(c)
            || Character.isDigit(p) != Character.isDigit(c)
            || Character.isUpperCase(p) && Character.isUpperCase(c) && i + 1 < n
            && Character.isLowerCase(id.charAt(i + 1));
        if (boundary) {
          flush(cur, parts);
        }
      }
      cur.append(c);
    }
    flush(cur, parts);
    return parts;
  }

  private static void flush(StringBuilder cur, List<String> parts) {
    if (cur.length() > 0) {
      parts.add(cur.toString().toLowerCase(Locale.ROOT));
      cur.setLength(0);
    }
  }
}
