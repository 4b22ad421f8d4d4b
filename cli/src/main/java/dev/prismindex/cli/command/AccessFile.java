package dev.prismindex.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.prismindex.engine.RepositoryFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which repositories of an organisation a caller may search: a deployment's access file ({@code
 * $PRISM_INDEX_ACCESS_FILE}), read by every command that searches the cluster, the MCP server's
 * included, for the caller's token ({@code $PRISM_INDEX_TOKEN}).
 *
 * <pre>
 * allowed = ["docs-*"]                          # callers without a token, or an unknown one
 * [tokens]
 * "sha256:9f86d08...b0f00a08" = ["payments-*", "lib/*", "!lib/secret"]
 * </pre>
 *
 * A token is named by the SHA-256 of its UTF-8 bytes (the file holds no secret); its list replaces
 * {@code allowed}. Lists are {@link RepositoryFilter} patterns; a list with no positive pattern
 * allows nothing ({@code []}), so a mistake never opens every repository. Without the variable,
 * every repository of the organisation is allowed (the cluster's own credentials decide).
 */
public final class AccessFile {

  /** The variable naming the access file. */
  public static final String FILE_VARIABLE = "PRISM_INDEX_ACCESS_FILE";
  /** The variable holding the caller's token. */
  public static final String TOKEN_VARIABLE = "PRISM_INDEX_TOKEN";

  private AccessFile() {}

  /**
   * The repositories the caller of {@code env} may search: null when nothing is allowed, {@link
   * RepositoryFilter#ALL} without an access file.
   *
   * @throws CliFailure exit 2 for an unreadable or malformed file
   */
  public static @Nullable RepositoryFilter allowed(Environment env) throws CliFailure {
    return allowed(env.variables());
  }

  /** {@link #allowed(Environment)} of the environment variables {@code variables}. */
  static @Nullable RepositoryFilter allowed(Map<String, String> variables) throws CliFailure {
    String file = variables.get(FILE_VARIABLE);
    if (file == null || file.isBlank()) {
      return RepositoryFilter.ALL;
    }
    JsonNode root;
    try {
      root = new TomlMapper().readTree(Files.readString(Path.of(file), StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      throw CliFailure.usage("cannot read the access file $" + FILE_VARIABLE + " (" + file + "): "
          + e.getMessage());
    }
    String token = variables.get(TOKEN_VARIABLE);
    JsonNode list = root.path("allowed");
    if (token != null && !token.isEmpty()) {
      JsonNode byToken = root.path("tokens").path("sha256:" + sha256(token));
      if (!byToken.isMissingNode()) {
        list = byToken;
      }
    }
    if (list.isMissingNode()) {
      return null;
    }
    if (!list.isArray()) {
      throw CliFailure.usage("the access file " + file + ": a list of repositories must be an"
          + " array of names and globs");
    }
    List<String> patterns = new ArrayList<>();
    list.forEach(p -> patterns.add(p.asText()));
    RepositoryFilter f;
    try {
      f = RepositoryFilter.of(patterns);
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage("the access file " + file + ": " + e.getMessage());
    }
    return f.patterns().stream().anyMatch(p -> !p.startsWith("!")) ? f : null;
  }

  /** The SHA-256 of {@code token}'s UTF-8 bytes, lower-case hex. */
  static String sha256(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

}
