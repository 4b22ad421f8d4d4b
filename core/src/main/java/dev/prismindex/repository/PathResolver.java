package dev.prismindex.repository;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Resolves a request's root and optional start path (the reference's {@code resolveRepoPath}).
 *
 * <ol>
 *   <li>The root is made absolute, normalised and real-pathed; failure is
 *       {@code "workspace root is missing or unreadable: <absolute root>"}.
 *   <li>No path, {@code ""}, {@code "."} or {@code "./"} starts at the real root.
 *   <li>Otherwise the input is expanded like the reference's {@code resolveToCwd}: a leading
 *       {@code @} is dropped, Unicode space variants become ASCII spaces, {@code ~} and {@code ~/}
 *       expand to the home directory, {@code file://} URLs become paths; a relative result is
 *       resolved against the real root, an absolute one is kept; both are normalised.
 *   <li>A result outside the real root is {@code "path escapes workspace root: <input>"}. The check
 *       compares whole name components, so a child named {@code ..foo} is inside.
 *   <li>An existing result is real-pathed; when that lands outside the real root the error is
 *       {@code "path resolves outside workspace root: <input>"}. A result that cannot be real-pathed
 *       (missing, dangling link) is kept as is; the operation's {@code lstat} reports it.
 * </ol>
 */
final class PathResolver {

  /**
   * A resolved start.
   *
   * @param realRoot the real path of the root
   * @param start where the operation starts (real, unless it could not be resolved)
   * @param relative {@code start} relative to {@code realRoot}, {@code /}-separated, {@code "."}
   *     for the root
   */
  record Resolved(Path realRoot, Path start, String relative) {}

  private PathResolver() {}

  /**
   * Resolves {@code input} below {@code root}.
   *
   * @param failurePrefix the operation's prefix for an input that cannot even be turned into a
   *     path (e.g. {@code "cannot search path: "})
   */
  static Resolved resolve(Path root, @Nullable String input, String failurePrefix) {
    Path realRoot = realRoot(root);
    if (input == null || input.isEmpty() || input.equals(".") || input.equals("./")) {
      return new Resolved(realRoot, realRoot, ".");
    }
    Path candidate;
    try {
      Path expanded = Path.of(expand(input));
      candidate = (expanded.isAbsolute() ? expanded : realRoot.resolve(expanded)).normalize();
    } catch (IllegalArgumentException e) { // includes InvalidPathException
      throw new RepositoryException(failurePrefix + e.getMessage(), e);
    }
    if (!RepoPaths.isInside(realRoot, candidate)) {
      throw new RepositoryException("path escapes workspace root: " + input);
    }
    Path start = candidate;
    try {
      Path real = candidate.toRealPath();
      if (!RepoPaths.isInside(realRoot, real)) {
        throw new RepositoryException("path resolves outside workspace root: " + input);
      }
      start = real;
    } catch (IOException missing) {
      // Not resolvable (missing or a dangling link): the operation's lstat reports it.
    }
    return new Resolved(realRoot, start, RepoPaths.toRepoRelative(realRoot, start));
  }

  /** The real path of {@code root}, or the "workspace root is missing or unreadable" error. */
  static Path realRoot(Path root) {
    Path absolute = root.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath();
    } catch (IOException e) {
      throw new RepositoryException("workspace root is missing or unreadable: " + absolute, e);
    }
  }

  /** The reference's {@code expandPath}: {@code @}, Unicode spaces, {@code ~}, {@code file://}. */
  static String expand(String input) {
    String text = input.startsWith("@") ? input.substring(1) : input;
    text = normalizeUnicodeSpaces(text);
    if (text.equals("~")) {
      return System.getProperty("user.home");
    }
    if (text.startsWith("~/")) {
      return System.getProperty("user.home") + text.substring(1);
    }
    if (text.startsWith("file://")) {
      return fileUrlToPath(text);
    }
    return text;
  }

  private static String normalizeUnicodeSpaces(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean space = c == '\u00A0' || (c >= '\u2000' && c <= '\u200A') || c == '\u202F'
          || c == '\u205F' || c == '\u3000';
      if (space && out == null) {
        out = new StringBuilder(text.length()).append(text, 0, i);
      }
      if (out != null) {
        out.append(space ? ' ' : c);
      }
    }
    return out == null ? text : out.toString();
  }

  /**
   * Node's {@code fileURLToPath} for POSIX: the host must be empty or {@code localhost}; query and
   * fragment are dropped; percent escapes are decoded as UTF-8, except an encoded {@code /}.
   */
  private static String fileUrlToPath(String url) {
    String rest = url.substring("file://".length());
    int cut = indexOfAny(rest, '?', '#');
    if (cut >= 0) {
      rest = rest.substring(0, cut);
    }
    int slash = rest.indexOf('/');
    String host = slash < 0 ? rest : rest.substring(0, slash);
    if (!host.isEmpty() && !host.equalsIgnoreCase("localhost")) {
      throw new IllegalArgumentException("File URL host must be \"localhost\" or empty");
    }
    String path = slash < 0 ? "/" : rest.substring(slash);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      boolean escape = c == '%' && i + 2 < path.length()
          && isHex(path.charAt(i + 1)) && isHex(path.charAt(i + 2));
      if (escape) {
        int value = Integer.parseInt(path.substring(i + 1, i + 3), 16);
        if (value == '/') {
          throw new IllegalArgumentException("File URL path must not include encoded / characters");
        }
        bytes.write(value);
        i += 2;
      } else {
        byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < path.length()) {
          encoded = path.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.write(encoded, 0, encoded.length);
      }
    }
    byte[] raw = bytes.toByteArray();
    return Utf8Decoder.decode(raw, 0, raw.length);
  }

  private static int indexOfAny(String text, char a, char b) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == a || text.charAt(i) == b) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
