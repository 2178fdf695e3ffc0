package dev.cuckoo.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cuckoo.testkit.TestSeed;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The combine operator against {@link CRC32C} itself, over random messages and split points. */
class Crc32cCombineTest {
  private static int crc(byte[] bytes, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  @Test
  void theCrcOfAConcatenationIsItsPartsCombined() {
    SplittableRandom r = TestSeed.random("crc32c combine");
    for (int round = 0; round < 500; round++) {
      byte[] message = new byte[r.nextInt(0, 5000)];
      r.nextBytes(message);
      int split = r.nextInt(0, message.length + 1);
      int whole = crc(message, 0, message.length);
      int combined = Crc32cCombine.combine(crc(message, 0, split), crc(message, split, message.length),
          message.length - split);
      assertEquals(whole, combined, "a message of " + message.length + " bytes split at " + split + "; "
          + TestSeed.rerun());
      assertEquals(whole, Crc32cCombine.combineShifted(crc(message, 0, split), crc(message, split, message.length),
          Crc32cCombine.shiftFor(message.length - split)), TestSeed.rerun());
    }
  }

  @Test
  void theCrcOfZerosIsComputedWithoutThem() {
    for (int n : new int[] {0, 1, 2, 3, 7, 8, 63, 64, 4096, 65536, 1 << 20, 3_000_001}) {
      assertEquals(crc(new byte[n], 0, n), Crc32cCombine.ofZeros(n), n + " zeros");
    }
  }
}
