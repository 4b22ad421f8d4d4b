package dev.prismindex.engine;

import dev.prismindex.engine.internal.NativeLibrary;

/**
 * Whether this process runs the engine's native library ({@code libprism-native.so}: the
 * tree-sitter runtime and grammars, BLAKE3, the n-gram extraction), and why not. Without it the
 * engine uses its Java paths, which give the same results, more slowly. Asking loads the library
 * once, as the first chunking or hash would.
 *
 * @param loaded whether the library is loaded
 * @param detail {@code loaded}, or why not: switched off ({@code -Dprism.native=false}), another
 *     platform (it is built for linux-x86_64 only), not in this build, or the loading error
 */
public record NativeSupport(boolean loaded, String detail) {

  /** The library's file name. */
  public static final String LIBRARY = NativeLibrary.NAME;

  /** This process's. */
  public static NativeSupport current() {
    return new NativeSupport(NativeLibrary.loaded(), NativeLibrary.status());
  }
}
