package dev.prismindex.engine.internal.query;

import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The path prior of the ranked modes: files that accompany a library rather than being it (tests,
 * examples, benchmarks, fixtures, generated code) rank below library source unless the query asks
 * for them. A candidate in such a file has its score multiplied by the search's
 * {@code auxiliaryWeight} before the final order is taken; 1 turns the prior off.
 *
 * <p>Auxiliary, by path: a directory segment {@link #AUXILIARY_DIRS} ({@code test/}, {@code
 * __tests__/}, {@code examples/}, {@code benches/}, {@code testdata/}, ...), a test file name
 * ({@code *_test.go}, {@code test_*.py}, {@code *_test.py}, {@code conftest.py}, {@code
 * *.test.ts}, {@code *.spec.js}, {@code FooTest.java}, {@code FooTests.java}, {@code FooIT.java},
 * {@code *_spec.rb}) or a generated-file name ({@code *.pb.go}, {@code *_generated.*},
 * {@code *.generated.*}, {@code *.gen.*}) or a declaration file ({@code *.pyi} stubs, {@code
 * *.d.ts}: signatures whose implementation lies elsewhere). The query asks for them when one of its words is in
 * {@link #ASKING_WORDS}, or when the search is scoped to an auxiliary path.
 */
public final class PathPrior {

  /** Directory names whose contents are auxiliary. */
  static final Set<String> AUXILIARY_DIRS = Set.of("test", "tests", "__tests__", "testing",
      "testdata", "test-data", "test_data", "spec", "specs", "__mocks__", "mocks", "fixtures",
      "fixture", "e2e", "example", "examples", "bench", "benches", "benchmark", "benchmarks",
      "generated", "__generated__", "__snapshots__");

  /** Query words (lower case) that ask for auxiliary files. */
  static final Set<String> ASKING_WORDS = Set.of("test", "tests", "tested", "testing", "unittest",
      "spec", "specs", "mock", "mocks", "fixture", "fixtures", "example", "examples", "bench",
      "benches", "benchmark", "benchmarks", "e2e", "generated", "testdata");

  private PathPrior() {}

  /** Whether {@code path} (repository-relative, {@code /}-separated) is an auxiliary file. */
  public static boolean auxiliary(String path) {
    int start = 0;
    int slash;
    while ((slash = path.indexOf('/', start)) >= 0) {
      if (AUXILIARY_DIRS.contains(path.substring(start, slash).toLowerCase(Locale.ROOT))) {
        return true;
      }
      start = slash + 1;
    }
    String name = path.substring(start);
    String lower = name.toLowerCase(Locale.ROOT);
    int dot = name.indexOf('.');
    String stem = dot < 0 ? name : name.substring(0, dot);
    return lower.endsWith("_test.go") || lower.endsWith("_test.py") || lower.startsWith("test_")
        || lower.equals("conftest.py") || lower.contains(".test.") || lower.contains(".spec.")
        || lower.endsWith("_spec.rb") || lower.endsWith("_test.rb")
        || (lower.endsWith(".java") || lower.endsWith(".kt"))
            && (stem.endsWith("Test") || stem.endsWith("Tests") || stem.endsWith("IT"))
        || lower.endsWith(".pb.go") || lower.contains("_generated.")
        || lower.contains(".generated.") || lower.contains(".gen.") || declarations(lower);
  }

  /**
   * Whether {@code name} (lower case) is a file of declarations without bodies that accompanies
   * the implementation: a Python stub ({@code *.pyi}) or a TypeScript declaration file ({@code
   * *.d.ts}, {@code *.d.mts}, {@code *.d.cts}).
   */
  static boolean declarations(String name) {
    return name.endsWith(".pyi") || name.endsWith(".d.ts") || name.endsWith(".d.mts")
        || name.endsWith(".d.cts");
  }

  /**
   * Whether the prior applies to a search: not when a query word asks for auxiliary files or the
   * scope lies in one.
   *
   * @param queryWords the query's words, lower case (analyzed terms are fine)
   */
  public static boolean applies(Set<String> queryWords, @Nullable String scope) {
    for (String w : queryWords) {
      if (ASKING_WORDS.contains(w)) {
        return false;
      }
    }
    return scope == null || !(auxiliary(scope) || auxiliary(scope + "/"));
  }

  /**
   * {@link #applies} for a search over several scopes (empty: the whole repository):
   * the prior applies unless the query asks for auxiliary files or every scope lies in one.
   */
  public static boolean appliesToScopes(Set<String> queryWords, java.util.List<String> scopes) {
    if (scopes.isEmpty()) {
      return applies(queryWords, null);
    }
    for (String scope : scopes) {
      if (applies(queryWords, scope)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code score} after the prior: unchanged for library source; for an auxiliary path multiplied
   * by {@code weight} when it is positive and divided by it when it is negative (a cosine can be),
   * so the prior always lowers a score.
   */
  public static double apply(double score, String path, double weight) {
    if (factor(path, weight) == 1) {
      return score;
    }
    return score >= 0 ? score * weight : score / weight;
  }

  /** The factor of a candidate's score: {@code weight} for an auxiliary path, else 1. */
  public static double factor(String path, double weight) {
    return weight < 1 && auxiliary(path) ? weight : 1;
  }
}
