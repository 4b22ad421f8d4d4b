package dev.prismindex.engine.internal.chunk;

import dev.prismindex.engine.internal.NativeLibrary;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The definitions of a file found by this project's own JNI library ({@link NativeLibrary}, {@code
 * libprism-native.so}): the tree-sitter runtime and the chunker's seven grammars compiled with -O2
 * (the binding's libraries are built without optimisation), parsed and walked in one native call
 * per file, so no tree node crosses into Java. Built for linux-x86_64 only
 * ({@code engine/src/main/native/build.sh}); elsewhere, when the library cannot be loaded, or with
 * {@code -Dprism.native=false} or {@code -Dprism.treeSitter.native=false} (the chunker alone),
 * {@link #available()} is false and the chunker uses the binding ({@link BindingDefinitions}). Both
 * give the same definitions ({@code DefinitionQueryTest}).
 */
final class NativeDefinitions {

  /** The grammars, in the order of the native {@code language(id)} switch. */
  private static final List<String> LANGUAGES =
      List.of("java", "python", "typescript", "tsx", "javascript", "go", "rust");

  /** The ints of one record of the native {@code scan} (its {@code RECORD}). */
  private static final int RECORD = 9;

  private static final boolean AVAILABLE = enabled();

  /** A grammar with the symbols of its definition and container node types. */
  record Grammar(long language, int[] definitions, int[] containers, boolean macros) {}

  private NativeDefinitions() {}

  /** Whether the library is loaded (linux-x86_64, built, not switched off) and used here. */
  static boolean available() {
    return AVAILABLE;
  }

  /**
   * The grammar of {@code language} with the symbols of the named node types among {@code
   * definitions} and {@code containers} that it has (types of other grammars are left out).
   */
  static Grammar grammar(String language, Set<String> definitions, Set<String> containers) {
    int id = LANGUAGES.indexOf(language);
    if (!AVAILABLE || id < 0) {
      throw new IllegalStateException("no native grammar for " + language);
    }
    long lang = language(id);
    return new Grammar(lang, symbols(lang, definitions), symbols(lang, containers),
        language.equals("rust"));
  }

  private static int[] symbols(long language, Set<String> types) {
    return types.stream()
        .mapToInt(t -> symbol(language, t.getBytes(StandardCharsets.UTF_8)))
        .filter(s -> s != 0)
        .toArray();
  }

  /**
   * Parses {@code utf8} with {@code grammar} and returns its definitions in document order, with
   * the Rust item macro bodies when {@code macros}; null when tree-sitter gives no tree.
   *
   * @throws NativeLibrary.NativeMemoryException when the parse ran out of native memory (the
   *     library stays usable; the caller parses this file another way)
   */
  static @Nullable List<ScanItem> scan(Grammar grammar, byte[] utf8, boolean macros) {
    int[] r = scan(grammar.language(), utf8, grammar.definitions(), grammar.containers(),
        macros && grammar.macros());
    if (r == null) {
      return null;
    }
    ScanItem[] found = new ScanItem[r.length / RECORD];
    for (int i = 0, k = 0; k < found.length; i += RECORD, k++) {
      found[k] = new ScanItem(r[i] == 0, r[i + 1], r[i + 2], r[i + 3], r[i + 4], r[i + 5], r[i + 6],
          r[i + 7], r[i + 8] != 0);
    }
    return List.of(found);
  }

  private static boolean enabled() {
    return Boolean.parseBoolean(System.getProperty("prism.treeSitter.native", "true"))
        && NativeLibrary.loaded();
  }

  private static native long language(int id);

  private static native int symbol(long language, byte[] name);

  private static native int @Nullable [] scan(long language, byte[] utf8, int[] definitions,
      int[] containers, boolean macros);

  /**
   * Sets how many bytes of tree-sitter's memory a scan takes from its thread's arena before the
   * rest comes from malloc (0: all of the arena; for the tests of that path).
   */
  static native void arenaLimit(long bytes);
}
