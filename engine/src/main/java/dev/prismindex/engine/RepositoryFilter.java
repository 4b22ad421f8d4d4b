package dev.prismindex.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which repositories of several: names and globs ({@code payments}, {@code payments-*}, {@code
 * team/*}; {@code *} matches any characters, {@code /} included), each optionally negated with a
 * leading {@code !} ({@code !*-archive}). A repository is selected when it matches at least one
 * positive pattern (every repository when there is none) and no negated one. Names are compared
 * ignoring case.
 *
 * <p>The one repository filter: a {@link Workspace}'s ({@link Workspace#only}), the command
 * line's {@code --repos} and the MCP tool's {@code repos} for a workspace and for an organisation
 * on the cluster alike, and a deployment's list of allowed repositories. The cluster runs it
 * inside the query, never on the results.
 *
 * @param patterns the patterns, in lower case
 */
public record RepositoryFilter(List<String> patterns) {

  /** Every repository. */
  public static final RepositoryFilter ALL = new RepositoryFilter(List.of());

  private static final Pattern SYNTAX =
      Pattern.compile("!?[a-z0-9*][a-z0-9._*-]*(/[a-z0-9*][a-z0-9._*-]*)*");

  /**
   * Checks and lower-cases the patterns.
   *
   * @throws IllegalArgumentException for a pattern that is not a name or glob of names
   */
  public RepositoryFilter {
    List<String> out = new ArrayList<>(patterns.size());
    for (String p : patterns) {
      String q = p.strip().toLowerCase(Locale.ROOT);
      if (q.length() > 180 || !SYNTAX.matcher(q).matches()) {
        throw new IllegalArgumentException("invalid repository name or glob '" + p
            + "' (letters, digits, '.', '_', '-', parts joined by '/', '*' for any characters,"
            + " a leading '!' to leave out)");
      }
      out.add(q);
    }
    patterns = List.copyOf(out);
  }

  /**
   * The filter of {@code patterns} (names and globs, comma-separated items allowed).
   *
   * @throws IllegalArgumentException as the constructor
   */
  public static RepositoryFilter of(Collection<String> patterns) {
    List<String> out = new ArrayList<>();
    for (String p : patterns) {
      for (String item : p.split(",")) {
        if (!item.isBlank()) {
          out.add(item);
        }
      }
    }
    return new RepositoryFilter(out);
  }

  /** Whether every repository is selected. */
  public boolean all() {
    return patterns.isEmpty();
  }

  /** Whether the repository {@code name} is selected. */
  public boolean matches(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    boolean positive = false;
    boolean selected = false;
    for (String p : patterns) {
      boolean negated = p.startsWith("!");
      boolean hit = glob(negated ? p.substring(1) : p).matcher(n).matches();
      if (negated && hit) {
        return false;
      }
      if (!negated) {
        positive = true;
        selected |= hit;
      }
    }
    return !positive || selected;
  }

  /**
   * The names of {@code names} this filter selects, in their order, for a set of repositories
   * known in advance (a workspace): a name given without {@code *} must be one of them, and the
   * selection must not be empty.
   *
   * @throws IllegalArgumentException when a name is not among {@code names}, or none is selected
   *     (the message lists {@code names})
   */
  public List<String> select(Collection<String> names) {
    for (String p : patterns) {
      String name = p.startsWith("!") ? p.substring(1) : p;
      if (name.indexOf('*') < 0 && names.stream().noneMatch(name::equalsIgnoreCase)) {
        throw new IllegalArgumentException("no repository '" + name + "' in the workspace (it has "
            + String.join(", ", names) + ")");
      }
    }
    List<String> out = names.stream().filter(this::matches).toList();
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no repository of the workspace matches " + this
          + " (it has " + String.join(", ", names) + ")");
    }
    return out;
  }

  private static Pattern glob(String p) {
    String[] parts = p.split("\\*", -1);
    StringBuilder exact = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        exact.append(".*");
      }
      exact.append(Pattern.quote(parts[i]));
    }
    return Pattern.compile(exact.toString());
  }

  @Override
  public String toString() {
    return all() ? "all repositories" : String.join(",", patterns);
  }
}
