package dev.prismindex.benchmarks.quality;

import java.util.List;
import java.util.Locale;
import org.treesitter.TSLanguage;
import org.treesitter.TreeSitterGo;
import org.treesitter.TreeSitterJava;
import org.treesitter.TreeSitterJavascript;
import org.treesitter.TreeSitterPython;
import org.treesitter.TreeSitterRust;
import org.treesitter.TreeSitterTsx;
import org.treesitter.TreeSitterTypescript;

/**
 * The languages whose definitions the benchmark extracts, with their source file suffixes: the
 * seven the engine chunks by syntax (TSX and JavaScript are extracted like TypeScript; the
 * benchmark's corpora use the first five, the training pairs all seven).
 */
enum Language {
  JAVA(".java"),
  PYTHON(".py"),
  GO(".go"),
  RUST(".rs"),
  TYPESCRIPT(".ts", ".mts", ".cts"),
  TSX(".tsx"),
  JAVASCRIPT(".js", ".mjs", ".cjs", ".jsx");

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

  /** Whether this language is TypeScript, TSX or JavaScript (one extraction for the three). */
  boolean isScript() {
    return this == TYPESCRIPT || this == TSX || this == JAVASCRIPT;
  }

  /** The language of the engine's chunker for files of this language (its {@code Languages}). */
  String engineId() {
    return id();
  }

  /** The language whose suffix {@code path} has, or null. */
  static @org.jspecify.annotations.Nullable Language ofPath(String path) {
    for (Language l : values()) {
      if (l.isSource(path)) {
        return l;
      }
    }
    return null;
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
      case TSX -> new TreeSitterTsx();
      case JAVASCRIPT -> new TreeSitterJavascript();
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
        + " typescript, tsx, javascript)");
  }
}
