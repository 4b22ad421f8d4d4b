package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.SkipReason;
import dev.prismindex.internal.Utf8;
import dev.prismindex.repository.GlobMatcher;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The path rules of the walker, shared by the indexing walk, the freshness probe and named-path
 * updates, so a file skipped by one is skipped by all: pruned directories, the depth and path-length
 * limits, lock files, minified names, the secret deny list (names, plus private-key blocks and
 * secrets of well-known formats detected by content) and the configured include/exclude globs. Other content rules (binary, size, long
 * lines) are applied by the indexer once the file is read.
 */
public final class FileRules {

  private static final Logger LOG = LoggerFactory.getLogger(FileRules.class);

  /** Default {@link HybridIndexOptions#maxDepth()}: files over 256 directories deep are skipped. */
  public static final int DEFAULT_MAX_DEPTH = 256;
  /**
   * Default {@link HybridIndexOptions#maxPathBytes()}: repository-relative paths over 4096 UTF-8
   * bytes are skipped.
   */
  public static final int DEFAULT_MAX_PATH_BYTES = 4096;
  /** Bytes at the start of a file searched for a private-key header. */
  public static final int KEY_SNIFF_BYTES = 8192;

  /** Directory names never entered, at any depth. */
  public static final Set<String> PRUNED_DIRECTORIES = Set.of(".git", "node_modules");

  /**
   * Directory names of generated output and vendored dependencies: pruned unless an ancestor
   * directory is named {@code src} (below {@code src} such names are source packages, e.g. Java's
   * {@code org/springframework/aop/target}).
   */
  public static final Set<String> OUTPUT_DIRECTORIES = Set.of("vendor", "dist", "build", "target");

  /** Lock files (generated, huge, and useless to search). */
  public static final Set<String> LOCK_FILES = Set.of("package-lock.json", "yarn.lock",
      "pnpm-lock.yaml", "Cargo.lock", "go.sum", "poetry.lock", "Gemfile.lock", "composer.lock",
      "Pipfile.lock", "bun.lockb", "flake.lock", "mix.lock", "pubspec.lock", "Podfile.lock",
      "gradle.lockfile", "npm-shrinkwrap.json", "uv.lock");

  /** Secret names (compared lower-case): credential files of common tools. */
  static final Set<String> SECRET_NAMES = Set.of(".netrc", "_netrc", ".pgpass", ".htpasswd",
      "credentials", ".npmrc", ".pypirc", ".git-credentials", ".vault-token", ".my.cnf", ".s3cfg",
      ".dockercfg");
  /** Secret name prefixes: dotenv files and SSH private keys. */
  static final List<String> SECRET_PREFIXES =
      List.of(".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519");
  /** Secret name suffixes: key stores, private keys, Terraform state, credential files. */
  static final List<String> SECRET_SUFFIXES = List.of(".pem", ".key", ".p8", ".p12", ".pfx",
      ".pkcs12", ".jks", ".keystore", ".kdbx", ".ppk", ".tfstate", ".tfstate.backup",
      ".credentials", ".secret", ".secrets");
  /** Words that make a configuration file (by {@link #CONFIG_EXTENSIONS}) a secret. */
  static final List<String> SECRET_WORDS = List.of("secret", "credential");
  /** Extensions of configuration files (and no extension at all) for {@link #SECRET_WORDS}. */
  static final Set<String> CONFIG_EXTENSIONS = Set.of("", "yaml", "yml", "json", "toml", "ini",
      "properties", "conf", "cfg", "config", "env", "xml", "txt");
  /** A private-key armour header on a line of its own (PEM, PKCS#8, OpenSSH, PGP). */
  private static final Pattern KEY_HEADER = Pattern.compile(
      "(?m)^[ \\t]*-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[ \\t]*\\r?$");
  /** What every such header holds: looked for first, as the pattern costs more. */
  private static final String DASHES_BEGIN = "-----BEGIN ";

  private final boolean indexSecrets;
  private final List<GlobMatcher> include;
  private final List<GlobMatcher> exclude;
  private final List<GlobMatcher> allowSecrets;
  private final List<GlobMatcher> denySecrets;
  private final int maxDepth;
  private final int maxPathBytes;
  private final String fingerprint;

  /** The default limits and deny list, with include/exclude globs. */
  public FileRules(List<String> include, List<String> exclude, boolean indexSecrets) {
    this(include, exclude, indexSecrets, List.of(), List.of(), DEFAULT_MAX_DEPTH,
        DEFAULT_MAX_PATH_BYTES);
  }

  /**
   * @param include globs (gitignore syntax, {@link GlobMatcher}) that select the kept paths, the
   *     last matching one deciding ({@link GlobMatcher#selects}); empty keeps every path
   * @param exclude globs whose paths are skipped ({@link SkipReason#GLOB}), as {@code .gitignore}
   *     lines (the last matching one decides, {@code !} re-admits)
   * @param indexSecrets true switches the built-in deny list (names and key content) off
   * @param allowSecrets globs re-admitting paths the built-in deny list would skip (as
   *     {@code exclude}'s)
   * @param denySecrets globs skipped as {@link SkipReason#SECRET} in addition to the list (as
   *     {@code exclude}'s)
   * @throws IllegalArgumentException for a glob {@link GlobMatcher#compile} refuses
   * @param maxDepth the most directories above a kept file
   * @param maxPathBytes the longest kept repository-relative path, in UTF-8 bytes
   */
  public FileRules(List<String> include, List<String> exclude, boolean indexSecrets,
      List<String> allowSecrets, List<String> denySecrets, int maxDepth, int maxPathBytes) {
    if (maxDepth < 1 || maxPathBytes < 1) {
      throw new IllegalArgumentException("maxDepth and maxPathBytes must be positive");
    }
    this.include = compile(include);
    this.exclude = compile(exclude);
    this.indexSecrets = indexSecrets;
    this.allowSecrets = compile(allowSecrets);
    this.denySecrets = compile(denySecrets);
    this.maxDepth = maxDepth;
    this.maxPathBytes = maxPathBytes;
    // allowSecrets in gitignore syntax since the glob dialect became one (Java glob: before)
    this.fingerprint = "secrets-2 " + indexSecrets
        + (allowSecrets.isEmpty() ? " allow=[]" : " allow-gitignore=" + allowSecrets);
  }

  /** The rules an index opened with {@code options} applies. */
  public static FileRules of(HybridIndexOptions options) {
    return new FileRules(options.include(), options.exclude(), options.indexSecrets(),
        options.allowSecrets(), options.denySecrets(), options.maxDepth(), options.maxPathBytes());
  }

  /**
   * Identifies the content rules (the private-key check and what re-admits a file): an index whose
   * last run recorded another value is re-read in full once, so a file indexed before a rule
   * changed is re-judged even when its size and time did not change.
   */
  public String contentFingerprint() {
    return fingerprint;
  }

  private static List<GlobMatcher> compile(List<String> globs) {
    List<GlobMatcher> out = new ArrayList<>(globs.size());
    for (String glob : globs) {
      out.add(GlobMatcher.compile(glob));
    }
    return List.copyOf(out);
  }

  /**
   * Whether a directory is pruned, by its path relative to the indexed root ({@code /}-separated):
   * {@link #PRUNED_DIRECTORIES} always, {@link #OUTPUT_DIRECTORIES} unless an ancestor segment is
   * {@code src}. The rule is purely path-based, so the git walk, the plain walk and named-path
   * updates agree.
   */
  public boolean prunesDirectory(String relativePath) {
    String name = relativePath.substring(relativePath.lastIndexOf('/') + 1);
    if (PRUNED_DIRECTORIES.contains(name)) {
      return true;
    }
    if (!OUTPUT_DIRECTORIES.contains(name)) {
      return false;
    }
    return !("/" + relativePath).contains("/src/");
  }

  /** Whether any ancestor directory of a file (path relative to the indexed root) is pruned. */
  public boolean underPrunedDirectory(String relativePath) {
    for (int slash = relativePath.indexOf('/'); slash > 0;
        slash = relativePath.indexOf('/', slash + 1)) {
      if (prunesDirectory(relativePath.substring(0, slash))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why no file below a directory (path relative to the indexed root) can be kept by the limits:
   * {@link SkipReason#TOO_DEEP} when it is more than {@link HybridIndexOptions#maxDepth()}
   * directories deep, {@link SkipReason#PATH_TOO_LONG} when every path below it is longer than
   * {@link HybridIndexOptions#maxPathBytes()};
   * {@code null} when the walk may enter it. A walk never enters such a directory (so its cost is
   * bounded by the limits), and counts the files below it under that reason.
   */
  public @Nullable SkipReason directoryLimit(String relativeDirectory) {
    if (segments(relativeDirectory) > maxDepth) {
      return SkipReason.TOO_DEEP;
    }
    if (Utf8.byteLength(relativeDirectory) + 2 > maxPathBytes) {
      return SkipReason.PATH_TOO_LONG;
    }
    return null;
  }

  /** Why a file is skipped by its path alone, or {@code null} when it is kept. */
  public @Nullable SkipReason skipByName(String relativePath) {
    if (segments(relativePath) - 1 > maxDepth) {
      return SkipReason.TOO_DEEP;
    }
    if (Utf8.byteLength(relativePath) > maxPathBytes) {
      return SkipReason.PATH_TOO_LONG;
    }
    String name = relativePath.substring(relativePath.lastIndexOf('/') + 1);
    if (LOCK_FILES.contains(name)) {
      return SkipReason.LOCK_FILE;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".min.js") || lower.endsWith(".min.css") || lower.endsWith(".min.mjs")) {
      return SkipReason.MINIFIED;
    }
    if (matches(denySecrets, relativePath)) {
      return SkipReason.SECRET;
    }
    if (!indexSecrets && isSecretName(lower) && !matches(allowSecrets, relativePath)) {
      return SkipReason.SECRET;
    }
    if (!GlobMatcher.selects(include, relativePath) || matches(exclude, relativePath)) {
      return SkipReason.GLOB;
    }
    return null;
  }

  /**
   * Whether a reason of {@link #skipByName} keeps a file out of ranking only: lock files and
   * minified names are still indexed for exact literal search (a FILE document with its n-grams and
   * no chunks, so lexical and semantic search never see them), so that literal search covers them.
   */
  public static boolean literalOnly(@Nullable SkipReason reason) {
    return reason == SkipReason.LOCK_FILE || reason == SkipReason.MINIFIED;
  }

  /**
   * Why a file is skipped by its content, or {@code null}: {@link SkipReason#PRIVATE_KEY} when a
   * private-key armour header ({@code -----BEGIN ... PRIVATE KEY-----}, {@code -----BEGIN PGP
   * PRIVATE KEY BLOCK-----}) stands on a line of its own within the first {@value
   * #KEY_SNIFF_BYTES} bytes; {@link SkipReason#SECRET} when its text holds a secret of a
   * well-known format anywhere ({@link SecretContent}: cloud keys, forge, chat and registry
   * tokens, web tokens, key material, high-entropy values assigned to secret names); unless
   * secrets are indexed or the path is allowed.
   */
  public @Nullable SkipReason skipByContent(String relativePath, byte[] bytes, int length) {
    if (indexSecrets) {
      return null;
    }
    SkipReason reason = null;
    if (hasPrivateKeyHeader(bytes, length)) {
      reason = SkipReason.PRIVATE_KEY;
    } else {
      String found = SecretContent.find(bytes, length);
      if (found != null) {
        LOG.debug("{} is left out: it holds a secret ({})", relativePath, found);
        reason = SkipReason.SECRET;
      }
    }
    return reason == null || matches(allowSecrets, relativePath) ? null : reason;
  }

  /**
   * What {@link #skipByContent} finds in a file's bytes, named (for measuring the rules on a
   * corpus), or null: a private-key header, or the kind of secret ({@link SecretContent}).
   */
  public static @Nullable String secretIn(byte[] bytes, int length) {
    return hasPrivateKeyHeader(bytes, length) ? "private key header"
        : SecretContent.find(bytes, length);
  }

  static boolean hasPrivateKeyHeader(byte[] bytes, int length) {
    String head = new String(bytes, 0, Math.min(length, KEY_SNIFF_BYTES),
        StandardCharsets.ISO_8859_1);
    return head.contains(DASHES_BEGIN) && KEY_HEADER.matcher(head).find();
  }

  /**
   * Whether a list of globs matches {@code path} as a {@code .gitignore} would: the last glob that
   * matches the file or one of its directories decides, a {@code !} one un-matching it.
   */
  private static boolean matches(List<GlobMatcher> globs, String path) {
    for (int i = globs.size() - 1; i >= 0; i--) {
      if (globs.get(i).matchesFile(path)) {
        return !globs.get(i).negated();
      }
    }
    return false;
  }

  private static int segments(String relativePath) {
    int n = 1;
    for (int i = relativePath.indexOf('/'); i >= 0; i = relativePath.indexOf('/', i + 1)) {
      n++;
    }
    return n;
  }

  /** Whether a lower-case file name is on the built-in deny list. */
  static boolean isSecretName(String lowerName) {
    if (SECRET_NAMES.contains(lowerName)) {
      return true;
    }
    for (String prefix : SECRET_PREFIXES) {
      if (lowerName.startsWith(prefix)) {
        return true;
      }
    }
    for (String suffix : SECRET_SUFFIXES) {
      if (lowerName.endsWith(suffix)) {
        return true;
      }
    }
    int dot = lowerName.lastIndexOf('.');
    String extension = dot <= 0 ? "" : lowerName.substring(dot + 1);
    if (CONFIG_EXTENSIONS.contains(extension)) {
      for (String word : SECRET_WORDS) {
        if (lowerName.contains(word)) {
          return true;
        }
      }
    }
    return false;
  }
}
