package dev.prismindex.benchmarks.quality;

import java.util.Locale;
import java.util.Set;

/**
 * The benchmark's ground truth for "library source": a file is library source unless a directory
 * on its path is a test, example, bench, doc or tool directory, or its name is a test file's. Kept
 * apart from (and independent of) whatever prior the engine applies: natural-language and
 * navigation targets are drawn from library files only, and a rank-1 hit outside them is counted
 * as "rank 1 in a test/example/bench/doc file".
 */
final class LibraryPaths {

  /** Directory names (any depth, case-insensitive) whose files are not library source. */
  static final Set<String> NON_LIBRARY_DIRS = Set.of("test", "tests", "__tests__", "testing",
      "testdata", "fixtures", "example", "examples", "bench", "benches", "benchmark",
      "benchmarks", "doc", "docs", "codegen", "tools");

  private LibraryPaths() {}

  /** Whether the corpus-relative, {@code /}-separated {@code path} is library source. */
  static boolean isLibrary(String path) {
    String[] parts = path.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      if (NON_LIBRARY_DIRS.contains(parts[i].toLowerCase(Locale.ROOT))) {
        return false;
      }
    }
    String file = parts[parts.length - 1].toLowerCase(Locale.ROOT);
    return !(file.endsWith("_test.go") || file.startsWith("test_") && file.endsWith(".py")
        || file.endsWith("_test.py") || file.equals("conftest.py")
        || file.matches(".*\\.(test|spec)\\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)"));
  }
}
