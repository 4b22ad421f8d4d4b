package dev.prismindex.benchmarks.quality;

import java.util.List;
import java.util.Locale;
import org.treesitter.TSLanguage;
import org.treesitter.TreeSitterGo;
import org.treesitter.TreeSitterJava;
import org.treesitter.TreeSitterPython;
import org.treesitter.TreeSitterRust;
import org.treesitter.TreeSitterTypescript;

/** The languages whose definitions the benchmark extracts, with their source file suffixes. */
enum Language {
  JAVA(".java"),
  PYTHON(".py"),
  GO(".go"),
  RUST(".rs"),
  TYPESCRIPT(".ts", ".mts", ".cts");

  private final List<String> suffixes;

  Language(String... suffixes) {
    this.suffixes = List.of(suffixes);
  }

  /** Whether {@code path} is a source file of this language ({@code .d.ts} declarations are not). */
  boolean isSource(String path) {
    if (this == TYPESCRIPT && path.endsWith(".d.ts")) {
      return false;
    }
    return suffixes.stream().anyMatch(path::endsWith);
  }

  /** The lower-case name used on the command line and in reports. */
  String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The tree-sitter grammar (a new instance: grammars are cheap handles). */
  TSLanguage grammar() {
    return switch (this) {
      case JAVA -> new TreeSitterJava();
      case PYTHON -> new TreeSitterPython();
      case GO -> new TreeSitterGo();
      case RUST -> new TreeSitterRust();
      case TYPESCRIPT -> new TreeSitterTypescript();
    };
  }

  /** The language named {@code id} (case-insensitive). */
  static Language of(String id) {
    for (Language l : values()) {
      if (l.id().equalsIgnoreCase(id)) {
        return l;
      }
    }
    throw new IllegalArgumentException("unknown language " + id + " (java, python, go, rust,"
        + " typescript)");
  }
}
