package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The learned ranker's features that tell how a sentence's candidates of one file call each
 * other ({@link RankFeatures#CALLS} onwards). A sentence often describes a function by what it
 * calls ("adds a matcher for the URL host": {@code Host} calls {@code addMatcher}), so the helper
 * whose name says the sentence's verb is called by the function the sentence describes.
 */
final class CallFeatures {

  private CallFeatures() {}

  /**
   * Fills, for each candidate whose file is unchanged since indexing: {@code called_by}, the
   * highest code share among the other candidates of its file whose code calls its name (-1 when
   * none does); {@code calls_named}, the highest name share among the other candidates of its
   * file whose name its code calls (-1 when it calls none). Both 0 where the file's lines are not
   * known.
   */
  static void fill(List<RankFeatures.Row> rows, RankFeatures.Lines lines) throws IOException {
    Map<String, List<RankFeatures.Row>> byFile = new LinkedHashMap<>();
    for (RankFeatures.Row r : rows) {
      byFile.computeIfAbsent(r.chunk().path(), k -> new ArrayList<>()).add(r);
    }
    int code = RankFeatures.HAND + 5;
    int name = RankFeatures.HAND + 4;
    for (List<RankFeatures.Row> file : byFile.values()) {
      List<@Nullable Set<String>> calls = new ArrayList<>(file.size());
      for (RankFeatures.Row r : file) {
        calls.add(calls(r.chunk(), lines.lines(r.doc())));
      }
      for (int i = 0; i < file.size(); i++) {
        double[] x = file.get(i).features();
        Set<String> mine = calls.get(i);
        if (mine == null) {
          continue;
        }
        String own = name(file.get(i).chunk());
        double calledBy = -1;
        double callsNamed = -1;
        for (int j = 0; j < file.size(); j++) {
          Set<String> other = calls.get(j);
          if (j == i || other == null) {
            continue;
          }
          double[] y = file.get(j).features();
          if (own != null && other.contains(own)) {
            calledBy = Math.max(calledBy, y[code]);
          }
          String theirs = name(file.get(j).chunk());
          if (theirs != null && mine.contains(theirs)) {
            callsNamed = Math.max(callsNamed, y[name]);
          }
        }
        x[RankFeatures.CALLS] = calledBy;
        x[RankFeatures.CALLS + 1] = callsNamed;
      }
    }
  }

  private static @Nullable String name(ChunkDoc c) {
    return c.symbolNames().isEmpty() ? null : c.symbolNames().get(0);
  }

  /**
   * The names the chunk's lines call, its declaration's line left out: an identifier followed by
   * {@code (} (spaces between allowed) or {@code ::<}, or following {@code ::} (a method reference,
   * a path); null when the file's lines are not known or do not hold the chunk.
   */
  static @Nullable Set<String> calls(ChunkDoc c, @Nullable List<String> file) {
    if (file == null || c.start() < 1 || c.end() > file.size()) {
      return null;
    }
    Set<String> called = new HashSet<>();
    int declaration = c.symbolLines().length > 0 ? c.symbolLine() : -1;
    for (int n = c.start(); n <= c.end(); n++) {
      if (n != declaration) {
        called(file.get(n - 1), called);
      }
    }
    return called;
  }

  private static void called(String line, Set<String> called) {
    int i = 0;
    int len = line.length();
    while (i < len) {
      char ch = line.charAt(i);
      if (!Character.isJavaIdentifierStart(ch)) {
        i++;
        continue;
      }
      int start = i;
      while (i < len && Character.isJavaIdentifierPart(line.charAt(i))) {
        i++;
      }
      int after = i;
      while (after < len && line.charAt(after) == ' ') {
        after++;
      }
      boolean call = after < len && line.charAt(after) == '('
          || line.startsWith("::<", after)
          || start >= 2 && line.charAt(start - 1) == ':' && line.charAt(start - 2) == ':';
      if (call) {
        called.add(line.substring(start, i));
      }
    }
  }
}
