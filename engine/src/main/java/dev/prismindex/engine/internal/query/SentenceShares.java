package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a sentence's prose stems say of a definition's text, each a share in [0, 1]: of its name's
 * words ({@link #nameShare}), of its code and of its doc comment ({@link #said}: one pass that
 * tells comment lines and docstrings from code), of its declaration ({@link #signature}). The
 * definition prior ({@link DefinitionMatch}), the in-file promotion and the learned ranker's
 * features read them.
 */
final class SentenceShares {

  /** Stems a query gives at most. */
  static final int MAX_TERMS = 64;

  /** Stems a chunk's code gives at most. */
  private static final int MAX_CODE_TERMS = 4096;

  /** Lines above a chunk looked at for its doc comment block. */
  private static final int MAX_LINES_ABOVE = 60;

  /** Case changes, digits and separators that split an identifier into words. */
  private static final Pattern WORDS =
      Pattern.compile("(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[^A-Za-z]+");

  private SentenceShares() {}

  /** The shares of a sentence's stems that a chunk's code and its doc comment say. */
  record Said(double code, double doc) {}

  /**
   * The share of {@code queryStems} found among the prose stems of {@code lines} (a chunk's, in
   * order) once comment lines ({@code //}, {@code /*}, {@code *}, {@code #} but not a {@code #[}
   * attribute) and Python docstrings (a line opening with triple quotes, to the line closing
   * them) are left out; 0 without stems.
   */
  static double codeShare(List<String> lines, Set<String> queryStems, CodeAnalyzer analyzer) {
    return stemShare(split(lines).code(), queryStems, analyzer);
  }

  /**
   * The shares of {@code queryStems} that {@code lines} say in code ({@link #codeShare}) and in
   * their comment lines and docstrings together with the comment block right above them
   * ({@code above}: the lines before the chunk, nearest last; annotations and attributes between
   * that block and the chunk skipped): what a definition's code and its doc say of the sentence;
   * 0 each without stems.
   */
  static Said said(List<String> lines, List<String> above, Set<String> queryStems,
      CodeAnalyzer analyzer) {
    if (queryStems.isEmpty()) {
      return new Said(0, 0);
    }
    Text text = split(lines);
    int from = above.size();
    boolean comment = false;
    for (int i = above.size() - 1; i >= 0 && above.size() - i <= MAX_LINES_ABOVE; i--) {
      String t = above.get(i).strip();
      if (isComment(t)) {
        comment = true;
        from = i;
      } else if (comment || !(t.startsWith("@") || t.startsWith("#["))) {
        break;
      }
    }
    String doc = String.join("\n", above.subList(from, above.size())) + '\n' + text.comments();
    return new Said(stemShare(text.code(), queryStems, analyzer),
        stemShare(doc, queryStems, analyzer));
  }

  /** Whether stripped line {@code t} is a comment line (not a {@code #[} attribute). */
  private static boolean isComment(String t) {
    return t.startsWith("//") || t.startsWith("/*") || t.startsWith("*")
        || t.startsWith("#") && !t.startsWith("#[");
  }

  /** A chunk's lines as its code and as its comment lines and docstrings. */
  private record Text(String code, String comments) {}

  /** {@code lines} as their code and their comment lines and docstrings, in one pass. */
  private static Text split(List<String> lines) {
    StringBuilder code = new StringBuilder();
    StringBuilder comments = new StringBuilder();
    String docstring = null;
    for (String line : lines) {
      String t = line.strip();
      boolean isComment;
      if (docstring != null) {
        if (t.contains(docstring)) {
          docstring = null;
        }
        isComment = true;
      } else if (t.startsWith("\"\"\"") || t.startsWith("'''")) {
        String quote = t.substring(0, 3);
        if (t.indexOf(quote, 3) < 0) {
          docstring = quote;
        }
        isComment = true;
      } else {
        isComment = isComment(t);
      }
      (isComment ? comments : code).append(line).append('\n');
    }
    return new Text(code.toString(), comments.toString());
  }

  /** The share of {@code queryStems} among the prose stems of {@code text}; 0 without stems. */
  private static double stemShare(String text, Set<String> queryStems, CodeAnalyzer analyzer) {
    if (queryStems.isEmpty()) {
      return 0;
    }
    Set<String> stems = analyzer.proseTerms(text, MAX_CODE_TERMS);
    int said = 0;
    for (String q : queryStems) {
      if (stems.contains(q)) {
        said++;
      }
    }
    return (double) said / queryStems.size();
  }

  /**
   * The declaration at {@code line} (1-based) of {@code file}: that line and the next ones up to
   * the one that opens the body (it holds an opening brace or ends with a colon) or ends the
   * declaration (a semicolon), at most four lines.
   */
  static List<String> signature(List<String> file, int line) {
    int from = Math.min(Math.max(0, line - 1), file.size());
    int to = from;
    while (to < file.size() && to < from + 4) {
      String t = file.get(to++).strip();
      if (t.contains("{") || t.endsWith(":") || t.endsWith(";")) {
        break;
      }
    }
    return file.subList(from, Math.min(to, file.size()));
  }

  /**
   * The share of the words of {@code name} (an identifier) whose prose stem is in {@code
   * queryStems}; 0 for an empty name.
   */
  static double nameShare(String name, Set<String> queryStems, CodeAnalyzer analyzer) {
    return nameShare(name, queryStems, Set.of(), analyzer);
  }

  /**
   * The share of the words of {@code name} (an identifier) said by the sentence: a word whose
   * prose stem is in {@code queryStems}, and its first word when it is one of {@code lead} (the
   * name words the sentence's opening implies, {@link NameConventions#lead}). With {@link #LEAD}
   * {@code agree}, a first word of the conventions ({@link NameConventions#FIRST_WORDS}) that is
   * not in a non-empty {@code lead} counts as a word not said even when it is an English function
   * word ({@code is}, {@code to}), which the prose stems leave out. 0 for an empty name.
   */
  static double nameShare(String name, Set<String> queryStems, Set<String> lead,
      CodeAnalyzer analyzer) {
    if (name.isEmpty() || queryStems.isEmpty()) {
      return 0;
    }
    String first = "";
    List<String> rest = new ArrayList<>();
    for (String w : WORDS.split(name)) {
      if (w.isEmpty()) {
        continue;
      }
      if (first.isEmpty() && rest.isEmpty()) {
        first = w.toLowerCase(Locale.ROOT);
      } else {
        rest.add(w);
      }
    }
    boolean convention = !lead.isEmpty() && LEAD != Lead.OFF
        && NameConventions.FIRST_WORDS.contains(first);
    Set<String> stems = analyzer.proseTerms(convention ? String.join(" ", rest)
        : String.join(" ", WORDS.split(name)), MAX_TERMS);
    int said = 0;
    int words = stems.size();
    if (convention) {
      Set<String> firstStems = analyzer.proseTerms(first, MAX_TERMS);
      stems.removeAll(firstStems); // a later word of the same stem is the first's
      words = stems.size();
      if (lead.contains(first)) {
        said++;
        words++;
      } else if (LEAD == Lead.AGREE || !firstStems.isEmpty()) { // else by its stem
        words++;
        if (!firstStems.isEmpty() && said(firstStems.iterator().next(), queryStems)) {
          said++;
        }
      }
    }
    if (words == 0) {
      return 0;
    }
    for (String s : stems) {
      if (said(s, queryStems)) {
        said++;
      }
    }
    return (double) said / words;
  }

  /** Whether name stem {@code s} is said by {@code queryStems}. */
  private static boolean said(String s, Set<String> queryStems) {
    return queryStems.contains(s) || s.length() >= 3 && begins(s, queryStems);
  }

  /** How the sentence's opening counts in the name share ({@link #nameShare}). */
  enum Lead {
    /** Not at all: stems only. */
    OFF,
    /** A name's first word the opening implies is said. */
    ADD,
    /** And a convention first word it does not imply is not said, function word or not. */
    AGREE
  }

  /**
   * How the sentence's opening counts (agree; add, off: measured, section 5 of benchmarks.md); the
   * property is for measuring.
   */
  static final Lead LEAD = Lead.valueOf(
      System.getProperty("prism.rank.lead", "agree").toUpperCase(Locale.ROOT));

  /** Whether {@code prefix} begins one of {@code stems}. */
  private static boolean begins(String prefix, Set<String> stems) {
    for (String s : stems) {
      if (s.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
