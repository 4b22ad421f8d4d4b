package dev.prismindex.engine.internal;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the tests may expect of this build's native library: built on linux-x86_64 unless the build
 * skipped it ({@code -Dprism.native.skip=true}) or could not make it (no gcc, no network: the
 * build then writes the one line it warned with to {@code target/native/degraded}, which the pom
 * names in {@code prism.native.degraded}).
 */
public final class NativeBuild {
  private NativeBuild() {}

  /** Whether this build should have put the library into the engine's classes. */
  public static boolean expected() {
    boolean linuxX64 = System.getProperty("os.name").startsWith("Linux")
        && System.getProperty("os.arch").equals("amd64");
    String degraded = System.getProperty("prism.native.degraded");
    boolean leftOut = degraded != null && Files.exists(Path.of(degraded));
    return linuxX64 && !Boolean.getBoolean("prism.native.skip") && !leftOut;
  }

  /** Whether the library is in this build. */
  public static boolean built() {
    return NativeLibrary.class.getResource("linux-x86_64/" + NativeLibrary.NAME) != null;
  }

  /** Whether this test run switched the library off ({@code -Dprism.native=false}). */
  public static boolean switchedOff() {
    return !Boolean.parseBoolean(System.getProperty("prism.native", "true"));
  }
}
