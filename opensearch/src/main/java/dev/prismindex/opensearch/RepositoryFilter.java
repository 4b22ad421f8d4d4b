package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Which repositories of an organisation: names and globs ({@code payments}, {@code payments-*},
 * {@code team/*}; {@code *} matches any characters, {@code /} included), each optionally negated
 * with a leading {@code !} ({@code !*-archive}). A repository is selected when it matches at least
 * one positive pattern (every repository when there is none) and no negated one. Names are
 * compared in lower case, as repository names are stored.
 *
 * <p>The same syntax serves a search's repository filter and a deployment's list of allowed
 * repositories; both are turned into what the cluster runs ({@link #indexExpression}: the index
 * expression of the request's URL; {@link #indexQuery}: a query on {@code _index}), never applied
 * to results afterwards.
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

  /** The filter of {@code patterns} (names and globs, comma-separated items allowed). */
  public static RepositoryFilter of(List<String> patterns) {
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

  /**
   * The index expression of the organisation's repositories this filter selects, for a request's
   * URL ({@code prism-repo.payments-*,-prism-repo.payments-archive}): every index of the
   * organisation when no pattern is positive.
   */
  String indexExpression(String organisation) {
    List<String> parts = new ArrayList<>();
    boolean positive = patterns.stream().anyMatch(p -> !p.startsWith("!"));
    if (!positive) {
      parts.add(Organisation.prefix(organisation) + "*");
    }
    for (String p : patterns) {
      if (!p.startsWith("!")) {
        parts.add(Organisation.indexName(organisation, p));
      }
    }
    for (String p : patterns) {
      if (p.startsWith("!")) {
        parts.add("-" + Organisation.indexName(organisation, p.substring(1)));
      }
    }
    return String.join(",", parts);
  }

  /** The filter as a query on {@code _index}, or null when it selects every repository. */
  @Nullable ObjectNode indexQuery(String organisation) {
    if (all()) {
      return null;
    }
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode should = null;
    ArrayNode mustNot = null;
    for (String p : patterns) {
      boolean negated = p.startsWith("!");
      String index = Organisation.indexName(organisation, negated ? p.substring(1) : p);
      ObjectNode clause = Cluster.JSON.createObjectNode();
      if (index.contains("*")) {
        clause.putObject("wildcard").putObject("_index").put("value", index);
      } else {
        clause.putObject("term").put("_index", index);
      }
      if (negated) {
        mustNot = mustNot == null ? bool.putArray("must_not") : mustNot;
        mustNot.add(clause);
      } else {
        should = should == null ? bool.putArray("should") : should;
        should.add(clause);
      }
    }
    if (should != null) {
      bool.put("minimum_should_match", 1);
    }
    return q;
  }

  @Override
  public String toString() {
    return all() ? "all repositories" : String.join(",", patterns);
  }
}
