package dev.prismindex.engine.internal.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.spi.Chunk;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * One chunk per function or method, a type's header its own chunk, doc comments with the
 * definition they precede, symbol lines on the definition's header, Rust items inside macro
 * bodies: per language.
 */
class DefinitionChunksTest {

  private static final Chunker CHUNKER = new Chunker();

  @AfterAll
  static void close() {
    CHUNKER.close();
  }

  /** The chunk whose main symbol is {@code name}. */
  private static Chunk chunkOf(List<Chunk> chunks, String name) {
    return chunks.stream()
        .filter(c -> c.primary() != null && c.primary().name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no chunk for " + name + " in " + chunks));
  }

  private static int lineOf(String src, String text) {
    List<String> lines = src.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text);
  }

  /** Every definition listed is the main symbol of exactly one chunk, of no other chunk. */
  private static void assertOwnChunks(List<Chunk> chunks, String... names) {
    for (String name : names) {
      assertThat(chunks.stream().filter(c -> c.symbols().stream()
          .anyMatch(s -> s.name().equals(name))).toList())
          .as(name).hasSize(1).allSatisfy(c -> assertThat(c.primary().name()).isEqualTo(name));
    }
  }

  @Test
  void javaClassWithShortMethodsIsAHeaderChunkAndOneChunkPerMethodWithItsJavadoc() {
    String src = """
        package p;

        /** A counter. */
        public class Counter {
          private int count;

          /**
           * Returns the number of entries.
           */
          public int getEntryCount() {
            return count;
          }

          // Adds one.
          @Override
          public void add(String name) {
            count++;
          }

          /** Resets. */
          void reset() { count = 0; }
        }
        """;
    List<Chunk> chunks = CHUNKER.chunk(src, "java");
    assertThat(chunks).hasSize(4);
    assertOwnChunks(chunks, "Counter", "getEntryCount", "add", "reset");
    Chunk header = chunkOf(chunks, "Counter");
    assertThat(header.text()).contains("/** A counter. */", "private int count;")
        .doesNotContain("getEntryCount", "Returns the number");
    assertThat(header.primary().line()).isEqualTo(lineOf(src, "public class Counter"));
    assertThat(header.parent()).isNull();

    Chunk get = chunkOf(chunks, "getEntryCount");
    assertThat(get.startLine()).isEqualTo(lineOf(src, "  /**"));
    assertThat(get.text()).contains("Returns the number of entries.", "return count;")
        .doesNotContain("Adds one", "count++");
    assertThat(get.primary().line()).isEqualTo(lineOf(src, "public int getEntryCount()"));
    assertThat(get.parent()).isEqualTo("Counter");

    Chunk add = chunkOf(chunks, "add");
    assertThat(add.startLine()).isEqualTo(lineOf(src, "// Adds one."));
    assertThat(add.primary().line()).isEqualTo(lineOf(src, "public void add("));
    assertThat(chunkOf(chunks, "reset").text()).startsWith("  /** Resets. */");
  }

  @Test
  void pythonMethodsAreChunksOfTheirOwnWithTheCommentsAboveThem() {
    String src = """
        import os


        class Store:
            \"\"\"A store.\"\"\"

            limit = 3

            # Opens the store.
            @staticmethod
            def open(path):
                \"\"\"Open it.\"\"\"
                return Store()

            def close(self):
                pass


        # Helps.
        def helper():
            return 1
        """;
    List<Chunk> chunks = CHUNKER.chunk(src, "python");
    assertOwnChunks(chunks, "Store", "open", "close", "helper");
    assertThat(chunkOf(chunks, "Store").text()).contains("\"\"\"A store.\"\"\"", "limit = 3")
        .doesNotContain("Opens the store");
    Chunk open = chunkOf(chunks, "open");
    assertThat(open.text()).startsWith("    # Opens the store.").contains("Open it.");
    assertThat(open.primary().line()).isEqualTo(lineOf(src, "def open(path)"));
    assertThat(open.parent()).isEqualTo("Store");
    assertThat(chunkOf(chunks, "helper").text()).startsWith("# Helps.");
  }

  @Test
  void goDocCommentsBelongToTheirFunction() {
    String src = """
        package main

        // Point is a point.
        type Point struct {
        \tX int
        }

        // Len returns the length.
        // It never fails.
        func (p Point) Len() int {
        \treturn p.X
        }

        func main() {}
        """;
    List<Chunk> chunks = CHUNKER.chunk(src, "go");
    assertOwnChunks(chunks, "Point", "Len", "main");
    Chunk len = chunkOf(chunks, "Len");
    assertThat(len.startLine()).isEqualTo(lineOf(src, "// Len returns"));
    assertThat(len.primary().line()).isEqualTo(lineOf(src, "func (p Point) Len()"));
    assertThat(chunkOf(chunks, "Point").text()).doesNotContain("Len returns");
  }

  @Test
  void rustDocAndAttributesBelongToTheirItemAndImplMethodsAreChunksOfTheirOwn() {
    String src = """
        use std::fmt;

        /// A handle.
        pub struct JoinHandle<T> {
            raw: RawTask,
        }

        impl<T> JoinHandle<T> {
            /// Aborts the task.
            ///
            /// ```
            /// handle.abort();
            /// ```
            #[inline]
            #[cfg_attr(
                docsrs,
                doc(cfg(feature = "rt"))
            )]
            pub fn abort(&self) {
                self.raw.remote_abort();
            }

            /// Whether it finished.
            pub fn is_finished(&self) -> bool {
                self.raw.state().is_complete()
            }
        }
        """;
    List<Chunk> chunks = CHUNKER.chunk(src, "rust");
    assertOwnChunks(chunks, "abort", "is_finished", "JoinHandle");
    Chunk abort = chunkOf(chunks, "abort");
    assertThat(abort.startLine()).isEqualTo(lineOf(src, "/// Aborts the task."));
    assertThat(abort.text()).contains("#[inline]", "docsrs", "handle.abort();")
        .doesNotContain("JoinHandle<T> {", "Whether it finished");
    assertThat(abort.primary().line()).isEqualTo(lineOf(src, "pub fn abort(&self)"));
    assertThat(abort.parent()).isEqualTo("JoinHandle<T>");
    assertThat(chunkOf(chunks, "is_finished").text()).startsWith("    /// Whether it finished.");
  }

  @Test
  void rustItemsInsideMacroBlocksAreItems() {
    String src = """
        cfg_rt! {
            /// Spawns a task.
            pub fn spawn<F>(future: F) -> JoinHandle<F::Output> {
                spawn_inner(future, None)
            }

            /// Blocks on it.
            pub fn block_on<F: Future>(future: F) -> F::Output {
                let rt = Runtime::new();
                rt.block_on(future)
            }
        }

        pin_project! {
            /// A future with a deadline.
            pub struct Timeout<T> {
                #[pin]
                value: T,
            }
        }

        impl Timeout<()> {
            cfg_time! {
                pub fn deadline(&self) -> Instant {
                    self.deadline
                }
            }
        }
        """;
    List<Chunk> chunks = CHUNKER.chunk(src, "rust");
    assertOwnChunks(chunks, "spawn", "block_on", "Timeout", "deadline");
    Chunk spawn = chunkOf(chunks, "spawn");
    assertThat(spawn.primary().line()).isEqualTo(lineOf(src, "pub fn spawn<F>"));
    assertThat(spawn.text()).contains("/// Spawns a task.").doesNotContain("block_on");
    assertThat(chunkOf(chunks, "block_on").primary().line())
        .isEqualTo(lineOf(src, "pub fn block_on"));
    assertThat(chunkOf(chunks, "Timeout").primary().line())
        .isEqualTo(lineOf(src, "pub struct Timeout<T>"));
    assertThat(chunkOf(chunks, "deadline").parent()).isEqualTo("Timeout<()>");
    // The query alone (no macro bodies) finds none of them: the equivalence test's view.
    assertThat(CHUNKER.definitions(src, "rust")).extracting(ChunkBuilder.Def::name)
        .containsExactly("Timeout<()>");
  }

  @Test
  void typescriptJsDocBelongsToTheExportedFunction() {
    String src = """
        import { x } from "y";

        /**
         * Parses a duration.
         * @param s the text
         */
        export function parseDuration(s: string): number {
          return Number(s);
        }

        export class Svc {
          /** Goes. */
          @Input()
          go(): void {}

          stop(): void {}
        }
        """;
    List<Chunk> chunks = CHUNKER.chunk(src, "typescript");
    assertOwnChunks(chunks, "parseDuration", "Svc", "go", "stop");
    Chunk parse = chunkOf(chunks, "parseDuration");
    assertThat(parse.text()).contains("Parses a duration.", "return Number(s);");
    assertThat(parse.primary().line()).isEqualTo(lineOf(src, "export function parseDuration"));
    Chunk go = chunkOf(chunks, "go");
    assertThat(go.text()).contains("/** Goes. */", "@Input()");
    assertThat(go.parent()).isEqualTo("Svc");
  }

  @Test
  void aBlankLineOrCodeBetweenACommentAndADefinitionKeepsThemApart() {
    String src = "// Copyright notice.\n\nclass A {\n  int a = 1; // trailing\n  void f() {}\n"
        + "  /* not a doc */ int b;\n  void g() {}\n}\n";
    List<ChunkBuilder.Def> defs =
        DocComments.attach(CHUNKER.items(src, "java"), SourceLines.split(src), "java");
    assertThat(defs).singleElement().satisfies(a -> {
      assertThat(a.start()).isEqualTo(3);
      assertThat(a.children()).extracting(ChunkBuilder.Def::start).containsExactly(5, 7);
    });
  }

  @Test
  void aLongMethodIsWindowedAndEveryWindowCarriesItsSymbolAndParent() {
    StringBuilder sb = new StringBuilder("class Big {\n  /** Doc. */\n  void huge() {\n");
    for (int i = 0; i < 150; i++) {
      sb.append("    call").append(i).append("();\n");
    }
    sb.append("  }\n  void small() { x(); }\n}\n");
    List<Chunk> chunks = CHUNKER.chunk(sb.toString(), "java");
    List<Chunk> huge = chunks.stream()
        .filter(c -> !c.symbols().isEmpty() && c.primary().name().equals("huge")).toList();
    assertThat(huge).hasSizeGreaterThan(2).allSatisfy(c -> {
      assertThat(c.parent()).isEqualTo("Big");
      assertThat(c.primary().line()).isEqualTo(3);
    });
    assertThat(huge.get(0).hasHeader()).isTrue();
    assertThat(huge.get(0).startLine()).isEqualTo(2);
    assertThat(huge.subList(1, huge.size())).noneMatch(Chunk::hasHeader);
    assertOwnChunks(chunks, "small");
  }
}
