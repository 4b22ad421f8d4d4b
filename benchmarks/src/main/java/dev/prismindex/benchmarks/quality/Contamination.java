package dev.prismindex.benchmarks.quality;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The check that no training tree of the code model is a corpus of the quality benchmark: a
 * model trained on the benchmark's own code would be measured on what it learned by heart.
 * A training tree is refused when, for any quality corpus,
 *
 * <ul>
 *   <li>its archive has the corpus's sha256, or its URL is the corpus's;
 *   <li>one of its project keys (its name, upstream, upstream's last segment; see {@link
 *       TreeList#keys}) is one of the corpus's (upstream, upstream's last segment, aliases: the
 *       projects that share its code or docs);
 *   <li>the parts of its name or upstream's last segment ({@code rust-tokio-util}: rust, tokio,
 *       util) hold the parts of one of the corpus's keys ({@code tokio}) in a row.
 * </ul>
 *
 * The organisation of an upstream is not compared on its own: {@code tokio-rs/tracing} is not
 * {@code tokio-rs/tokio}.
 */
final class Contamination {

  private Contamination() {}

  /** One reason a training tree was refused. */
  record Finding(String tree, String corpus, String reason) {
    @Override
    public String toString() {
      return tree + " is the quality corpus " + corpus + " (" + reason + ")";
    }
  }

  /** Every finding of {@code training} against {@code quality}; empty when the list is clean. */
  static List<Finding> check(List<TreeList> training, List<TreeList> quality) {
    List<Finding> out = new ArrayList<>();
    for (TreeList t : training) {
      for (TreeList q : quality) {
        String reason = reason(t, q);
        if (reason != null) {
          out.add(new Finding(t.name(), q.name(), reason));
        }
      }
    }
    return out;
  }

  private static String reason(TreeList t, TreeList q) {
    if (!q.sha256().isEmpty() && q.sha256().equalsIgnoreCase(t.sha256())) {
      return "same sha256 " + t.sha256();
    }
    if (!q.url().isEmpty() && q.url().equals(t.url())) {
      return "same URL " + t.url();
    }
    for (String qk : q.keys(false)) {
      for (String tk : t.keys(true)) {
        if (qk.equals(tk)) {
          return "same project " + qk;
        }
      }
      List<String> qp = TreeList.parts(qk);
      if (qk.contains("/") || qp.isEmpty()) {
        continue;
      }
      for (String tk : t.keys(true)) {
        if (!tk.contains("/") && Collections.indexOfSubList(TreeList.parts(tk), qp) >= 0) {
          return "its name " + tk + " names the project " + qk;
        }
      }
    }
    return null;
  }
}
