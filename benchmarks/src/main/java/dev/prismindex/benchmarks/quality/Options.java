package dev.prismindex.benchmarks.quality;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.Fusion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/** The command line of {@link RetrievalQuality} (see its class comment). */
final class Options {

  @Nullable Path srcZip;
  Path work = Path.of(System.getProperty("java.io.tmpdir"), "prism-quality");
  @Nullable Path out;
  List<String> select = RetrievalQuality.DEFAULT_SELECT;
  final Map<String, Path> repos = new LinkedHashMap<>();
  final Map<String, Language> languages = new LinkedHashMap<>();
  final Map<String, String> about = new LinkedHashMap<>();
  int nl = 300;
  int nav = 200;
  int exact = 25;
  long seed = 8;
  boolean reuse;
  boolean semantic = true;
  boolean queriesOnly;
  /** Also search every corpus's queries in one workspace of all the corpora. */
  boolean workspace;
  /** Also search them in one repository index over all the corpora (the haystack control). */
  boolean combined;
  /** What the indexed copy keeps of each answer's doc comment. */
  AnswerDoc answerDoc = AnswerDoc.BLANKED;
  /** A cluster to index each corpus into as well, and to evaluate side by side; null: none. */
  java.net.URI openSearch;
  /** HYBRID's ranking: the engine's default unless {@code --fusion} says otherwise. */
  Fusion fusion = dev.prismindex.engine.SearchOpts.hybrid(1).fusion();
  double auxiliaryWeight = dev.prismindex.engine.SearchOpts.DEFAULT_AUXILIARY_WEIGHT;
  /** The embedder's provider id ({@code --embedder}); null: the engine's default provider. */
  @Nullable String embedder;

  private Options() {}

  private void answerDoc(AnswerDoc doc) {
    if (answerDoc != AnswerDoc.BLANKED && answerDoc != doc) {
      throw usage("--documented keeps each answer's doc, --rest-of-doc blanks its first paragraph:"
          + " give one");
    }
    answerDoc = doc;
  }

  static Options parse(String[] args) {
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--src-zip" -> o.srcZip = Path.of(value(args, ++i, a));
        case "--work" -> o.work = Path.of(value(args, ++i, a));
        case "--out" -> o.out = Path.of(value(args, ++i, a));
        case "--select" -> o.select = List.of(value(args, ++i, a).split(","));
        case "--repo" -> o.repo(value(args, ++i, a));
        case "--about" -> {
          String v = value(args, ++i, a);
          int eq = v.indexOf('=');
          if (eq <= 0) {
            throw usage("--about takes NAME=TEXT: " + v);
          }
          o.about.put(v.substring(0, eq), v.substring(eq + 1));
        }
        case "--nl" -> o.nl = count(value(args, ++i, a), a);
        case "--nav" -> o.nav = count(value(args, ++i, a), a);
        case "--exact" -> o.exact = count(value(args, ++i, a), a);
        case "--seed" -> o.seed = Long.parseLong(value(args, ++i, a));
        case "--reuse" -> o.reuse = true;
        case "--no-semantic" -> o.semantic = false;
        case "--opensearch-url" -> o.openSearch = java.net.URI.create(value(args, ++i, a));
        case "--queries-only" -> o.queriesOnly = true;
        case "--workspace" -> o.workspace = true;
        case "--combined" -> o.combined = true;
        case "--documented" -> o.answerDoc(AnswerDoc.KEPT);
        case "--rest-of-doc" -> o.answerDoc(AnswerDoc.REST);
        case "--embedder" -> o.embedder = value(args, ++i, a);
        case "--fusion" -> o.fusion = fusion(value(args, ++i, a));
        case "--auxiliary-weight" -> {
          String v = value(args, ++i, a);
          try {
            o.auxiliaryWeight = Double.parseDouble(v);
          } catch (NumberFormatException e) {
            throw usage("--auxiliary-weight takes a number in (0, 1]: " + v);
          }
          if (!(o.auxiliaryWeight > 0 && o.auxiliaryWeight <= 1)) {
            throw usage("--auxiliary-weight takes a number in (0, 1]: " + v);
          }
        }
        default -> throw usage("unknown option " + a);
      }
    }
    if (o.answerDoc != AnswerDoc.BLANKED && (o.workspace || o.combined)) {
      throw usage(o.answerDoc.option
          + " measures each corpus alone; not with --workspace or --combined");
    }
    if (o.srcZip == null && o.repos.isEmpty()) {
      throw usage("give --src-zip (the JDK's lib/src.zip) and/or --repo NAME[:LANGUAGE]=DIR");
    }
    if (o.embedder != null && EmbedderProvider.find(o.embedder).isEmpty()) {
      throw usage("no embedder " + o.embedder + " on the class path (known: " + String.join(", ",
          ServiceLoader.load(EmbedderProvider.class).stream().map(p -> p.get().id()).toList())
          + ")");
    }
    if (o.srcZip != null && !Files.isRegularFile(o.srcZip)) {
      throw usage("no such src.zip: " + o.srcZip);
    }
    for (Map.Entry<String, Path> e : o.repos.entrySet()) {
      if (!Files.isDirectory(e.getValue())) {
        throw usage("no such repository directory for " + e.getKey() + ": " + e.getValue());
      }
    }
    return o;
  }

  /** {@code NAME[:LANGUAGE]=DIR}. */
  private void repo(String v) {
    int eq = v.indexOf('=');
    String spec = eq > 0 ? v.substring(0, eq) : "";
    int colon = spec.indexOf(':');
    String name = colon < 0 ? spec : spec.substring(0, colon);
    if (eq <= 0 || eq == v.length() - 1 || !name.matches("[A-Za-z0-9._-]+")
        || name.equals("jdk")) {
      throw usage("--repo takes NAME[:LANGUAGE]=DIR (NAME of letters, digits, . _ -, not jdk): "
          + v);
    }
    Language language;
    try {
      language = colon < 0 ? Language.JAVA : Language.of(spec.substring(colon + 1));
    } catch (IllegalArgumentException e) {
      throw usage("--repo " + v + ": " + e.getMessage());
    }
    repos.put(name, Path.of(v.substring(eq + 1)));
    languages.put(name, language);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw usage(option + " needs a value");
    }
    return args[i];
  }

  private static int count(String v, String option) {
    try {
      int n = Integer.parseInt(v);
      if (n < 1) {
        throw usage(option + " must be at least 1: " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw usage(option + " takes a number: " + v);
    }
  }

  /**
   * {@code learned} (the engine's learned ranker) or {@code K:LEXICAL_WEIGHT:SEMANTIC_WEIGHT}, e.g.
   * {@code 60:1:1} (plain RRF).
   */
  private static Fusion fusion(String v) {
    if (v.equals("learned")) {
      return Fusion.learned();
    }
    String[] p = v.split(":");
    try {
      if (p.length != 3) {
        throw new NumberFormatException();
      }
      return new Fusion(Integer.parseInt(p[0]), Double.parseDouble(p[1]),
          Double.parseDouble(p[2]));
    } catch (NumberFormatException e) {
      throw usage("--fusion takes K:LEXICAL_WEIGHT:SEMANTIC_WEIGHT, e.g. 60:1:1: " + v);
    } catch (IllegalArgumentException e) {
      throw usage("--fusion " + v + ": " + e.getMessage());
    }
  }

  static IllegalArgumentException usage(String message) {
    return new IllegalArgumentException("bench-quality: " + message);
  }
}
