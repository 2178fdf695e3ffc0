package dev.cuckoo.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.testkit.AllocationMeter;
import dev.cuckoo.testkit.Payloads;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class PayloadInputTest {

  private static PayloadInput payload(byte[] bytes, long declared) {
    return Payloads.input(bytes, declared);
  }

  private static byte[] longs(long... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 8);
    for (long v : values) {
      b.putLong(v);
    }
    return b.array();
  }

  @Test
  void readLongArrayReadsIntoALongerZeroFilledArray() throws IOException {
    PayloadInput in = payload(longs(1, -2, 3, 4), 32);
    assertArrayEquals(new long[] {1, -2, 3, 0, 0}, in.readLongArray(3, 5, "three longs"));
    assertEquals(8, in.remaining());
    assertArrayEquals(new long[] {4}, in.readLongArray(1, 1, "one long"));
    assertArrayEquals(new long[] {0, 0}, in.readLongArray(0, 2, "none"));
    assertThrows(IllegalArgumentException.class, () -> in.readLongArray(2, 1, "too few"));
  }

  @Test
  void aPayloadShorterThanTheArrayIsRejectedBeforeAllocating() {
    PayloadInput in = payload(longs(1, 2), 16);
    long before = AllocationMeter.threadAllocatedBytes();
    CorruptFilterException e =
        assertThrows(CorruptFilterException.class, () -> in.readLongArray(1 << 30, 1 << 30, "a huge table"));
    assertTrue(AllocationMeter.threadAllocatedBytes() - before < 1 << 20);
    assertTrue(e.getMessage().contains("a huge table"), e.getMessage());
  }

  @Test
  void aForgedPayloadLengthCostsAtMostWhatArrivesPlusTheEagerPart() {
    // The envelope declares 8 GiB of payload, so requireRemaining cannot tell; the stream ends
    // after a few bytes. Allocation must follow the bytes that arrive.
    int count = (1 << 30) - 64;
    PayloadInput in = payload(new byte[4096], 8L * count);
    long before = AllocationMeter.threadAllocatedBytes();
    assertThrows(CorruptFilterException.class, () -> in.readLongArray(count, count, "a forged table"));
    long allocated = AllocationMeter.threadAllocatedBytes() - before;
    assertTrue(allocated < (80L << 20), allocated + " bytes allocated for 4 KiB of input");
  }

  @Test
  void largeArraysGrowAsTheBytesArrive() throws IOException {
    int count = (1 << 23) + 1000; // past the eager part: read in growing steps
    ByteBuffer b = ByteBuffer.allocate(count * 8);
    for (int i = 0; i < count; i++) {
      b.putLong(i * 0x9E3779B97F4A7C15L);
    }
    long[] a = payload(b.array(), b.capacity()).readLongArray(count, count + 1, "a large table");
    assertEquals(count + 1, a.length);
    for (int i = 0; i < count; i++) {
      if (a[i] != i * 0x9E3779B97F4A7C15L) {
        assertEquals(i * 0x9E3779B97F4A7C15L, a[i], "long " + i);
      }
    }
    assertEquals(0, a[count]);
  }
}
