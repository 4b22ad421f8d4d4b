package dev.prismindex.repository;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One matching line.
 *
 * <p>Literal matches always carry a 1-based {@code line} and {@code column} (UTF-16 units) and
 * {@code endLine == line}. Index matches carry the location the backend reported after validation:
 * {@code line} and {@code endLine} are 1-based with {@code line <= endLine}, or 0 when the backend
 * could not know; their {@code text} is the (bounded, untrusted) snippet and they have a
 * {@code score}.
 *
 * @param path root-relative, {@code /}-separated path of the file
 * @param line 1-based line of the match, or 0 when unknown (index hits only)
 * @param endLine last line the match covers ({@code >= line}), or 0 when unknown
 * @param column 1-based UTF-16 column of the first occurrence, or 0 when unknown
 * @param text the whole matching line (literal) or the snippet (index)
 * @param before up to {@code context} preceding lines of the same file
 * @param after up to {@code context} following lines of the same file
 * @param score relevance in [0, 1] for index results; {@code null} for literal results
 */
public record RepositorySearchMatch(
    String path,
    int line,
    int endLine,
    int column,
    String text,
    List<String> before,
    List<String> after,
    @Nullable Double score) {

  public RepositorySearchMatch {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(text, "text");
    before = List.copyOf(before);
    after = List.copyOf(after);
  }
}
