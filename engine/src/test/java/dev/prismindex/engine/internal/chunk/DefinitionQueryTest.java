package dev.prismindex.engine.internal.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.engine.internal.NativeBuild;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.treesitter.TSLanguage;
import org.treesitter.TSNode;
import org.treesitter.TSParser;
import org.treesitter.TSTree;
import org.treesitter.TreeSitterGo;
import org.treesitter.TreeSitterJava;
import org.treesitter.TreeSitterJavascript;
import org.treesitter.TreeSitterPython;
import org.treesitter.TreeSitterRust;
import org.treesitter.TreeSitterTsx;
import org.treesitter.TreeSitterTypescript;

/**
 * The chunker finds definitions in one call to this project's native library (linux-x86_64) or
 * with one tree-sitter query per language through the binding. This test keeps the first
 * implementation (a recursive walk over every named node through the binding's JNI, about three
 * times slower than the query) as the reference and checks both paths give the same nested
 * definitions, on fixtures in every grammar and on seeded random truncations and splices of them
 * (parse errors included).
 */
class DefinitionQueryTest {

  private static final Chunker BINDING = new Chunker(false);
  private static final Chunker NATIVE =
      NativeDefinitions.available() ? new Chunker(true) : null;

  @AfterAll
  static void close() {
    BINDING.close();
    if (NATIVE != null) {
      NATIVE.close();
    }
  }

  /** The chunkers to compare with the reference: the native one wherever it is built. */
  static List<Chunker> chunkers() {
    return NATIVE == null ? List.of(BINDING) : List.of(NATIVE, BINDING);
  }

  @Test
  void theNativeLibraryIsLoadedOnLinuxX64() {
    boolean off = NativeBuild.switchedOff()
        || !Boolean.parseBoolean(System.getProperty("prism.treeSitter.native", "true"));
    assertThat(NativeDefinitions.available()).isEqualTo(NativeBuild.expected() && !off);
  }

  private static final Map<String, String> FIXTURES = Map.of(
      "java", """
          package p;
          import java.util.*;
          /** Doc. */
          @Deprecated
          public class Outer<T> extends Base implements Runnable {
            private final int x = 1;
            record Point(int x, int y) { Point { assert x >= 0; } int sum() { return x + y; } }
            enum Color { RED, GREEN; Color next() { return GREEN; } }
            interface Shape { double area(); default String name() { return "s"; } }
            @interface Marker { String value() default ""; }
            Outer() { super(); }
            public void run() {
              Runnable r = new Runnable() { @Override public void run() { class Local { void go() {} } } };
              Comparator<String> c = (a, b) -> a.compareTo(b);
            }
            static <U> U id(U u) { return u; }
          }
          class Second { void m() {} }
          """,
      "python", """
          import os
          class A(Base):
              '''doc'''
              x = 1
              def run(self):
                  def inner():
                      return 1
                  return inner()
              @staticmethod
              @other(1)
              def helper():
                  pass
          @decorator
          def top(a, b=2):
              class Nested:
                  def m(self): pass
              return Nested
          async def later():
              await top(1)
          lam = lambda x: x
          """,
      "typescript", """
          export class Svc<T> implements I {
            private x = 1;
            go(): void { const inner = () => 1; }
            static make(): Svc<number> { return new Svc(); }
          }
          export const arrow = (x: number) => x * 2;
          let fn = function named() {};
          var legacy = function() { return 2; };
          function plain(a: string): string { function nested() {} return a; }
          function* gen() { yield 1; }
          interface Shape { w: number }
          type Alias = { a: string };
          abstract class Abs { abstract m(): void; }
          enum E { A, B }
          namespace NS { export function f() {} }
          """,
      "tsx", """
          const C = () => <div onClick={() => 1}/>;
          function F() { return <C/>; }
          export default class K extends React.Component { render() { return null; } }
          """,
      "javascript", """
          class K { m() {} static s() { return class Inner { q() {} }; } }
          const f = function() {};
          const g = async () => { const h = () => 1; };
          function top() { function nested() {} }
          export function exported() {}
          let x = 1, y = () => 2;
          """,
      "go", """
          package main
          import "fmt"
          type Point struct { X int }
          type (
            A int
            B string
          )
          type Shape interface { Area() float64 }
          func (p Point) Len() int { f := func() int { return 1 }; return f() }
          func main() { fmt.Println("x") }
          var v = 1
          """,
      "rust", """
          struct S { a: u8 }
          impl S {
              fn new() -> S { S { a: 0 } }
              fn inner(&self) { fn helper() {} }
          }
          impl<T> Trait for Vec<T> { fn f(&self) {} }
          trait T { fn req(&self); fn prov(&self) {} }
          enum E { A, B(u8) }
          union U { a: u32 }
          mod m { pub fn free() {} mod deeper { fn d() {} } }
          macro_rules! mac { () => {} }
          fn free() {}
          """);

  @ParameterizedTest
  @MethodSource("chunkers")
  void definitionsEqualTheRecursiveWalkOnFixtures(Chunker chunker) {
    for (Map.Entry<String, String> e : FIXTURES.entrySet()) {
      List<ChunkBuilder.Def> expected = Reference.definitions(e.getValue(), e.getKey());
      assertThat(expected).as(e.getKey()).isNotEmpty();
      assertThat(chunker.definitions(e.getValue(), e.getKey())).as(e.getKey())
          .isEqualTo(expected);
    }
  }

  @ParameterizedTest
  @MethodSource("chunkers")
  void definitionsEqualTheRecursiveWalkOnBrokenAndSplicedSources(Chunker chunker) {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    List<String> languages = new ArrayList<>(FIXTURES.keySet());
    languages.sort(null);
    for (int i = 0; i < 300; i++) {
      String language = languages.get(r.nextInt(languages.size()));
      String a = FIXTURES.get(language);
      String b = FIXTURES.get(languages.get(r.nextInt(languages.size())));
      String text;
      switch (r.nextInt(3)) {
        case 0 -> text = a.substring(0, r.nextInt(a.length()));
        case 1 -> text = a.substring(r.nextInt(a.length()));
        default -> {
          int cut = r.nextInt(a.length());
          text = a.substring(0, cut) + b.substring(r.nextInt(b.length())) + a.substring(cut);
        }
      }
      assertThat(chunker.definitions(text, language))
          .as("seed %d, case %d (%s): %s", seed, i, language, text)
          .isEqualTo(Reference.definitions(text, language));
    }
  }

  /**
   * A netbeans file with a U+FEFF in a comment had every later name cut three bytes early on the
   * binding's path (the binding leaves the character out of what it parses).
   */
  @ParameterizedTest
  @MethodSource("chunkers")
  void aZeroWidthNoBreakSpaceDoesNotShiftNames(Chunker chunker) {
    for (String text : List.of(
        "\uFEFFpackage p;\nclass Home {\n  static Home loadHome() { return null; }\n}\n",
        "package p;\n// to \uFEFFC:\\Users \uFEFF\uFEFF\nclass Home {\n  static Home loadHome() {}\n}\n")) {
      assertThat(chunker.definitions(text, "java")).as(text).singleElement().satisfies(home -> {
        assertThat(home.name()).isEqualTo("Home");
        assertThat(home.children()).extracting(ChunkBuilder.Def::name)
            .containsExactly("loadHome");
      });
    }
    String rust = "// \uFEFF\ncfg_rt! { pub fn spawn() {} }\n";
    assertThat(chunker.items(rust, "rust")).extracting(ChunkBuilder.Def::name)
        .containsExactly("spawn");
  }

  @Test
  void bothPathsChunkThisProjectsSourcesAndRustMacroBodiesAlike() throws IOException {
    assumeTrue(NATIVE != null, "the native library is built for linux-x86_64 only");
    List<Path> sources;
    try (Stream<Path> files = Files.walk(Path.of("src"))) {
      sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    assertThat(sources).hasSizeGreaterThan(100);
    for (Path p : sources) {
      String text = Files.readString(p);
      assertThat(NATIVE.chunk(text, "java")).as(p.toString())
          .isEqualTo(BINDING.chunk(text, "java"));
    }
    String rust = """
        cfg_rt! {
            pub fn spawn() {}
            cfg_fs! { pub(crate) fn nested() {} }
        }
        impl Runtime {
            cfg_net! { pub fn bind(&self) {} }
        }
        fn main() { inner! { fn not_an_item() {} } }
        """;
    assertThat(NATIVE.items(rust, "rust")).isEqualTo(BINDING.items(rust, "rust"))
        .extracting(ChunkBuilder.Def::name).contains("spawn", "nested", "Runtime", "main");
  }

  /**
   * The native scan takes tree-sitter's memory from its thread's arena and frees a tree by
   * resetting it; past the arena's limit it takes malloc's and frees the tree node by node. With
   * limits that cut files anywhere in their parse (every grammar, external scanners included), the
   * definitions stay the reference's, and the arena is clean for the next file.
   */
  @Test
  void definitionsAreTheSameWhenTheArenaRunsOut() throws IOException {
    assumeTrue(NATIVE != null, "the native library is built for linux-x86_64 only");
    List<Path> sources;
    try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
      sources = files.filter(p -> p.toString().endsWith(".java")).sorted().limit(40).toList();
    }
    try {
      for (long limit : new long[] {1, 4_096, 65_536, 400_000, 0}) {
        NativeDefinitions.arenaLimit(limit);
        for (Map.Entry<String, String> e : FIXTURES.entrySet()) {
          assertThat(NATIVE.definitions(e.getValue(), e.getKey()))
              .as("limit %d, %s", limit, e.getKey())
              .isEqualTo(Reference.definitions(e.getValue(), e.getKey()));
        }
        for (Path p : sources) {
          String text = Files.readString(p);
          assertThat(NATIVE.chunk(text, "java")).as("limit %d, %s", limit, p)
              .isEqualTo(BINDING.chunk(text, "java"));
        }
      }
    } finally {
      NativeDefinitions.arenaLimit(0);
    }
  }

  /**
   * Each thread that scans reserves an arena of 256 MiB of address space, given back when the
   * thread ends (a resident server's runs start new workers every time): twenty threads, one after
   * the other, leave the process's address space about as large as it was, where kept arenas
   * would add 5 GiB.
   */
  @Test
  void anArenaGoesWithItsThread() throws Exception {
    assumeTrue(NATIVE != null, "the native library is built for linux-x86_64 only");
    String java = FIXTURES.get("java");
    NATIVE.definitions(java, "java"); // this thread's arena, and the library, before measuring
    long before = virtualKib();
    for (int i = 0; i < 20; i++) {
      Thread t = new Thread(() -> NATIVE.definitions(java, "java"));
      t.start();
      t.join();
    }
    // join() returns once the Java thread is done, which can be before its native thread has run
    // the key destructors that unmap its arena (seen on a loaded machine): wait for that, at most
    // 10 s. Twenty arenas kept would be 5 GiB (256 MiB reserved each); the bound leaves room for
    // what else the JVM maps meanwhile (malloc's per-thread arenas, other tests' threads).
    long grown = virtualKib() - before;
    for (long deadline = System.nanoTime() + 10_000_000_000L;
        grown >= 2L * 1024 * 1024 && System.nanoTime() < deadline; grown = virtualKib() - before) {
      Thread.sleep(50);
    }
    assertThat(grown).as("address space grown, KiB").isLessThan(2L * 1024 * 1024);
  }

  private static long virtualKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmSize:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    throw new IllegalStateException("no VmSize in /proc/self/status");
  }

  @Test
  void hostileTextsChunkAlikeOnBothPathsAndNeverThrow() {
    assumeTrue(NATIVE != null, "the native library is built for linux-x86_64 only");
    StringBuilder nestedClasses = new StringBuilder();
    for (int i = 0; i < 600; i++) {
      nestedClasses.append("class C").append(i).append(" { void m").append(i).append("() {}\n");
    }
    nestedClasses.append("}".repeat(600));
    Map<String, String> texts = Map.of(
        "java", nestedClasses.toString(),
        "javascript", "f(" + "(".repeat(50_000) + ")".repeat(50_000) + ");\nfunction g() {}\n",
        "python", "def a():\n    x = '\u0000\u0001'\n" + "a".repeat(1_000_000) + "\n",
        "rust", "m! {" + "m! {".repeat(2_000) + "fn deep() {}" + "}".repeat(2_001),
        "go", "package p\nfunc F() { \u0000 }\n\uFEFFtype T struct{}\n");
    texts.forEach((language, text) -> assertThat(NATIVE.chunk(text, language))
        .as(language).isNotEmpty().isEqualTo(BINDING.chunk(text, language)));
  }

  /** The previous implementation: a pre-order walk over named children through JNI. */
  static final class Reference {
    private static final Map<String, TSLanguage> LANGUAGES = Map.of(
        "java", new TreeSitterJava(), "python", new TreeSitterPython(),
        "typescript", new TreeSitterTypescript(), "tsx", new TreeSitterTsx(),
        "javascript", new TreeSitterJavascript(), "go", new TreeSitterGo(),
        "rust", new TreeSitterRust());
    private static final Set<String> DEFINITIONS = Set.of(
        "class_declaration", "interface_declaration", "record_declaration", "enum_declaration",
        "annotation_type_declaration", "method_declaration", "constructor_declaration",
        "class_definition", "function_definition", "decorated_definition",
        "method_definition", "function_declaration", "generator_function_declaration",
        "abstract_class_declaration", "type_alias_declaration", "lexical_declaration",
        "variable_declaration", "type_declaration",
        "function_item", "impl_item", "struct_item", "enum_item", "trait_item", "mod_item",
        "union_item", "macro_definition");

    static List<ChunkBuilder.Def> definitions(String text, String language) {
      try (TSParser parser = new TSParser()) {
        parser.setLanguage(LANGUAGES.get(language));
        TSTree tree = parser.parseString(null, text);
        try {
          return collect(tree.getRootNode(), text.getBytes(StandardCharsets.UTF_8), 0);
        } finally {
          tree.close();
        }
      }
    }

    private static List<ChunkBuilder.Def> collect(TSNode node, byte[] utf8, int depth) {
      List<ChunkBuilder.Def> defs = new ArrayList<>();
      if (depth > 256) {
        return defs;
      }
      int count = node.getNamedChildCount();
      for (int i = 0; i < count; i++) {
        TSNode child = node.getNamedChild(i);
        if (child.getNamedChildCount() == 0) {
          continue;
        }
        TSNode nameNode = DEFINITIONS.contains(child.getType())
            ? BindingDefinitions.nameNode(child) : null;
        String name = nameNode == null ? null : text(nameNode, utf8);
        if (name != null) {
          defs.add(new ChunkBuilder.Def(child.getStartPoint().getRow() + 1,
              child.getEndPoint().getRow() + 1,
              nameNode.getStartPoint().getRow() + 1, name,
              BindingDefinitions.isContainer(child), collect(child, utf8, depth + 1)));
        } else {
          defs.addAll(collect(child, utf8, depth + 1));
        }
      }
      return defs;
    }

    /** The node's text, stripped, at most 200 characters; null when empty or out of range. */
    private static String text(TSNode node, byte[] utf8) {
      int start = node.getStartByte();
      int end = node.getEndByte();
      if (start < 0 || end > utf8.length || end <= start) {
        return null;
      }
      String s = new String(utf8, start, end - start, StandardCharsets.UTF_8).strip();
      return s.isEmpty() ? null : s.length() > 200 ? s.substring(0, 200) : s;
    }

    private Reference() {}
  }
}
