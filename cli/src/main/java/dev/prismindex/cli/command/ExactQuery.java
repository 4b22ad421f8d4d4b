package dev.prismindex.cli.command;

import dev.prismindex.internal.regex.RegexParser;
import dev.prismindex.internal.regex.RegexSyntaxException;
import dev.prismindex.repository.RegexPattern;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.SearchMode;
import java.util.List;

/**
 * What an exact search (literal, regex) asks of the engine: its mode, its query and its case rule,
 * made from the patterns and the grep-style flags ({@code -e}, {@code -F}, {@code -w}, {@code -i},
 * {@code -s}, {@code -S}); a pattern that does not compile is a usage error here, before any index
 * is opened.
 */
record ExactQuery(SearchMode mode, String query, boolean caseSensitive) {


  /**
   * The engine's form of an exact search: a literal with one pattern and no {@code -w} stays a
   * literal; several fixed strings, or {@code -w}, become a regex of the quoted strings (as
   * ripgrep's {@code -F} does); patterns of the regex mode are joined with {@code |}, as
   * ripgrep's {@code -e} patterns are. Case: literal ignores it by default, regex matches it;
   * {@code -S} ignores it when the pattern has a literal character and no upper-case one.
   *
   * @throws CliFailure a usage error for a pattern that does not compile
   */
  static ExactQuery of(SearchMode mode, List<String> patterns, boolean words,
      boolean caseSensitive, boolean ignoreCase, boolean smartCase) throws CliFailure {
    boolean literal = mode == SearchMode.LITERAL;
    boolean asRegex = !literal || words || patterns.size() > 1 || patterns.get(0).isEmpty();
    String query = literal && !asRegex ? patterns.get(0) : RegexPattern.anyOf(patterns, literal);
    SearchRequests.checkQueryLength(query);
    boolean insensitive;
    if (caseSensitive) {
      insensitive = false;
    } else if (ignoreCase) {
      insensitive = true;
    } else if (smartCase) {
      if (!asRegex) {
        insensitive = !query.isEmpty() && query.codePoints().noneMatch(Character::isUpperCase);
      } else {
        try {
          insensitive = RegexParser.smartCaseInsensitive(query);
        } catch (RegexSyntaxException e) {
          throw CliFailure.usage("invalid regex: " + e.getMessage());
        }
      }
    } else {
      insensitive = literal;
    }
    if (asRegex) {
      try {
        RegexPattern.compile(query, insensitive ? RegexPattern.CaseMode.INSENSITIVE
            : RegexPattern.CaseMode.SENSITIVE, words, SearchRequests.MAX_QUERY_BYTES);
      } catch (RepositoryException e) {
        throw CliFailure.usage("invalid regex: " + e.getMessage());
      }
    }
    return new ExactQuery(asRegex ? SearchMode.REGEX : SearchMode.LITERAL, query, !insensitive);
  }
}
