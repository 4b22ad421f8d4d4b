package dev.prismindex.cli.command;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.NativeSupport;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version}: the project version and commit recorded in the jar at build time, then the
 * embedding model this process would use, whether the native library is loaded (and why not)
 * and the Java runtime.
 */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String commit = commit();
    NativeSupport nativeSupport = NativeSupport.current();
    return new String[] {
        "prism-index " + version() + (commit == null ? "" : " (commit " + commit + ")"),
        "model:          " + EmbedderProvider.findDefault().map(p -> p.id()
            + " (the default; loaded by the first semantic or hybrid search)")
            .orElse("none on the class path (lexical and literal search only)"),
        "native library: " + NativeSupport.LIBRARY + " " + (nativeSupport.loaded() ? "loaded"
            : "not loaded: " + nativeSupport.detail() + " (the Java paths give the same"
                + " results)"),
        "java:           " + Runtime.version() + " (" + System.getProperty("java.vendor", "?")
            + ", " + System.getProperty("java.home", "?") + ")"};
  }

  /** The project version, as Maven built it ({@code unknown} outside a built jar). */
  public static String version() {
    return properties().getProperty("version", "unknown");
  }

  /**
   * The commit the jar was built from (12 hex digits), or null when it was not built in a git
   * checkout.
   */
  public static @Nullable String commit() {
    String commit = properties("commit.properties").getProperty("commit", "");
    return commit.matches("[0-9a-f]{7,40}") ? commit : null;
  }

  private static Properties properties() {
    return properties("version.properties");
  }

  private static Properties properties(String resource) {
    Properties p = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream(resource)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // fall through to "unknown"
    }
    return p;
  }
}
