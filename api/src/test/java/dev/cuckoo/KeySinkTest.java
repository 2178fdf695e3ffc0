package dev.cuckoo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.testkit.TestSeed;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Every {@link KeySink} method writes its bytes whatever room the buffer has left: at every length
 * around each step where the buffer grows, from its first 64 bytes to keys of several MB, and in
 * fresh threads, whose buffer is new (a new user's keys longer than 64 bytes failed once per
 * thread, so in a pool the failures looked random).
 */
class KeySinkTest {
  /** The growth steps tested: the first buffer's 64 bytes, doubled up to 4 MB. */
  private static final int LARGEST_STEP = 1 << 22;

  /** One way of writing into a sink, with the bytes it must write. */
  @SuppressWarnings("ArrayRecordComponent") // a test case, never compared
  private record Write(String name, BiConsumer<KeySink, SplittableRandom> write, byte[] expected) {}

  private static List<Write> writes(SplittableRandom r) {
    List<Write> writes = new ArrayList<>();
    byte b = (byte) r.nextInt();
    writes.add(new Write("putByte", (s, x) -> s.putByte(b), new byte[] {b}));
    int i = r.nextInt();
    writes.add(new Write("putInt", (s, x) -> s.putInt(i),
        ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(i).array()));
    long l = r.nextLong();
    writes.add(new Write("putLong", (s, x) -> s.putLong(l),
        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(l).array()));
    for (int n : new int[] {0, 1, 3, 7, 8, 9, 60, 64, 65, 200}) {
      byte[] bytes = randomBytes(r, n);
      writes.add(new Write("putBytes(" + n + ")", (s, x) -> s.putBytes(bytes), bytes));
      byte[] wider = randomBytes(r, n + 5);
      writes.add(new Write("putBytes(array, 3, " + n + ")", (s, x) -> s.putBytes(wider, 3, n),
          Arrays.copyOfRange(wider, 3, 3 + n)));
    }
    for (String s : new String[] {"", "a", "ab\u00e9", "\u20ac", "\uD83D\uDE00", "x\uD800y", "key-\u00e9\u20ac\uD83D\uDE00".repeat(9)}) {
      writes.add(new Write("putString(" + s.length() + " chars)", (k, x) -> k.putString(s),
          s.getBytes(StandardCharsets.UTF_8)));
    }
    return writes;
  }

  private static byte[] randomBytes(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt();
    }
    return b;
  }

  /**
   * Fills a new buffer with {@code length} bytes the way an encoder of many small fields does
   * (so that the buffer grows by its own steps), then writes once more.
   */
  private static byte[] prefixThen(byte[] prefix, Write w, SplittableRandom r) {
    KeyBuffer buffer = new KeyBuffer().reset();
    int at = 0;
    while (prefix.length - at >= 64) {
      buffer.putBytes(prefix, at, 64);
      at += 64;
    }
    while (at < prefix.length) {
      buffer.putByte(prefix[at++]);
    }
    w.write().accept(buffer, r);
    return Arrays.copyOf(buffer.array(), buffer.length());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void everyMethodWritesAtEveryLengthAroundEachGrowthStep() {
    SplittableRandom r = TestSeed.random("key-sink-growth");
    byte[] prefix = randomBytes(r, LARGEST_STEP + 1);
    List<Write> writes = writes(r);
    for (int step = 64; step <= LARGEST_STEP; step *= 2) {
      for (int length = Math.max(0, step - 9); length <= step + 1; length++) {
        byte[] before = Arrays.copyOf(prefix, length);
        for (Write w : writes) {
          byte[] key = prefixThen(before, w, r);
          String where = w.name() + " after " + length + " bytes (" + TestSeed.rerun() + ")";
          assertEquals(length + w.expected().length, key.length, where);
          assertArrayEquals(concat(before, w.expected()), key, where);
        }
      }
    }
  }

  @Test
  void keysOfSeveralMegabytesAreWrittenWhole() {
    SplittableRandom r = TestSeed.random("key-sink-large");
    byte[] big = randomBytes(r, 3 << 20);
    KeyBuffer buffer = new KeyBuffer().reset();
    buffer.putLong(7).putBytes(big).putInt(9);
    byte[] expected = ByteBuffer.allocate(big.length + 12).order(ByteOrder.LITTLE_ENDIAN).putLong(7).put(big).putInt(9).array();
    assertArrayEquals(expected, Arrays.copyOf(buffer.array(), buffer.length()));

    String text = "\u00e9t\u00e9-\u20ac-\uD83D\uDE00-".repeat(200_000); // more than 2 MB of UTF-8
    buffer.reset().putByte((byte) 1).putString(text).putByte((byte) 2);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1);
    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    out.write(2);
    assertArrayEquals(out.toByteArray(), Arrays.copyOf(buffer.array(), buffer.length()));

    // After a key that long the buffer starts small again, and still grows.
    buffer.reset();
    for (int i = 0; i < 65; i++) {
      buffer.putByte((byte) i);
    }
    assertEquals(65, buffer.length());
  }

  /** What the new user wrote: keys a little longer than the first buffer, each in a new thread. */
  @Test
  void aTypedFilterTakesLongKeysInEveryNewThread() throws InterruptedException {
    SplittableRandom r = TestSeed.random("key-sink-threads");
    CuckooFilter f = CuckooFilters.create("exact?capacity=1000");
    List<KeyEncoder<byte[]>> encoders = List.of(
        (b, s) -> s.putBytes(b).putLong(7),
        (b, s) -> s.putBytes(b, 0, b.length).putInt(7),
        (b, s) -> {
          for (byte x : b) {
            s.putByte(x);
          }
          s.putByte((byte) 7);
        },
        (b, s) -> s.putLong(7).putString(new String(b, StandardCharsets.ISO_8859_1)));
    for (KeyEncoder<byte[]> encoder : encoders) {
      for (int n : new int[] {57, 60, 63, 64, 65, 100, 127, 128, 129, 5 << 20}) {
        byte[] key = randomBytes(r, n);
        TypedFilter<byte[]> typed = TypedFilter.of(f, encoder);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        boolean[] answers = new boolean[2];
        Thread t = new Thread(() -> {
          try {
            answers[0] = typed.add(key);
            answers[1] = typed.mightContain(key);
          } catch (Throwable e) {
            failed.set(e);
          }
        });
        t.start();
        t.join();
        String where = "key of " + n + " bytes in a new thread (" + TestSeed.rerun() + ")";
        if (failed.get() != null) {
          throw new AssertionError(where + ": " + failed.get(), failed.get());
        }
        assertTrue(answers[0] && answers[1], where);
        assertTrue(typed.remove(key), where + ": removed from this thread");
      }
    }
  }
}
