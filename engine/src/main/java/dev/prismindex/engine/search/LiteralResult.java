package dev.prismindex.engine.search;

import java.util.List;

/**
 * Exact literal matches in path, line order.
 *
 * @param matches the matches, at most the requested cap
 * @param truncated whether a further match exists
 */
public record LiteralResult(List<LiteralMatch> matches, boolean truncated) {}
