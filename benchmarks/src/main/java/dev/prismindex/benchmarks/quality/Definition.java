package dev.prismindex.benchmarks.quality;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A definition found in a corpus file by {@link DefinitionExtractor}.
 *
 * @param path corpus-relative, {@code /}-separated path
 * @param language the file's language
 * @param kind a function (or method) or a type
 * @param name the simple name
 * @param nameLine 1-based line of the name
 * @param startLine 1-based first line of the definition's header (annotations, attributes,
 *     decorators and modifiers included; the doc comment before it excluded)
 * @param endLine 1-based last line
 * @param hasBody whether it is a function with a body (not a signature)
 * @param doc the raw doc comment (or docstring) of the definition, if any
 * @param docSpans the UTF-8 byte ranges {@code [start, end)} of that doc comment in the file
 *     (several for a run of line comments or overload signatures' docs), blanked for its query
 */
record Definition(String path, Language language, Kind kind, String name, int nameLine,
    int startLine, int endLine, boolean hasBody, @Nullable String doc, List<Span> docSpans) {

  /** What a definition defines. */
  enum Kind { FUNCTION, TYPE }

  /** A UTF-8 byte range {@code [start, end)}. */
  record Span(int start, int end) {}

  Definition {
    docSpans = List.copyOf(docSpans);
  }

  /** Whether this is a function or method with a body: a natural-language target candidate. */
  boolean isFunctionWithBody() {
    return kind == Kind.FUNCTION && hasBody;
  }

  /** Whether {@code line} (1-based) lies within the definition, header to end. */
  boolean contains(int line) {
    return line >= startLine && line <= endLine;
  }
}
