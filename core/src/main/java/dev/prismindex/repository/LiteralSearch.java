package dev.prismindex.repository;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One literal or regex search (the reference's {@code searchLocal}), with the match cap applied
 * after sorting; collected, or streamed to a {@link SearchSink}.
 *
 * <p>Order of work: the mode is checked ({@code literal}, or {@code regex}: a {@link RegexPattern}
 * with the request's case rule and whole-word flag), the query compiled, the start resolved, the knobs
 * validated; then the start is {@code lstat}-ed. A file is scanned alone; a directory is first
 * enumerated completely by the walk (bounded by {@code maxEntries}, {@code maxFiles} and
 * {@code maxDepth}), its files are sorted by path in UTF-16 order and scanned in that order until a
 * match beyond {@code maxMatches} turns up. A truncated result therefore holds the lexicographically
 * first matches, and {@link TruncationReason#MATCHES} means a further match exists.
 *
 * <p>Truncation precedence: an abort or deadline during the walk ends the search before any file is
 * scanned; a stop during the scan ({@code matches}, {@code scan}, {@code abort}, {@code time}) wins
 * over a walk limit ({@code entries}, {@code files}, {@code depth}), which is reported otherwise.
 *
 * <p>Counters: {@code scannedEntries} counts the entries the walk visited, {@code scannedFiles} the
 * files whose scan began (including binary, oversize and unreadable ones), {@code scannedBytes} the
 * line bytes charged (newlines excluded).
 */
final class LiteralSearch {

  private record FileRef(String path, Path absolute) {}

  private LiteralSearch() {}

  static RepositorySearchResult run(RepositorySearchRequest request, RepositoryLimits limits,
      RepoWalk walk, LongSupplier nanoClock) {
    return run(request, limits, walk, nanoClock, null);
  }

  /**
   * Runs the search; with a {@code sink}, streams the matches to it (a null {@code maxMatches}
   * then means no cap) and returns the counters only.
   */
  static RepositorySearchResult run(RepositorySearchRequest request, RepositoryLimits limits,
      RepoWalk walk, LongSupplier nanoClock, @Nullable SearchSink sink) {
    SearchMode mode = request.effectiveMode();
    LineMatcher matcher;
    if (mode == SearchMode.LITERAL) {
      if (request.wholeWords()) {
        throw new RepositoryException("whole-word matching needs the regex mode (quote the"
            + " literal with RegexPattern.quote)");
      }
      matcher = LineMatcher.literal(LiteralPattern.compile(request.query(),
          request.caseSensitive(), limits.maxPatternBytes()));
    } else if (mode == SearchMode.REGEX) {
      matcher = LineMatcher.regex(RegexPattern.compile(request.query(),
          request.caseSensitive() ? RegexPattern.CaseMode.SENSITIVE
              : RegexPattern.CaseMode.INSENSITIVE, request.wholeWords(),
          limits.maxPatternBytes()));
    } else {
      throw new RepositoryException(
          "unsupported search mode: " + mode.wireName() + " (literal only)");
    }
    PathResolver.Resolved start =
        PathResolver.resolve(request.root(), request.path(), "cannot search path: ");
    int maxMatches = sink != null && request.maxMatches() == null ? -1
        : RepositoryLimits.requireMatches("maxMatches",
            request.maxMatches() == null ? limits.maxMatches() : request.maxMatches());
    int context = RepositoryLimits.requireContextLines("context",
        request.context() == null ? limits.maxContextLines() : request.context());
    Set<String> exclude = LocalRepositoryOperations.exclude(request.exclude(), limits);
    long deadlineMs = LocalRepositoryOperations.deadlineMs(request.deadlineMs(), limits);
    OperationGuard guard = OperationGuard.start(request.signal(), deadlineMs, nanoClock);

    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(
          start.start(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new RepositoryException(
          "cannot search path: " + RepoPaths.describe(e, "lstat"), e);
    }
    FileScanner scanner = new FileScanner(matcher, limits, maxMatches, context, guard, sink);
    List<FileRef> files = new ArrayList<>();
    long[] entries = {0};
    TruncationReason walkLimit = null;
    RepoEntryKind kind = BreadthFirstWalk.kindOf(attributes);
    if (kind == RepoEntryKind.FILE) {
      entries[0] = 1;
      if (sink == null || sink.wants(start.relative())) {
        files.add(new FileRef(start.relative(), start.start()));
      }
    } else if (kind == RepoEntryKind.DIRECTORY) {
      RepoWalk.Request walkRequest = new RepoWalk.Request(start.realRoot(), start.start(),
          start.relative(), request.includeHidden(), exclude, limits.maxDepth(),
          limits.maxEntries(), limits.maxFiles(), guard);
      try {
        walkLimit = walk.walk(walkRequest, entry -> {
          entries[0]++;
          if (entry.kind() == RepoEntryKind.FILE && (sink == null || sink.wants(entry.path()))) {
            files.add(new FileRef(entry.path(), entry.absolute()));
          }
          return true;
        });
      } catch (OperationStopped stopped) {
        return result(List.of(), stopped.reason(), scanner, entries[0]);
      }
      files.sort(Comparator.comparing(FileRef::path));
    } else {
      return result(List.of(), null, scanner, 1);
    }
    TruncationReason stop = null;
    try {
      for (FileRef file : files) {
        if (!scanner.scan(file.path(), file.absolute())) {
          break;
        }
      }
      stop = scanner.stoppedBy();
    } catch (OperationStopped stopped) {
      stop = stopped.reason();
    }
    return result(scanner.matches(), stop != null ? stop : walkLimit, scanner, entries[0]);
  }

  private static RepositorySearchResult result(List<RepositorySearchMatch> matches,
      @Nullable TruncationReason truncatedBy, FileScanner scanner, long scannedEntries) {
    return new RepositorySearchResult(matches, truncatedBy, scanner.scannedBytes(),
        scanner.scannedFiles(), scannedEntries, scanner.skippedBinary(), scanner.skippedOversize(),
        scanner.skippedUnreadable(), null);
  }
}
