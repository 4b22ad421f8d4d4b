package dev.prismindex.engine.internal.query;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The first words that code conventions give a function's name ({@code isEmpty}, {@code toMillis},
 * {@code newInstance}, {@code getName}, {@code setName}) and the ones a sentence's opening implies
 * ("Checks whether ...", "Converts ...", "Creates ...", "Returns the ...", "Sets ..."): the table
 * {@link SentenceShares#nameShare} weighs a definition's name by. A fixed table of conventions,
 * not learned; docs/engine.md, "Ranking".
 */
final class NameConventions {

  private NameConventions() {}

  /** A predicate's first name words: {@code isEmpty}, {@code hasNext}, {@code canRead}. */
  private static final Set<String> PREDICATE =
      Set.of("is", "has", "can", "should", "are", "was", "does");

  /** A conversion's first name words: {@code toMillis}, {@code asList}, {@code into_std}. */
  private static final Set<String> CONVERSION = Set.of("to", "as", "into");

  /** A factory's first name words: {@code newInstance}, {@code of}, {@code from_str}. */
  private static final Set<String> FACTORY =
      Set.of("new", "create", "make", "build", "of", "from");

  /** The first name words the code conventions give a meaning ({@link #lead}). */
  static final Set<String> FIRST_WORDS;

  static {
    Set<String> all = new HashSet<>(PREDICATE);
    all.addAll(CONVERSION);
    all.addAll(FACTORY);
    all.add("get");
    all.add("set");
    FIRST_WORDS = Set.copyOf(all);
  }

  /** Whether {@code lead} ({@link #lead}'s) is a predicate's: the sentence describes a test. */
  static boolean predicate(Set<String> lead) {
    return PREDICATE.equals(lead);
  }

  /** A count's opening: "Returns the number of", "Gets the total count of", "Counts the". */
  private static final Pattern COUNT = Pattern.compile(
      "(?i)(?:(?:returns?|gets?|computes?)\\s+(?:the\\s+|a\\s+)?(?:total\\s+)?"
          + "(?:number|count|size|length)\\b|counts?\\s).*");

  /** Whether {@code sentence} describes a count: it opens as {@link #COUNT}. */
  static boolean count(String sentence) {
    return COUNT.matcher(sentence.strip()).matches();
  }

  /** Words after a predicate's verb: "Checks whether", "Returns true if". */
  private static final Set<String> PREDICATE_NEXT =
      Set.of("if", "whether", "true", "false", "when", "iff");

  /**
   * The first name words the opening of {@code sentence} implies by common code conventions (empty
   * when it implies none): a predicate's ({@code is}, {@code has}, {@code can}, ...) for "Whether
   * ..." and "Checks / Tests / Determines / Reports / Returns whether / if / true ..."; a
   * conversion's ({@code to}, {@code as}, {@code into}) for "Converts / Casts ..."; a factory's
   * ({@code new}, {@code create}, {@code make}, {@code build}, {@code of}, {@code from}) for
   * "Creates / Constructs / Builds / Makes / Instantiates ..." and "Returns / Gets / Obtains a
   * new ... / an instance ..."; {@code get} for "Gets / Retrieves / Fetches / Obtains ..." and
   * "Returns the ..." (a property; "Returns a ..." opens docs of every kind of function and
   * implies nothing: measured, {@code get} for every "Returns" lost as many answers as it won);
   * {@code set} for "Sets ...".
   */
  static Set<String> lead(String sentence) {
    String[] w = sentence.strip().toLowerCase(Locale.ROOT).split("[^a-z]+", 4);
    if (w.length == 0 || w[0].isEmpty()) {
      return Set.of();
    }
    String verb = w[0];
    String next = w.length > 1 ? w[1] : "";
    String third = w.length > 2 ? w[2] : "";
    if (verb.equals("whether") || PREDICATE_NEXT.contains(next) && Set.of("check", "checks",
        "test", "tests", "determine", "determines", "report", "reports", "indicate", "indicates",
        "tell", "tells", "return", "returns").contains(verb)) {
      return PREDICATE;
    }
    switch (verb) {
      case "convert", "converts", "cast", "casts":
        return CONVERSION;
      case "create", "creates", "construct", "constructs", "build", "builds", "make", "makes",
          "instantiate", "instantiates":
        return FACTORY;
      case "return", "returns", "get", "gets", "retrieve", "retrieves", "fetch", "fetches",
          "obtain", "obtains":
        if (next.equals("new") || (next.equals("a") || next.equals("an"))
            && (third.equals("new") || third.equals("instance"))) {
          return FACTORY;
        }
        return !verb.startsWith("return") || next.equals("the") ? Set.of("get") : Set.of();
      case "set", "sets":
        return Set.of("set");
      default:
        return Set.of();
    }
  }
}
