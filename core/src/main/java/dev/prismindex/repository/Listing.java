package dev.prismindex.repository;

import dev.prismindex.internal.Utf8;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * List and glob (the reference's {@code listLocal} and {@code globLocal}): one walk, paged with
 * {@code offset} and {@code maxResults}.
 *
 * <p>Paging: the first {@code offset} items (entries for list, matching files for glob) are skipped;
 * when the page is full and one more item arrives, the result is truncated by {@link
 * TruncationReason#RESULTS}, so that reason always means more items exist. {@code nextOffset} is
 * {@code offset + returned} whenever the result is truncated, except after an abort that returned
 * nothing from offset 0. An abort or deadline returns the partial page instead of failing; an
 * already-aborted signal returns an empty page truncated by {@link TruncationReason#ABORT}.
 */
final class Listing {

  private Listing() {}

  /** Knobs shared by list and glob, validated in the reference's order. */
  private record Knobs(int maxResults, int offset, int maxDepth, Set<String> exclude,
      OperationGuard guard) {

    static Knobs of(RepositoryListRequest request, RepositoryLimits limits,
        LongSupplier nanoClock) {
      Integer maxResults = request.maxResults();
      Integer offset = request.offset();
      Integer maxDepth = request.maxDepth();
      int results = (int) CodingLimits.requirePositive("maxResults",
          maxResults == null ? limits.maxResults() : maxResults,
          RepositoryLimits.HARD_MAX_REPO_RESULTS);
      int start = (int) CodingLimits.requireNonNegative("offset",
          offset == null ? 0 : offset, RepositoryLimits.HARD_MAX_REPO_OFFSET);
      int depth = (int) CodingLimits.requirePositive("maxDepth",
          maxDepth == null ? limits.maxDepth() : maxDepth, RepositoryLimits.HARD_MAX_REPO_DEPTH);
      Set<String> names = LocalRepositoryOperations.exclude(request.exclude(), limits);
      long budget = LocalRepositoryOperations.deadlineMs(request.deadlineMs(), limits);
      OperationGuard guard = OperationGuard.start(request.signal(), budget, nanoClock);
      return new Knobs(results, start, depth, names, guard);
    }
  }

  /** Collects one page and the counters of the walk. */
  private static final class Page<T> {
    final int offset;
    final int maxResults;
    final List<T> items = new ArrayList<>();
    int skipped;
    long scannedEntries;
    long scannedFiles;
    @Nullable TruncationReason truncatedBy;

    Page(Knobs knobs) {
      this.offset = knobs.offset();
      this.maxResults = knobs.maxResults();
    }

    /** Offers an item; {@code false} when the page is full and this item proves more exist. */
    boolean offer(T item) {
      if (skipped < offset) {
        skipped++;
        return true;
      }
      if (items.size() < maxResults) {
        items.add(item);
        return true;
      }
      truncatedBy = TruncationReason.RESULTS;
      return false;
    }

    void count(RepoEntryKind kind) {
      scannedEntries++;
      if (kind == RepoEntryKind.FILE) {
        scannedFiles++;
      }
    }

    @Nullable Integer nextOffset() {
      if (truncatedBy == null) {
        return null;
      }
      if (truncatedBy == TruncationReason.ABORT && items.isEmpty() && offset == 0) {
        return null;
      }
      return offset + items.size();
    }
  }

  static RepositoryListResult list(RepositoryListRequest request, RepositoryLimits limits,
      RepoWalk walk, LongSupplier nanoClock) {
    Page<RepoListEntry> page = walkPage(request, limits, walk, nanoClock, (p, entry) -> {
      Long size = entry.kind() == RepoEntryKind.FILE ? entry.size() : null;
      return p.offer(new RepoListEntry(entry.path(), entry.kind(), size));
    });
    return new RepositoryListResult(page.items, page.truncatedBy, page.scannedEntries,
        page.scannedFiles, page.nextOffset(), page.offset);
  }

  static RepositoryGlobResult glob(RepositoryGlobRequest request, RepositoryLimits limits,
      RepoWalk walk, LongSupplier nanoClock) {
    List<GlobMatcher> matchers = compileGlob(request, limits);
    Page<String> page = walkPage(request.listing(), limits, walk, nanoClock, (p, entry) -> {
      if (entry.kind() != RepoEntryKind.FILE) {
        return true;
      }
      return !GlobMatcher.selects(matchers, entry.path()) || p.offer(entry.path());
    });
    return new RepositoryGlobResult(page.items, page.truncatedBy, page.scannedEntries,
        page.scannedFiles, page.nextOffset(), page.offset);
  }

  /**
   * Validates the glob pattern, expands its braces when allowed (each alternative keeps a leading
   * {@code !}) and compiles the alternatives ({@link GlobMatcher#selects} of them decides).
   */
  static List<GlobMatcher> compileGlob(RepositoryGlobRequest request, RepositoryLimits limits) {
    String pattern = request.pattern();
    long bytes = Utf8.byteLength(pattern);
    if (bytes < 1) {
      throw new RepositoryException("pattern must be non-empty");
    }
    if (bytes > limits.maxPatternBytes()) {
      throw new RepositoryException(
          "pattern exceeds " + limits.maxPatternBytes() + " byte pattern limit");
    }
    List<String> alternatives;
    if (request.braceExpansion()) {
      alternatives = BraceExpansion.expand(pattern);
    } else {
      if (pattern.indexOf('{') >= 0 || pattern.indexOf('}') >= 0) {
        throw new RepositoryException("brace expansion is not supported in glob patterns "
            + "(set braceExpansion: true to enable the bounded expansion)");
      }
      alternatives = List.of(pattern);
    }
    List<GlobMatcher> matchers = new ArrayList<>(alternatives.size());
    for (String alternative : alternatives) {
      try {
        matchers.add(GlobMatcher.compile(alternative));
      } catch (IllegalArgumentException e) {
        throw new RepositoryException(e.getMessage(), e);
      }
    }
    return matchers;
  }

  /** Offers a walked entry to the page it fills; {@code false} stops the walk. */
  private interface PageVisitor<T> {
    boolean visit(Page<T> page, RepoWalk.Entry entry);
  }

  /**
   * Resolves the listing's start and knobs, runs the walk (or handles a non-directory start as one
   * entry) and records every entry in the page's counters before {@code visitor} sees it.
   */
  private static <T> Page<T> walkPage(RepositoryListRequest listing, RepositoryLimits limits,
      RepoWalk walk, LongSupplier nanoClock, PageVisitor<T> visitor) {
    PathResolver.Resolved start =
        PathResolver.resolve(listing.root(), listing.path(), "cannot open path: ");
    Knobs knobs = Knobs.of(listing, limits, nanoClock);
    Page<T> page = new Page<>(knobs);
    RepoWalk.Visitor consumer = entry -> visitor.visit(page, entry);
    try {
      knobs.guard().check();
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(
            start.start(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        throw new RepositoryException("cannot open path: " + RepoPaths.describe(e, "lstat"), e);
      }
      RepoEntryKind kind = BreadthFirstWalk.kindOf(attributes);
      if (kind != RepoEntryKind.DIRECTORY) {
        page.count(kind);
        if (page.offset == 0) {
          consumer.visit(new RepoWalk.Entry(start.relative(), start.start(), kind,
              attributes.size()));
        }
        return page;
      }
      RepoWalk.Request request = new RepoWalk.Request(start.realRoot(), start.start(),
          start.relative(), listing.includeHidden(), knobs.exclude(), knobs.maxDepth(),
          limits.maxEntries(), limits.maxFiles(), knobs.guard());
      TruncationReason limit = walk.walk(request, entry -> {
        page.count(entry.kind());
        return consumer.visit(entry);
      });
      if (page.truncatedBy == null) {
        page.truncatedBy = limit;
      }
    } catch (OperationStopped stopped) {
      page.truncatedBy = stopped.reason();
    }
    return page;
  }
}
