package dev.prismindex.engine.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This project's own JNI library, {@code libprism-native.so} ({@code engine/src/main/native/}): the
 * tree-sitter runtime and the chunker's grammars ({@code chunk.NativeDefinitions}), the BLAKE3 C
 * implementation ({@code store.Hashing}) and the n-grams of ASCII files ({@code
 * analysis.GramSet}). Built for linux-x86_64 only, when the build machine has gcc, curl and the npm
 * registry; it is loaded at the first call of {@link #loaded()} (the first chunking or hash), never
 * on other platforms, not when this build has none ({@code -Dprism.native.skip=true}, or a build
 * that could not make it), and not with {@code -Dprism.native=false}. Then, or when it cannot load,
 * each user falls back to its Java path (the tree-sitter binding, commons-codec, the Java n-grams),
 * which gives the same results. A native allocation that fails is reported as {@link
 * NativeMemoryException}, after which the caller takes its Java path for that input: the library
 * never aborts the process.
 */
public final class NativeLibrary {

  private static final Logger LOG = LoggerFactory.getLogger(NativeLibrary.class);

  /** The library's file name, also its resource's under {@code linux-x86_64/} here. */
  public static final String NAME = "libprism-native.so";

  /** Why the library is not loaded, or null when it is; set once, by {@link #load()}. */
  private static String why;

  private static final boolean LOADED = load();

  private NativeLibrary() {}

  /** Whether the library is loaded (linux-x86_64, built, not switched off); loads it once. */
  public static boolean loaded() {
    return LOADED;
  }

  /**
   * Why the library is not loaded ({@code switched off with -Dprism.native=false}, {@code built
   * for linux-x86_64 only, not for ...}, {@code not in this build (...)}, {@code could not be
   * loaded: ...}), or {@code loaded} (loads it once).
   */
  public static String status() {
    return LOADED ? "loaded" : why;
  }

  /**
   * Thrown by a native call whose memory ran out (malloc, or tree-sitter's allocator): nothing of
   * the call's result is usable, and the caller takes its Java path for that input. The library
   * stays usable for the next one.
   */
  public static final class NativeMemoryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Made by the native code ({@code prism_alloc.c}). */
    public NativeMemoryException(String message) {
      super(message);
    }
  }

  /**
   * For the tests of the paths that handle a failed native allocation: the library's allocation
   * {@code n} allocations from now ({@code 0}: the next one, in whichever thread) fails, once; a
   * negative {@code n} switches that off. Returns the count that was left, negative when the
   * failure happened (or none was asked for). Only when {@link #loaded()}.
   */
  public static native long failAllocationAfter(long n);

  private static boolean load() {
    if (!Boolean.parseBoolean(System.getProperty("prism.native", "true"))) {
      why = "switched off with -Dprism.native=false";
      return false;
    }
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "");
    if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      why = "built for linux-x86_64 only, not for " + os + "-" + arch;
      return false;
    }
    try (InputStream in = NativeLibrary.class.getResourceAsStream("linux-x86_64/" + NAME)) {
      if (in == null) {
        LOG.debug("{} not in this build; chunking with the tree-sitter binding, hashing in Java",
            NAME);
        why = "not in this build (built with -Dprism.native.skip=true, or without gcc)";
        return false;
      }
      // A private file of this process (mode 0600), unlinked as soon as it is mapped: nothing is
      // left behind, even by a process killed later.
      Path file = Files.createTempFile("prism-native-", ".so");
      try {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        System.load(file.toAbsolutePath().toString());
      } finally {
        Files.deleteIfExists(file);
      }
      return true;
    } catch (IOException | LinkageError | SecurityException e) {
      LOG.warn("{} could not be loaded; chunking with the tree-sitter binding, hashing in Java: {}",
          NAME, e.toString());
      why = "could not be loaded: " + e;
      return false;
    }
  }
}
