package dev.prismindex.benchmarks.quality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A pinned list of public source trees, one per line, fields separated by {@code |}; blank lines
 * and lines starting with {@code #} are comments. Two lists use it:
 *
 * <ul>
 *   <li>the quality benchmark's corpora ({@code scripts/corpora/quality.txt}):
 *       {@code name|language|url|sha256|root|upstream|aliases|description};
 *   <li>the code model's training trees ({@code scripts/corpora/training.txt}):
 *       {@code name|language|version|url|sha256|root|upstream}.
 * </ul>
 *
 * {@code url} is a Debian pool URL, or {@code fetch:OWNER/NAME@COMMIT} for a repository brought
 * with the search tool's fetch (its sha256 is that of {@code git archive --format=tar
 * --prefix=ROOT/ COMMIT}); {@code upstream} names the upstream project ({@code github.com/pytoolz/toolz});
 * {@code aliases} (quality list only, comma-separated) names other projects that share the
 * corpus's code or docs (cytoolz for toolz), which count as the corpus.
 *
 * @param name the tree's name (a Debian source package, or owner-name)
 * @param language the tree's main language (it may hold others)
 * @param version the upstream version or commit
 * @param url where it is downloaded
 * @param sha256 the downloaded archive's sha256
 * @param root the directory inside the archive that is the tree
 * @param upstream the upstream project
 * @param aliases related projects that count as this one (quality corpora)
 */
record TreeList(String name, String language, String version, String url, String sha256,
    String root, String upstream, List<String> aliases) {

  /** Reads the quality benchmark's corpora. */
  static List<TreeList> readQuality(Path file) throws IOException {
    List<TreeList> out = new ArrayList<>();
    for (String[] f : lines(file, 8)) {
      out.add(new TreeList(f[0], f[1], "", f[2], f[3], f[4], f[5],
          f[6].isBlank() ? List.of() : List.of(f[6].split(","))));
    }
    return out;
  }

  /** Reads the training trees. */
  static List<TreeList> readTraining(Path file) throws IOException {
    List<TreeList> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (String[] f : lines(file, 7)) {
      Language.of(f[1]);
      if (!names.add(f[0])) {
        throw new IOException(file + ": tree " + f[0] + " is listed twice");
      }
      if (!f[4].matches("[0-9a-f]{64}")) {
        throw new IOException(file + ": tree " + f[0] + " has no sha256: " + f[4]);
      }
      out.add(new TreeList(f[0], f[1], f[2], f[3], f[4], f[5], f[6], List.of()));
    }
    return out;
  }

  private static List<String[]> lines(Path file, int fields) throws IOException {
    List<String[]> out = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      n++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] f = l.split("\\|", -1);
      if (f.length != fields) {
        throw new IOException(file + ":" + n + ": " + f.length + " fields, expected " + fields);
      }
      for (int i = 0; i < f.length; i++) {
        f[i] = f[i].strip();
      }
      out.add(f);
    }
    return out;
  }

  /**
   * The project keys of this tree, normalised (lower case; no scheme, trailing slash or
   * {@code .git}; Debian's packaging prefixes and suffixes removed): its upstream, the upstream's
   * last segment and its aliases, and for a training tree its name (a quality corpus's name is
   * the benchmark's label, often a language's name, not a project's).
   */
  Set<String> keys(boolean training) {
    Set<String> keys = new HashSet<>();
    if (training) {
      keys.add(project(name));
    }
    String up = upstream.toLowerCase(Locale.ROOT).replaceAll("^https?://", "")
        .replaceAll("\\.git$", "").replaceAll("/+$", "");
    keys.add(up);
    int slash = up.lastIndexOf('/');
    keys.add(project(slash >= 0 ? up.substring(slash + 1) : up));
    for (String a : aliases) {
      keys.add(project(a));
    }
    keys.remove("");
    return keys;
  }

  /** A Debian or repository name reduced to the project's: {@code golang-github-spf13-cobra}: cobra. */
  static String project(String name) {
    String n = name.toLowerCase(Locale.ROOT).strip();
    n = n.replaceAll("^(golang-github-[^-]+-|golang-gopkg-|golang-|python3?-|rust-|node-|librust-)",
        "");
    n = n.replaceAll("^lib(.*)-java$", "$1").replaceAll("-java$", "").replaceAll("-dev$", "");
    return n;
  }

  /** The parts of a name, split at {@code - _ . / +}. */
  static List<String> parts(String s) {
    List<String> out = new ArrayList<>();
    for (String p : s.toLowerCase(Locale.ROOT).split("[-_./+@:]+")) {
      if (!p.isEmpty()) {
        out.add(p);
      }
    }
    return out;
  }
}
