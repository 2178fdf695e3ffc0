package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.testkit.PageLossWords;
import dev.cuckoo.testkit.TestSeed;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The storage seam has a third storage, a test's own ({@link PageLossWords}): a filter whose
 * table lies in it answers every operation as the heap filter of its config does, and leaves the
 * same words, for every table class (8- and 16-bit buckets of 4, packed slots in buckets of 1, 2
 * and 8). Nothing of the table's code knows which storage it runs over.
 */
class ThirdStorageTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
    "classic?capacity=3000&fingerprintBits=8",
    "classic?capacity=3000&fingerprintBits=16",
    "classic?capacity=3000&fingerprintBits=12",
    "classic?capacity=3000&fingerprintBits=13&bucketSize=2",
    "classic?capacity=3000&fingerprintBits=7&bucketSize=1",
    "classic?capacity=3000&fingerprintBits=24&bucketSize=8",
  })
  void aTableInATestsStorageAnswersAsOnTheHeap(String config) {
    TableFilter heap = (TableFilter) CuckooFilters.create(config);
    BitStringTable shape = heap.table();
    PageLossWords words = new PageLossWords(shape.words().length());
    BitStringTable table = BucketTable.wrap(shape.bucketCount(), shape.slotsPerBucket(), shape.fingerprintBits(), words);
    CuckooFilter other = TableFilter.compose(heap.spec(), table, new FingerprintStash(FingerprintStash.DEFAULT_SLOTS), 0,
        new ClassicProvider());
    assertEquals(heap.getClass(), other.getClass(), "the lookup class of the table's class");
    SplittableRandom r = TestSeed.random("a third storage: " + config);
    String where = config + ", " + TestSeed.rerun();
    for (int i = 0; i < 20_000; i++) {
      long key = r.nextInt(4_000);
      switch (r.nextInt(4)) {
        case 0, 1 -> assertEquals(heap.add(key), other.add(key), where + ": add " + key);
        case 2 -> assertEquals(heap.remove(key), other.remove(key), where + ": remove " + key);
        default -> assertEquals(heap.count(key), other.count(key), where + ": count " + key);
      }
      long probe = r.nextLong();
      assertEquals(heap.mightContain(probe), other.mightContain(probe), where + ": lookup " + probe);
    }
    assertEquals(heap.size(), other.size(), where);
    for (long w = 0; w < words.length(); w++) {
      assertEquals(shape.words().get(w), words.get(w), where + ": word " + w);
    }
    assertTrue(words.stores() > 0, "every store went through the test's storage");
  }
}
