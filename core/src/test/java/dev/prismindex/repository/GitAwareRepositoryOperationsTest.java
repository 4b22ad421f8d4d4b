package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the git-aware operations against real repositories built with the git executable. */
class GitAwareRepositoryOperationsTest {

  static boolean gitAvailable;

  @TempDir Path temp;
  Path repo;
  Map<String, String> env;

  @BeforeAll
  static void detectGit() {
    try {
      Process process = new ProcessBuilder("git", "--version")
          .redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      gitAvailable = process.waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      gitAvailable = false;
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    assumeTrue(gitAvailable, "git is not installed");
    Path home = Files.createDirectory(temp.resolve("home"));
    env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("GIT_CEILING_DIRECTORIES", temp.toRealPath().toString());
    env.put("GIT_AUTHOR_NAME", "Test");
    env.put("GIT_AUTHOR_EMAIL", "test@example.invalid");
    env.put("GIT_COMMITTER_NAME", "Test");
    env.put("GIT_COMMITTER_EMAIL", "test@example.invalid");
    repo = Files.createDirectory(temp.resolve("repo"));
  }

  String git(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("git");
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().remove("GIT_DIR");
    builder.environment().remove("GIT_WORK_TREE");
    builder.environment().remove("GIT_INDEX_FILE");
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    Process process = builder.start();
    byte[] out;
    try (InputStream in = process.getInputStream()) {
      out = in.readAllBytes();
    }
    int code = process.waitFor();
    String text = new String(out, StandardCharsets.UTF_8);
    if (code != 0) {
      throw new IOException("git " + String.join(" ", args) + " failed: " + text);
    }
    return text;
  }

  void init(Path dir) throws IOException, InterruptedException {
    git(dir, "init", "-q");
    git(dir, "config", "user.name", "Test");
    git(dir, "config", "user.email", "test@example.invalid");
    git(dir, "config", "commit.gpgsign", "false");
    git(dir, "config", "core.autocrlf", "false");
  }

  GitAwareRepositoryOperations ops(GitAwareOptions options) {
    return new GitAwareRepositoryOperations(options, env);
  }

  GitAwareRepositoryOperations ops() {
    return ops(GitAwareOptions.defaults());
  }

  /** A repository exercising every ignore source. */
  void buildIgnoreRepo() throws IOException, InterruptedException {
    TestTree tree = new TestTree(repo);
    init(repo);
    Path globalExcludes = temp.resolve("global-excludes");
    Files.writeString(globalExcludes, "*.bak\n");
    git(repo, "config", "core.excludesFile", globalExcludes.toString());
    tree.file(".gitignore", "*.log\n!keep.log\n/build\nlogs/\nsecret.txt\nignored-dir/\n")
        .file("README.md", "readme hit\n")
        .file("secret.txt", "tracked but ignored hit\n")
        .file("keep.log", "kept hit\n")
        .file("debug.log", "ignored hit\n")
        .file("build/out.txt", "ignored hit\n")
        .file("src/build/b.txt", "not anchored hit\n")
        .file("logs/a.txt", "ignored hit\n")
        .file("src/logs", "a file named logs hit\n")
        .file("src/.gitignore", "gen/\n*.tmp\n")
        .file("src/gen/g.java", "ignored hit\n")
        .file("src/x.tmp", "ignored hit\n")
        .file("src/Main.java", "untracked hit\n")
        .file("excluded-by-info.txt", "ignored hit\n")
        .file("a.bak", "ignored hit\n")
        .file("docs/guide.md", "untracked hit\n")
        .file(".hidden/h.txt", "hidden hit\n")
        .file("node_modules/m.js", "excluded hit\n")
        .file("ignored-dir/deep/x.txt", "ignored hit\n")
        .link("link-to-readme", Path.of("README.md"));
    Files.writeString(repo.resolve(".git/info/exclude"), "excluded-by-info.txt\n");
    git(repo, "add", ".gitignore", "README.md", "link-to-readme");
    git(repo, "add", "-f", "secret.txt");
    git(repo, "commit", "-q", "-m", "init");
  }

  List<String> lsFiles(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("ls-files"));
    command.addAll(List.of(args));
    command.add("-z");
    String out = git(repo, command.toArray(new String[0]));
    List<String> paths = new ArrayList<>();
    for (String part : out.split("\0")) {
      if (!part.isEmpty()) {
        paths.add(part);
      }
    }
    return paths;
  }

  static Set<String> visible(List<String> paths, boolean includeHidden, Set<String> exclude,
      Path root) {
    Set<String> out = new TreeSet<>();
    for (String path : paths) {
      boolean keep = !Files.isSymbolicLink(root.resolve(path));
      for (String part : path.split("/")) {
        if (exclude.contains(part) || (!includeHidden && part.startsWith("."))) {
          keep = false;
        }
      }
      if (keep) {
        out.add(path);
      }
    }
    return out;
  }

  Set<String> globAll(RepositoryOperations operations, boolean includeHidden) {
    RepositoryGlobResult result = operations.glob(
        RepositoryGlobRequest.builder(repo, "**").includeHidden(includeHidden).build());
    assertThat(result.truncated()).isFalse();
    return new TreeSet<>(result.paths());
  }

  @Test
  void globSeesExactlyWhatGitLsFilesReports() throws Exception {
    buildIgnoreRepo();
    Set<String> defaultExclude = Set.copyOf(RepositoryLimits.DEFAULT_REPO_EXCLUDE);
    List<String> listed = lsFiles("--cached", "--others", "--exclude-standard");
    Set<String> got = globAll(ops(), false);
    assertThat(got).isEqualTo(visible(listed, false, defaultExclude, repo));
    assertThat(got).contains("README.md", "secret.txt", "keep.log", "src/build/b.txt",
        "src/logs", "src/Main.java", "docs/guide.md");
    assertThat(got).doesNotContain("debug.log", "build/out.txt", "logs/a.txt", "src/gen/g.java",
        "src/x.tmp", "excluded-by-info.txt", "a.bak", "ignored-dir/deep/x.txt",
        "node_modules/m.js", ".hidden/h.txt", "link-to-readme");

    Set<String> hidden = globAll(ops(), true);
    assertThat(hidden).isEqualTo(visible(listed, true, defaultExclude, repo));
    assertThat(hidden).contains(".gitignore", "src/.gitignore", ".hidden/h.txt");
  }

  @Test
  void includeIgnoredAddsUntrackedIgnoredFiles() throws Exception {
    buildIgnoreRepo();
    List<String> listed = new ArrayList<>(lsFiles("--cached", "--others", "--exclude-standard"));
    listed.addAll(lsFiles("-o", "-i", "--exclude-standard"));
    GitAwareRepositoryOperations withIgnored =
        ops(GitAwareOptions.builder().includeIgnored(true).build());
    Set<String> got = globAll(withIgnored, false);
    assertThat(got).isEqualTo(
        visible(listed, false, Set.copyOf(RepositoryLimits.DEFAULT_REPO_EXCLUDE), repo));
    assertThat(got).contains("debug.log", "build/out.txt", "src/gen/g.java", "a.bak",
        "ignored-dir/deep/x.txt");
  }

  @Test
  void searchAndListUseGitsViewAndNeverFollowTrackedSymlinks() throws Exception {
    buildIgnoreRepo();
    GitAwareRepositoryOperations ops = ops();
    RepositorySearchResult result = ops.search(RepositorySearchRequest.builder(repo, "hit").build());
    Set<String> paths = new TreeSet<>();
    result.matches().forEach(m -> paths.add(m.path()));
    assertThat(paths).containsExactly("README.md", "docs/guide.md", "keep.log", "secret.txt",
        "src/Main.java", "src/build/b.txt", "src/logs");
    RepositoryListResult list = ops.list(RepositoryListRequest.builder(repo).build());
    assertThat(list.entries()).contains(
        new RepoListEntry("link-to-readme", RepoEntryKind.SYMLINK, null),
        new RepoListEntry("src", RepoEntryKind.DIRECTORY, null));
    assertThat(list.entries()).extracting(RepoListEntry::path)
        .doesNotContain("build", "logs", "ignored-dir", "node_modules", ".git");
    // a scoped search only sees the scope
    RepositorySearchResult scoped =
        ops.search(RepositorySearchRequest.builder(repo, "hit").path("src").build());
    assertThat(scoped.matches()).extracting(RepositorySearchMatch::path)
        .containsExactly("src/Main.java", "src/build/b.txt", "src/logs");
    // an ignored file named directly is still searched (the start is not filtered)
    RepositorySearchResult direct =
        ops.search(RepositorySearchRequest.builder(repo, "hit").path("debug.log").build());
    assertThat(direct.matches()).hasSize(1);
  }

  @Test
  void orderingAndPagesEqualTheNativeWalkOnATreeWithoutIgnores() throws Exception {
    TestTree tree = new TestTree(repo);
    init(repo);
    tree.file("b/x.txt", "1").file("b/a/deep.txt", "22").file("a.txt", "333").file("Z.txt", "")
        .file("c/y.txt", "").file("c/d/e/f.txt", "").file("_u.txt", "").file("b/a/z/q.txt", "");
    git(repo, "add", "a.txt", "b", "c/d");
    git(repo, "commit", "-q", "-m", "some");
    RepositoryOperations local = RepositoryOperations.local(RepositoryLimits.defaults());
    GitAwareRepositoryOperations git = ops();
    assertThat(git.select(repo, null, null).toString()).contains("LsFilesWalk");
    RepositoryListRequest all = RepositoryListRequest.builder(repo).build();
    assertThat(git.list(all)).isEqualTo(local.list(all));
    for (int offset = 0; offset < 14; offset += 3) {
      RepositoryListRequest page =
          RepositoryListRequest.builder(repo).maxResults(3).offset(offset).build();
      assertThat(git.list(page)).as("offset %d", offset).isEqualTo(local.list(page));
    }
    // depth overflow truncates with DEPTH in both
    RepositoryListRequest shallow = RepositoryListRequest.builder(repo).maxDepth(1).build();
    RepositoryListResult gitShallow = git.list(shallow);
    assertThat(gitShallow.truncatedBy()).isEqualTo(TruncationReason.DEPTH);
    assertThat(gitShallow).isEqualTo(local.list(shallow));
    RepositorySearchRequest search = RepositorySearchRequest.builder(repo, "3").build();
    assertThat(git.search(search)).isEqualTo(local.search(search));
    // entries / files limits match too
    GitAwareOptions tight = GitAwareOptions.builder()
        .limits(RepositoryLimits.builder().maxEntries(4).maxFiles(3).build()).build();
    RepositoryOperations tightLocal = RepositoryOperations.local(tight.limits());
    assertThat(ops(tight).list(all)).isEqualTo(tightLocal.list(all));
    assertThat(ops(tight).glob(RepositoryGlobRequest.builder(repo, "**").build()))
        .isEqualTo(tightLocal.glob(RepositoryGlobRequest.builder(repo, "**").build()));
  }

  @Test
  void randomTreesListIdenticallyInBothVariants() throws Exception {
    long seed = System.nanoTime();
    java.util.Random random = new java.util.Random(seed);
    String[] names = {"a", "a-b", "a.b", "a b", "B", "é", "a0", "_", "z😀", "ｚ"};
    for (int round = 0; round < 3; round++) {
      Path root = Files.createDirectory(temp.resolve("random" + round));
      init(root);
      TestTree tree = new TestTree(root);
      int files = 10 + random.nextInt(30);
      for (int i = 0; i < files; i++) {
        StringBuilder path = new StringBuilder();
        int depth = random.nextInt(4);
        for (int d = 0; d < depth; d++) {
          path.append(names[random.nextInt(names.length)]).append('/');
        }
        // ".f<i>" keeps file names distinct from directory names ("a" + 0 would be the dir "a0")
        path.append(names[random.nextInt(names.length)]).append(".f").append(i);
        tree.file(path.toString(), "x".repeat(random.nextInt(5)));
      }
      tree.link("zz-link", Path.of("a"));
      if (random.nextBoolean()) {
        git(root, "add", ".");
        git(root, "commit", "-q", "-m", "random");
      }
      RepositoryOperations local = RepositoryOperations.local(RepositoryLimits.defaults());
      GitAwareRepositoryOperations git = ops();
      assertThat(git.select(root, null, null).toString()).contains("LsFilesWalk");
      int pageSize = 1 + random.nextInt(7);
      int maxDepth = 1 + random.nextInt(4);
      for (int offset = 0; offset < files * 2; offset += pageSize) {
        RepositoryListRequest page = RepositoryListRequest.builder(root).maxResults(pageSize)
            .offset(offset).maxDepth(maxDepth).build();
        assertThat(git.list(page)).as("seed %d round %d offset %d", seed, round, offset)
            .isEqualTo(local.list(page));
      }
      RepositorySearchRequest search = RepositorySearchRequest.builder(root, "xx").build();
      assertThat(git.search(search)).as("seed %d round %d", seed, round)
          .isEqualTo(local.search(search));
    }
  }

  @Test
  void detectionUsesTheRequestRootAndDoesNotCacheNegatives() throws Exception {
    Path plain = Files.createDirectory(temp.resolve("plain"));
    new TestTree(plain).file("a.txt", "hit\n").file("debug.log", "hit\n");
    // constructed for a directory that is not a repository at all
    GitAwareRepositoryOperations ops = new GitAwareRepositoryOperations(
        GitAwareOptions.defaults(), env);
    RepositoryGlobRequest glob = RepositoryGlobRequest.builder(plain, "**").build();
    assertThat(ops.glob(glob).paths()).containsExactly("a.txt", "debug.log");
    init(plain);
    Files.writeString(plain.resolve(".gitignore"), "*.log\n");
    assertThat(ops.glob(glob).paths()).containsExactly("a.txt");

    buildIgnoreRepo();
    assertThat(ops.glob(RepositoryGlobRequest.builder(repo, "*.log").build()).paths())
        .containsExactly("keep.log");
  }

  @Test
  void fallbackIsUsedOutsideARepositoryAndWithoutGit() throws Exception {
    Path plain = Files.createDirectory(temp.resolve("plain"));
    new TestTree(plain).file("a.log", "hit\n");
    RepositoryListResult sentinel = new RepositoryListResult(
        List.of(new RepoListEntry("sentinel", RepoEntryKind.OTHER, null)), null, 0, 0, null, 0);
    RepositoryOperations fallback = new RepositoryOperations() {
      @Override
      public RepositorySearchResult search(RepositorySearchRequest request) {
        throw new UnsupportedOperationException();
      }

      @Override
      public RepositoryListResult list(RepositoryListRequest request) {
        return sentinel;
      }

      @Override
      public RepositoryGlobResult glob(RepositoryGlobRequest request) {
        throw new UnsupportedOperationException();
      }
    };
    GitAwareRepositoryOperations withFallback =
        ops(GitAwareOptions.builder().fallback(fallback).build());
    assertThat(withFallback.list(RepositoryListRequest.builder(plain).build())).isSameAs(sentinel);

    buildIgnoreRepo();
    GitAwareRepositoryOperations noGit = ops(GitAwareOptions.builder()
        .gitExecutable(temp.resolve("no-such-git").toString()).build());
    assertThat(noGit.glob(RepositoryGlobRequest.builder(repo, "*.log").build()).paths())
        .containsExactly("debug.log", "keep.log");
    // a missing root still reports the exact error through the fallback
    Path missing = temp.resolve("missing");
    assertThatThrownBy(() -> ops().list(RepositoryListRequest.builder(missing).build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("workspace root is missing or unreadable: " + missing);
  }

  @Test
  void outputOverflowIsAnErrorAndFailuresDropTheCachedDetection() throws Exception {
    buildIgnoreRepo();
    GitAwareRepositoryOperations capped =
        ops(GitAwareOptions.builder().maxLsFilesOutputBytes(10).build());
    assertThatThrownBy(() -> capped.list(RepositoryListRequest.builder(repo).build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("git ls-files output exceeds 10 byte limit");

    GitAwareRepositoryOperations ops = ops();
    assertThat(ops.list(RepositoryListRequest.builder(repo).build()).truncated()).isFalse();
    // break the repository after a positive detection: ls-files fails closed, once
    Files.writeString(repo.resolve(".git/HEAD"), "garbage\n");
    assertThatThrownBy(() -> ops.list(RepositoryListRequest.builder(repo).build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("git ls-files failed (exit 128)");
    assertThat(ops.glob(RepositoryGlobRequest.builder(repo, "*.log").build()).paths())
        .containsExactly("debug.log", "keep.log");
  }

  /** A stand-in for git: says "true" to rev-parse and then behaves as scripted for ls-files. */
  Path fakeGit(String lsFiles, String lsIgnored) throws IOException {
    Path script = temp.resolve("fake-git");
    Files.writeString(script, String.join("\n",
        "#!/bin/sh",
        "case \"$*\" in",
        "  *rev-parse*) echo true ;;",
        "  *' -i '*) " + lsIgnored + " ;;",
        "  *ls-files*) " + lsFiles + " ;;",
        "esac",
        ""));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectories(repo.resolve("src"));
    Files.writeString(repo.resolve("src/a.txt"), "hit\n");
    Files.writeString(repo.resolve("src/b.txt"), "not listed by the fake git\n");
    return script;
  }

  GitAwareRepositoryOperations fake(Path script, GitAwareOptions.Builder options) {
    return ops(options.gitExecutable(script.toString()).build());
  }

  @Test
  void gitFailuresMapExactly() throws Exception {
    Path script = fakeGit("exit 3", "exit 4");
    RepositoryListRequest list = RepositoryListRequest.builder(repo).build();
    assertThatThrownBy(() -> fake(script, GitAwareOptions.builder()).list(list))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("git ls-files failed (exit 3)");
    Path ok = fakeGit("printf 'src/a.txt\\0'", "exit 4");
    assertThat(fake(ok, GitAwareOptions.builder()).list(list).entries()).hasSize(2);
    assertThatThrownBy(() -> fake(ok, GitAwareOptions.builder().includeIgnored(true)).list(list))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("git ls-files (ignored) failed (exit 4)");
    // -z parsing: empty segments dropped, an unterminated last path kept, trailing / is a dir
    Path odd = fakeGit("printf '\\0src/a.txt\\0\\0src/\\0src/a.txt'", "true");
    assertThat(fake(odd, GitAwareOptions.builder()).list(list).entries()).containsExactly(
        new RepoListEntry("src", RepoEntryKind.DIRECTORY, null),
        new RepoListEntry("src/a.txt", RepoEntryKind.FILE, 4L));
  }

  @Test
  void gitTimeoutAndAbortTruncateAndLeaveNoProcessBehind() throws Exception {
    Path script = fakeGit("exec sleep 30", "true");
    long start = System.nanoTime();
    RepositoryListResult timed = fake(script, GitAwareOptions.builder().gitTimeoutMs(300))
        .list(RepositoryListRequest.builder(repo).build());
    assertThat(timed.truncatedBy()).isEqualTo(TruncationReason.TIME);
    assertThat(timed.nextOffset()).isZero();
    RepositorySearchResult timedSearch = fake(script, GitAwareOptions.builder().gitTimeoutMs(300))
        .search(RepositorySearchRequest.builder(repo, "hit").build());
    assertThat(timedSearch.truncatedBy()).isEqualTo(TruncationReason.TIME);
    // the request deadline bounds git too
    RepositoryGlobResult deadline = fake(script, GitAwareOptions.builder())
        .glob(RepositoryGlobRequest.builder(repo, "**").deadlineMs(300L).build());
    assertThat(deadline.truncatedBy()).isEqualTo(TruncationReason.TIME);

    AbortSignal signal = AbortSignal.create();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    try {
      timer.schedule(signal::abort, 300, TimeUnit.MILLISECONDS);
      RepositorySearchResult aborted = fake(script, GitAwareOptions.builder())
          .search(RepositorySearchRequest.builder(repo, "hit").signal(signal).build());
      assertThat(aborted.truncatedBy()).isEqualTo(TruncationReason.ABORT);
    } finally {
      timer.shutdownNow();
    }
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(20);
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count())
        .isZero();
    long watchdogs = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("prism-index-git-watchdog")).count();
    assertThat(watchdogs).isLessThanOrEqualTo(1);
  }

  @Test
  void lsFilesTreeDropsGitInternalsAndOddPaths() {
    ListedWalk.Tree tree = new ListedWalk.Tree();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String path : new String[] {".git/config", "a/../b", "./c", "d//e", "ok/x", "ok/y",
        "ok/x", "nested/"}) {
      out.writeBytes(path.getBytes(StandardCharsets.UTF_8));
      out.write(0);
    }
    LsFilesWalk.parseNulSeparated(out.toByteArray()).forEach(tree::add);
    assertThat(new LinkedHashSet<>(tree.children("."))).containsExactly("ok", "nested");
    assertThat(tree.children("ok")).containsExactly("x", "y");
    assertThat(tree.children("nested")).isEmpty();
    assertThat(LsFilesWalk.parseNulSeparated("a\0\0b".getBytes(StandardCharsets.UTF_8)))
        .containsExactly("a", "b");
  }
}
