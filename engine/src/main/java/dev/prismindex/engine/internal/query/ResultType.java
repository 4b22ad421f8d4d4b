package dev.prismindex.engine.internal.query;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The result a sentence's opening says the described function returns, and the declarations that
 * return it: a predicate ("Returns true if ...", "Checks whether ...": {@link
 * NameConventions#predicate}) a boolean, a count ("Returns the number of ...", "Counts ...":
 * {@link NameConventions#count}) an integer. The definition prior multiplies a candidate whose
 * declaration returns the implied type by 1 + the type's {@link #weight} (0.5 each; a property
 * for measuring, 0 turns it off). An unannotated Python function declares no result and is never
 * lifted.
 */
enum ResultType {
  /**
   * Java's {@code boolean name(}, Go's {@code ) bool} or {@code ) (bool, ...}, Rust's and Python's
   * {@code -> bool}, TypeScript's {@code ): boolean} and type guard {@code ): x is T}.
   */
  BOOLEAN("prism.rank.predicateWeight",
      "\\bboolean\\s+\\w+\\s*\\(|\\)\\s*(?:->|:)\\s*(?:bool|boolean)\\b"
          + "|\\)\\s*:\\s*\\w+\\s+is\\s|\\)\\s*\\(?\\s*bool\\b"),
  /**
   * Java's {@code int}, {@code long} or {@code short} before the name; Go's, Rust's, Python's and
   * TypeScript's integer types after the parameters.
   */
  INTEGER("prism.rank.countWeight",
      "\\b(?:int|long|short)\\s+\\w+\\s*\\(|\\)\\s*(?:->|:)?\\s*\\(?\\s*"
          + "(?:u?int(?:8|16|32|64)?|[ui](?:8|16|32|64|128|size)|number|bigint)\\b");

  /** The factor's weight for a declaration that returns this type. */
  final double weight;

  private final Pattern declared;

  ResultType(String weightProperty, String declared) {
    this.weight = Double.parseDouble(System.getProperty(weightProperty, "0.5"));
    this.declared = Pattern.compile(declared);
  }

  /**
   * The result {@code sentence} implies, given its opening's convention words {@code lead}
   * ({@link NameConventions#lead}); null when it implies none or its weight is 0.
   */
  static @Nullable ResultType implied(String sentence, Set<String> lead) {
    ResultType implied = NameConventions.predicate(lead) ? BOOLEAN
        : NameConventions.count(sentence) ? INTEGER : null;
    return implied == null || implied.weight == 0 ? null : implied;
  }

  /**
   * Whether {@code declaration} (a definition's declaration lines, {@link
   * SentenceShares#signature}) declares this result; false when it declares none or another.
   */
  boolean declaredBy(List<String> declaration) {
    return declared.matcher(String.join(" ", declaration)).find();
  }
}
