package dev.prismindex.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.chunk.ChunkLimits;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.spi.Chunk;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ChunkerTest {

  private static final Chunker CHUNKER = new Chunker();

  @AfterAll
  static void close() {
    CHUNKER.close();
  }

  private static List<String> symbols(List<Chunk> chunks) {
    return chunks.stream().flatMap(c -> c.symbols().stream()).map(Chunk.Symbol::name).toList();
  }

  private static String method(String name, int lines) {
    return "  void " + name + "() {\n"
        + IntStream.range(0, lines).mapToObj(i -> "    call" + i + "(\"" + name + "\");\n")
            .collect(Collectors.joining())
        + "  }\n";
  }

  @Test
  void javaMethodsBecomeSymbolChunksAndBigOnesAreWindowed() {
    String src = "package p;\n\nclass Big {\n" + method("small", 5) + method("medium", 25)
        + method("huge", 150) + "}\n";
    List<Chunk> chunks = CHUNKER.chunk(src, "java");
    assertThat(symbols(chunks)).contains("small", "medium", "huge");
    assertThat(chunks).allSatisfy(c -> {
      assertThat(c.endLine() - c.startLine() + 1).isLessThanOrEqualTo(ChunkLimits.MAX_LINES);
      assertThat(c.text().length()).isLessThanOrEqualTo(ChunkLimits.MAX_CHARS);
    });
    Chunk hugeStart = chunks.stream()
        .filter(c -> c.symbols().stream().anyMatch(s -> s.name().equals("huge"))).findFirst()
        .orElseThrow();
    long hugeChunks = chunks.stream()
        .filter(c -> c.symbols().stream().anyMatch(s -> s.name().equals("huge"))).count();
    assertThat(hugeChunks).isGreaterThan(2);
    assertThat(hugeStart.symbols().get(hugeStart.symbols().size() - 1).line())
        .isEqualTo(src.lines().toList().indexOf("  void huge() {") + 1);
  }

  @Test
  void everyGrammarFindsItsDefinitions() {
    assertThat(symbols(CHUNKER.chunk("class A:\n    def run(self):\n        pass\n\n"
        + "@decorator\ndef helper():\n    return 1\n", "python")))
        .contains("A", "run", "helper");
    assertThat(symbols(CHUNKER.chunk("export class Svc {\n  go(): void {}\n}\n"
        + "const arrow = (x: number) => x * 2;\nfunction plain() {}\n"
        + "interface Shape { w: number }\n", "typescript")))
        .contains("Svc", "go", "arrow", "plain", "Shape");
    assertThat(symbols(CHUNKER.chunk("const C = () => <div/>;\nfunction F() { return 1; }\n",
        "tsx"))).contains("C", "F");
    assertThat(symbols(CHUNKER.chunk("class K { m() {} }\nconst f = function() {};\n",
        "javascript"))).contains("K", "m", "f");
    assertThat(symbols(CHUNKER.chunk("package main\n\ntype Point struct { X int }\n\n"
        + "func (p Point) Len() int { return 0 }\n\nfunc main() {}\n", "go")))
        .contains("Point", "Len", "main");
    assertThat(symbols(CHUNKER.chunk("struct S { a: u8 }\nimpl S {\n    fn new() -> S { S { a: 0 } }\n}\n"
        + "trait T {}\nenum E { A }\nfn free() {}\n", "rust")))
        .contains("S", "new", "T", "E", "free");
  }

  @Test
  void otherLanguagesAndBrokenTextFallBackToLineWindows() {
    String text = IntStream.range(0, 200).mapToObj(i -> "line " + i).collect(
        Collectors.joining("\n"));
    List<Chunk> chunks = CHUNKER.chunk(text, "text");
    assertThat(chunks).hasSizeGreaterThan(3);
    assertThat(chunks.get(0).startLine()).isEqualTo(1);
    assertThat(chunks.get(chunks.size() - 1).endLine()).isEqualTo(200);
    assertThat(chunks).allSatisfy(c -> assertThat(c.symbols()).isEmpty());
    // A lone surrogate cannot go through tree-sitter: line windows instead, no exception.
    assertThat(CHUNKER.chunk("class A {\n  void \ud800x() {}\n}\n", "java")).isNotEmpty();
    // A syntax error still chunks.
    assertThat(CHUNKER.chunk("class {{{{ broken (((\n", "java")).isNotEmpty();
    assertThat(CHUNKER.chunk("", "java")).isEmpty();
    assertThat(CHUNKER.chunk("\n\n   \n", "python")).isEmpty();
  }

  @Test
  void tinyPiecesAreMergedButTwoDefinitionsNeverShareAChunk() {
    String src = "class G {\n  int a() { return 1; }\n  int b() { return 2; }\n"
        + "  int c() { return 3; }\n}\n";
    List<Chunk> chunks = CHUNKER.chunk(src, "java");
    assertThat(chunks).extracting(c -> c.primary().name()).containsExactly("G", "a", "b", "c");
    assertThat(chunks).allSatisfy(c -> assertThat(c.symbols()).hasSize(1));
    // The closing brace, a tiny piece of no definition, joins the last method.
    assertThat(chunks.get(3).endLine()).isEqualTo(5);
    // Plain text: tiny windows next to each other are merged.
    assertThat(CHUNKER.chunk("a\nb\n", "text")).hasSize(1);
  }
}
