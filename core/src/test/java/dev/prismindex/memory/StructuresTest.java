package dev.prismindex.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Round trips of the compact structures, on seeded random data. */
class StructuresTest {

  private static final long SEED = Long.getLong("prism.test.seed", System.nanoTime());

  @Test
  void pathCodecRoundTripsAndOrdersLikeStrings() {
    Random random = new Random(SEED);
    char[] alphabet = {'a', 'Z', '/', '.', '-', 'é', '中', '\uFFFF', '\uD83D', '\uDE00', '\uDC00',
        '\uD801', '\uE000', '0'};
    String previous = "";
    for (int i = 0; i < 5_000; i++) {
      StringBuilder text = new StringBuilder();
      for (int c = random.nextInt(12); c > 0; c--) {
        text.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String s = text.toString();
      byte[] bytes = new byte[PathCodec.encodedLength(s)];
      assertThat(PathCodec.encode(s, bytes, 0)).as("seed %d", SEED).isEqualTo(bytes.length);
      assertThat(PathCodec.decode(bytes, 0, bytes.length)).as("seed %d", SEED).isEqualTo(s);
      assertThat(Integer.signum(PathCodec.compare(bytes, 0, bytes.length, previous)))
          .as("seed %d: %s vs %s", SEED, s, previous)
          .isEqualTo(Integer.signum(s.compareTo(previous)));
      previous = s;
    }
  }

  @Test
  void postingsDecodeRetainAndUnionWhatWasWritten() {
    Random random = new Random(SEED);
    int docCount = 1 + random.nextInt(3_000);
    int keys = 200;
    int[][] lists = new int[keys][];
    PostingsWriter writer = new PostingsWriter(docCount, 4);
    for (int k = 0; k < keys; k++) {
      TreeSet<Integer> docs = new TreeSet<>();
      double density = random.nextInt(4) == 0 ? random.nextDouble() : random.nextDouble() * 0.05;
      for (int d = 0; d < docCount; d++) {
        if (random.nextDouble() < density) {
          docs.add(d);
        }
      }
      lists[k] = docs.stream().mapToInt(Integer::intValue).toArray();
      writer.add(Postings.key(k, k % 7, 3), lists[k], lists[k].length);
    }
    Postings postings = writer.build();
    int[] buffer = new int[docCount];
    int[] probe = new int[docCount];
    for (int d = 0; d < docCount; d++) {
      probe[d] = d;
    }
    for (int k = 0; k < keys; k++) {
      if (lists[k].length == 0) {
        assertThat(postings.find(Postings.key(k, k % 7, 3))).isEqualTo(-1);
        continue;
      }
      int index = postings.find(Postings.key(k, k % 7, 3));
      assertThat(index).as("seed %d", SEED).isNotNegative();
      int n = postings.decode(index, buffer);
      assertThat(Arrays.copyOf(buffer, n)).as("seed %d key %d", SEED, k).isEqualTo(lists[k]);
      int[] all = probe.clone();
      int kept = postings.retain(index, all, docCount);
      assertThat(Arrays.copyOf(all, kept)).as("seed %d key %d", SEED, k).isEqualTo(lists[k]);
      long[] bits = new long[(docCount + 63) >>> 6];
      postings.orInto(index, bits);
      assertThat(Arrays.stream(bits).map(Long::bitCount).sum()).isEqualTo(lists[k].length);
    }
    assertThat(postings.rangeStart(Postings.key(10, 0, 0))).isEqualTo(postings.rangeEnd(
        Postings.key(9, 0xFFFF, 0xFFFF)));
  }
}
