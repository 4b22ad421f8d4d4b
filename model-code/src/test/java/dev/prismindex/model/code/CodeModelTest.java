package dev.prismindex.model.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model format and the embedding arithmetic, on small models written here. */
class CodeModelTest {

  /** A model of 4 dimensions over three tokens; weights differ per side. */
  static byte[] small(int tables) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(CodeModel.MAGIC);
    out.writeInt(CodeModel.FORMAT);
    string(out, "test-model");
    string(out, CodeTokenizer.VERSION);
    out.writeInt(4);
    out.writeInt(3);
    out.writeInt(tables);
    out.writeInt(2);
    for (String t : List.of("pars", "json", "valu")) {
      string(out, t);
    }
    for (float w : new float[] {1f, 2f, 1f, 1f, 1f, 0.5f}) { // code, then query weights
      out.writeFloat(w);
    }
    for (int table = 0; table < tables; table++) {
      for (float s : new float[] {0.5f, 0.25f, 1f}) {
        out.writeFloat(s);
      }
      out.write(new byte[] {2, 0, 0, 0, 0, 4, 0, 0, 0, 0, (byte) -1, 0});
    }
    return bytes.toByteArray();
  }

  private static void string(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeShort(b.length);
    out.write(b);
  }

  @Test
  void embedsAsTheWeightedSumAtUnitLength() throws IOException {
    CodeModel m = CodeModel.read(new ByteArrayInputStream(small(1)));
    assertThat(m.vocabulary()).isEqualTo(3);
    // Code side: pars (1 x 0.5 x [2,0,0,0]) + json (2 x 0.25 x [0,4,0,0]) = [1, 2, 0, 0].
    float[] code = m.embed("parseJson", false);
    assertThat(code[0]).isCloseTo((float) (1 / Math.sqrt(5)), org.assertj.core.data.Offset.offset(1e-6f));
    assertThat(code[1]).isCloseTo((float) (2 / Math.sqrt(5)), org.assertj.core.data.Offset.offset(1e-6f));
    // Query side: pars (1 x 0.5 x 2) + json (1 x 0.25 x 4) = [1, 1, 0, 0].
    float[] query = m.embed("parse json", true);
    assertThat(query[0]).isCloseTo(query[1], org.assertj.core.data.Offset.offset(1e-6f));
    assertThat(norm(query)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    // Unknown tokens are skipped; nothing known: the zero vector.
    assertThat(m.embed("nothing here", false)).containsOnly(0f);
    // The code side stops at the token cap (2): the third token, valu, is not read.
    assertThat(m.embed("parse json value", false)).containsExactly(code);
  }

  @Test
  void readsTwoTables() throws IOException {
    CodeModel m = CodeModel.read(new ByteArrayInputStream(small(2)));
    assertThat(m.queryRows).isNotSameAs(m.codeRows).containsExactly(m.codeRows);
  }

  @Test
  void refusesDamagedModels() throws IOException {
    byte[] good = small(1);
    byte[] badMagic = good.clone();
    badMagic[0] = 'X';
    assertThatThrownBy(() -> CodeModel.read(new ByteArrayInputStream(badMagic)))
        .hasMessageContaining("magic");
    assertThatThrownBy(() -> CodeModel.read(new ByteArrayInputStream(
        Arrays.copyOf(good, good.length - 3)))).isInstanceOf(IOException.class);
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThatThrownBy(() -> CodeModel.read(new ByteArrayInputStream(longer)))
        .hasMessageContaining("after its tables");
    byte[] version = good.clone();
    version[11] = 9;
    assertThatThrownBy(() -> CodeModel.read(new ByteArrayInputStream(version)))
        .hasMessageContaining("format 9");
  }

  private static double norm(float[] v) {
    double s = 0;
    for (float f : v) {
      s += f * f;
    }
    return Math.sqrt(s);
  }
}
