package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.index.IndexCapabilities;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scanner's regex mode and its streaming entry point ({@link RepositoryOperations#stream}). */
class StreamedSearchTest {

  private final RepositoryOperations ops = RepositoryOperations.local(RepositoryLimits.defaults());

  /** A sink that records {@code path:line:col-end...:text} and can decline after some matches. */
  static final class Recorder implements SearchSink {
    final List<String> seen = new ArrayList<>();
    final List<RepositorySearchMatch> matches = new ArrayList<>();
    Predicate<String> wants = p -> true;
    int acceptAtMost = Integer.MAX_VALUE;

    @Override
    public boolean wants(String path) {
      return wants.test(path);
    }

    @Override
    public boolean accept(RepositorySearchMatch match, List<MatchSpan> spans) {
      StringBuilder b = new StringBuilder(match.path() + ":" + match.line());
      for (MatchSpan s : spans) {
        b.append(':').append(s.column()).append('-').append(s.endColumn());
      }
      seen.add(b.append(':').append(match.text()).toString());
      matches.add(match);
      return seen.size() < acceptAtMost;
    }
  }

  private static RepositorySearchRequest.Builder regex(Path root, String pattern) {
    return RepositorySearchRequest.builder(root, pattern).mode(SearchMode.REGEX)
        .caseSensitive(true).context(0);
  }

  @Test
  void regexModeFindsEveryMatchOfALineWithItsSpans(@TempDir Path dir) {
    new TestTree(dir).file("b.txt", "foo123 bar45\nnothing\n").file("a.txt", "x1\n");
    Recorder r = new Recorder();
    RepositorySearchResult result = ops.stream(regex(dir, "[a-z]+\\d+").build(), r);
    assertThat(r.seen).containsExactly("a.txt:1:1-3:x1", "b.txt:1:1-7:8-13:foo123 bar45");
    assertThat(result.matches()).isEmpty();
    assertThat(result.truncated()).isFalse();
    assertThat(result.scannedFiles()).isEqualTo(2);
    // The collecting entry point gives the same lines and first columns.
    RepositorySearchResult collected = ops.search(regex(dir, "[a-z]+\\d+").build());
    assertThat(collected.matches()).extracting(m -> m.path() + ":" + m.line() + ":" + m.column())
        .containsExactly("a.txt:1:1", "b.txt:1:1");
  }

  @Test
  void aRegexIsChargedToTheScanBudgetLikeALiteral(@TempDir Path dir) {
    // A whole file is searched at once when the budget covers it, line by line when it does not:
    // either way the line bytes are charged and a crossing line is charged but not matched.
    new TestTree(dir).file("a.txt", "12345\n67890\n"); // 10 line bytes
    RepositoryOperations ten = RepositoryOperations.local(
        RepositoryLimits.builder().maxScanBytes(10).build());
    RepositorySearchResult all = ten.search(regex(dir, "[05]").build());
    assertThat(all.truncated()).isFalse();
    assertThat(all.matches()).extracting(m -> m.line() + ":" + m.column())
        .containsExactly("1:5", "2:5");
    assertThat(all.scannedBytes()).isEqualTo(10);

    RepositoryOperations nine = RepositoryOperations.local(
        RepositoryLimits.builder().maxScanBytes(9).build());
    RepositorySearchResult over = nine.search(regex(dir, "[05]").build());
    assertThat(over.truncatedBy()).isEqualTo(TruncationReason.SCAN);
    assertThat(over.matches()).extracting(m -> m.line() + ":" + m.column())
        .containsExactly("1:5");
    assertThat(over.scannedBytes()).isEqualTo(10);
  }

  @Test
  void streamingHasNoMatchCapUnlessOneIsAsked(@TempDir Path dir) {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < RepositoryLimits.HARD_MAX_SEARCH_MATCHES + 5; i++) {
      many.append("hit ").append(i).append('\n');
    }
    new TestTree(dir).file("many.txt", many.toString());
    Recorder all = new Recorder();
    RepositorySearchResult r = ops.stream(regex(dir, "hit \\d+").build(), all);
    assertThat(all.seen).hasSize(RepositoryLimits.HARD_MAX_SEARCH_MATCHES + 5);
    assertThat(r.truncated()).isFalse();
    Recorder three = new Recorder();
    r = ops.stream(regex(dir, "hit \\d+").maxMatches(3).build(), three);
    assertThat(three.seen).hasSize(3);
    assertThat(r.truncatedBy()).isEqualTo(TruncationReason.MATCHES);
  }

  @Test
  void matchesStreamInPathAndLineOrderAfterTheirContext(@TempDir Path dir) {
    new TestTree(dir).file("z.txt", "a\nneedle 1\nb\nneedle 2\nc\n").file("m.txt", "needle 0\n");
    Recorder r = new Recorder();
    ops.stream(regex(dir, "needle").context(1).build(), r);
    assertThat(r.seen).containsExactly("m.txt:1:1-7:needle 0", "z.txt:2:1-7:needle 1",
        "z.txt:4:1-7:needle 2");
    assertThat(r.matches.get(1).before()).containsExactly("a");
    assertThat(r.matches.get(1).after()).containsExactly("b");
    // The last match's after-context is cut by the end of its file, not lost.
    assertThat(r.matches.get(2).after()).containsExactly("c");
    assertThat(r.matches.get(0).after()).isEmpty();
  }

  @Test
  void theSinkChoosesFilesAndCanStopTheSearch(@TempDir Path dir) {
    new TestTree(dir).file("src/a.java", "x\n").file("src/b.txt", "x\n").file("c.java", "x\nx\n");
    Recorder r = new Recorder();
    r.wants = p -> p.endsWith(".java");
    RepositorySearchResult result = ops.stream(regex(dir, "x").build(), r);
    assertThat(r.seen).containsExactly("c.java:1:1-2:x", "c.java:2:1-2:x", "src/a.java:1:1-2:x");
    assertThat(result.scannedFiles()).isEqualTo(2);
    Recorder stop = new Recorder();
    stop.acceptAtMost = 2;
    result = ops.stream(regex(dir, "x").build(), stop);
    assertThat(stop.seen).hasSize(2);
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.ABORT);
  }

  @Test
  void regexLinesKeepTheirCrAndShowBadBytesAsReplacementCharacters(@TempDir Path dir) {
    byte[] content = "foo\r\nfoo\nca\u00E9\n".getBytes(StandardCharsets.UTF_8);
    byte[] latin1 = {'c', 'a', 'f', (byte) 0xE9, '\n'};
    new TestTree(dir).file("crlf.txt", content).file("latin1.txt", latin1);
    Recorder r = new Recorder();
    ops.stream(regex(dir, "foo$").build(), r);
    assertThat(r.seen).containsExactly("crlf.txt:2:1-4:foo");
    Recorder any = new Recorder();
    ops.stream(regex(dir, "ca.").build(), any);
    assertThat(any.seen).containsExactly("crlf.txt:3:1-4:ca\u00E9", "latin1.txt:1:1-4:caf\uFFFD");
    Recorder dot = new Recorder();
    ops.stream(regex(dir, "caf.").build(), dot);
    assertThat(dot.seen).isEmpty(); // no class matches a byte that is not UTF-8
    Recorder bad = new Recorder();
    ops.stream(regex(dir, "caf").build(), bad);
    assertThat(bad.seen).containsExactly("latin1.txt:1:1-4:caf\uFFFD");
  }

  @Test
  void literalSpansEndInTheOriginalLineEvenWhenLowerCasingChangesItsLength(@TempDir Path dir) {
    new TestTree(dir).file("a.txt", "x \u0130stanbul y\n");
    Recorder r = new Recorder();
    ops.stream(RepositorySearchRequest.builder(dir, "stanbul").context(0).build(), r);
    assertThat(r.seen).containsExactly("a.txt:1:4-11:x \u0130stanbul y");
    Recorder i = new Recorder();
    ops.stream(RepositorySearchRequest.builder(dir, "\u0130s").context(0).build(), i);
    assertThat(i.seen).containsExactly("a.txt:1:3-5:x \u0130stanbul y");
  }

  @Test
  void regexOptionsAndErrors(@TempDir Path dir) {
    new TestTree(dir).file("a.txt", "Foo foo foobar\n");
    Recorder words = new Recorder();
    ops.stream(regex(dir, "foo").caseSensitive(false).wholeWords(true).build(), words);
    assertThat(words.seen).containsExactly("a.txt:1:1-4:5-8:Foo foo foobar");
    assertThatThrownBy(() -> ops.search(regex(dir, "a(").build()))
        .isInstanceOf(RepositoryException.class).hasMessageContaining("unclosed group");
    assertThatThrownBy(() -> ops.search(RepositorySearchRequest.builder(dir, "foo")
        .wholeWords(true).build())).isInstanceOf(RepositoryException.class)
        .hasMessageContaining("regex mode");
  }

  @Test
  void regexIsAScannerModeNeverABackendOne() {
    assertThatThrownBy(() -> IndexCapabilities.of(SearchMode.REGEX))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("regex");
    assertThat(SearchMode.REGEX.exact()).isTrue();
    assertThat(SearchMode.LITERAL.exact()).isTrue();
    assertThat(SearchMode.INDEXED_LITERAL.exact()).isFalse();
    assertThat(SearchMode.fromWireName("regex")).contains(SearchMode.REGEX);
  }
}
