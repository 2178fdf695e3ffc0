package dev.cuckoo.engine.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.ShardRouter;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.testkit.FileFaultContractTest;
import dev.cuckoo.testkit.HeapSizeChild;
import dev.cuckoo.testkit.Filters;
import dev.cuckoo.testkit.MachineCrashContractTest;
import dev.cuckoo.testkit.MappedFilterContractTest;
import dev.cuckoo.testkit.ProcessDeathContractTest;
import dev.cuckoo.testkit.ProcessKillContractTest;
import dev.cuckoo.testkit.ShardedFilterContractTest;
import dev.cuckoo.testkit.SoakRun;
import dev.cuckoo.testkit.StripedConcurrencyContractTest;
import dev.cuckoo.testkit.TestSeed;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every contract suite of the api and engine test kits, for a table-based variant (one whose
 * provider extends {@code TableProvider}), as one abstract test: a variant's test subclasses it
 * once, names the variant, says how large its tables are and what one holding a single
 * fingerprint looks like, and lists the configs each suite runs; each suite then runs as a
 * {@link Nested} class of that subclass (JUnit finds nested classes a superclass declares):
 *
 * <ul>
 *   <li>{@link OnTheHeap}: the API's whole contract ({@link TableFilterContractTest}) over
 *       {@link #heapConfigs}, and {@link InMappedFiles} the same over {@link #fileConfigs} in
 *       mapped files;
 *   <li>{@link MappedFiles}: open, reopen, convert, two writers refused, a full disk ({@link
 *       MappedFilterContractTest});
 *   <li>{@link ProcessDeath}, {@link ProcessKill}, {@link MachineCrash} and {@link FileFaults}:
 *       a writer cut at every write, SIGKILLed child JVMs, power cuts, and faults at each write;
 *   <li>{@link Shards} and {@link Striped}: tables built in shards and shared between threads,
 *       with the router and option checks every table variant shares;
 *   <li>{@link HostilePayloads}: the table payload against lying files ({@link
 *       TablePayloadContractTest});
 *   <li>{@link CapacityPromise}: the sizing promise at many capacities ({@link
 *       CapacityPromiseContractTest});
 *   <li>{@link Soak}, tagged {@code soak} (run with {@code -Psoak}): 10^7 operations per config
 *       against the multiset model.
 * </ul>
 *
 * <p>Surefire reports each suite under this class's name ({@code
 * TableVariantContractTest$ProcessKill}); to run one suite of one variant, select the subclass and
 * filter by the suite: {@code -Dtest='ClassicContractTest#none,TableVariantContractTest$ProcessKill#*'}.
 * Seeds come from {@link TestSeed}, keyed by what each suite checks, not by the class that runs it.
 */
public abstract class TableVariantContractTest {

  /** @return the variant's name, as a config string starts */
  protected abstract String variant();

  /**
   * @return configs for the API's contract on the heap: every table class, bucket size and
   *     width that takes different code, a few that vary the hash, seed, maxKicks and targetFpp,
   *     striped and sharded ones
   */
  protected abstract List<String> heapConfigs();

  /** @return configs for the API's contract in mapped files: a shape of each table class, striped, sharded */
  protected abstract List<String> fileConfigs();

  /** @return configs without capacity for {@link MappedFilterContractTest}: every shape of the variant */
  protected abstract List<String> mappedShapes();

  /** @return configs for {@link ProcessDeathContractTest}, with the small capacities it fills */
  protected abstract List<String> deathConfigs();

  /** @return configs for {@link ProcessKillContractTest} */
  protected abstract List<String> killConfigs();

  /** @return configs with {@code durability=machine} for {@link MachineCrashContractTest} */
  protected abstract List<String> crashConfigs();

  /** @return configs for {@link FileFaultContractTest} */
  protected abstract List<String> faultConfigs();

  /** @return configs without capacity and shards, to build in shards ({@link ShardedFilterContractTest#shapes}) */
  protected abstract List<String> shardedShapes();

  /** @return a shape that fills a shard's stash after a few hundred keys ({@link ShardedFilterContractTest}) */
  protected abstract String stashFillingShape();

  /** @return config options to share between threads ({@link StripedConcurrencyContractTest#shapes}) */
  protected abstract List<String> stripedShapes();

  /**
   * @param spec a resolved spec of the variant
   * @param buckets its bucket count
   * @return the longs its table takes in the payload ({@link TablePayloadContractTest#tableWords})
   */
  protected abstract long tableWords(FilterSpec spec, long buckets);

  /** @return a config whose table takes gigabytes ({@link TablePayloadContractTest#hugeConfig}) */
  protected abstract String hugeConfig();

  /** @return a config whose table takes 1 to 2 GiB ({@link TablePayloadContractTest#truncatedConfig}) */
  protected abstract String truncatedConfig();

  /** @return a config of a few thousand keys whose table ends mid-word ({@link TablePayloadContractTest#smallConfig}) */
  protected abstract String smallConfig();

  /**
   * @param words the longs the table of {@link #smallConfig} takes
   * @return a table of {@link #smallConfig} holding exactly one fingerprint
   */
  protected abstract long[] tableWithOneFingerprint(int words);

  /** @return the widths whose capacity promise to check, in buckets of 4 */
  protected abstract int[] capacityWidths();

  /**
   * @param bits the fingerprint width
   * @return the most bits per key a filter of buckets of 4 may take at capacity, in all
   */
  protected abstract double bitsPerKeyBound(int bits);

  /** @return the configs the soak runs 10^7 operations on */
  protected abstract List<String> soakConfigs();

  /**
   * @param i the index of a config in the list of {@link #heapConfigs}
   * @return a capacity from 1,500 to 5,997 that cycles with {@code i}: not a multiple of anything
   *     in particular, so that bucket counts are odd multiples of small numbers and tables end
   *     in the middle of a word
   */
  protected static long spreadCapacity(int i) {
    return 1_500 + 1_499L * (i % 4);
  }

  /** The API's contract over tables on the heap. */
  @Nested
  class OnTheHeap extends TableFilterContractTest {
    @Override
    protected String variant() {
      return TableVariantContractTest.this.variant();
    }

    @Override
    protected List<String> configs() {
      return heapConfigs();
    }
  }

  /**
   * The API's contract over tables mapped from files ({@link CuckooFilters#createFile}): the same
   * table classes as on the heap, over the other storage.
   */
  @Nested
  class InMappedFiles extends OnTheHeap {
    @Override
    protected boolean inFiles() {
      return true;
    }

    @Override
    protected List<String> configs() {
      return fileConfigs();
    }
  }

  /** Mapped files opened, reopened, converted, shared and refused. */
  @Nested
  class MappedFiles extends MappedFilterContractTest {
    @Override
    protected List<String> shapes() {
      return mappedShapes();
    }
  }

  /** A writer's process dying at any write it makes to its file. */
  @Nested
  class ProcessDeath extends ProcessDeathContractTest {
    @Override
    protected List<String> configs() {
      return deathConfigs();
    }
  }

  /** Writers killed at random moments. */
  @Nested
  class ProcessKill extends ProcessKillContractTest {
    @Override
    protected List<String> configs() {
      return killConfigs();
    }
  }

  /** Power cuts under machine-durable files. */
  @Nested
  class MachineCrash extends MachineCrashContractTest {
    @Override
    protected List<String> configs() {
      return crashConfigs();
    }
  }

  /** A full disk, an I/O error or a permission taken away at any write. */
  @Nested
  class FileFaults extends FileFaultContractTest {
    @Override
    protected List<String> configs() {
      return faultConfigs();
    }
  }

  /** Tables built in shards and joined, and what every table variant's shards share. */
  @Nested
  class Shards extends ShardedFilterContractTest {
    @Override
    protected List<String> shapes() {
      return shardedShapes();
    }

    @Override
    protected String stashFillingShape() {
      return TableVariantContractTest.this.stashFillingShape();
    }

    /** The router in the API names the shard the engine's layout does. */
    @Test
    void theRoutersShardIsTheLayoutsShard() {
      SplittableRandom r = TestSeed.random("router");
      for (int shards : new int[] {1, 2, 7, 4096, 1 << 20}) {
        ShardRouter router = CuckooFilters.keyHasher(variant() + "?capacity=10000000&shards=" + shards);
        assertEquals(shards, router.shards());
        for (int i = 0; i < 10_000; i++) {
          long h = i < 3 ? new long[] {0, -1, Long.MIN_VALUE}[i] : r.nextLong();
          assertEquals(PartialKeyHashing.bucketIndex(h, shards), router.shardOf(h), "hash " + h + TestSeed.rerun());
        }
        byte[] key = {1, 2, 3};
        assertEquals(CuckooFilters.hash("xxh3").hashBytes(key, 0, 3), router.hash(key));
      }
    }

    /** A fingerprint means something only at its bucket, and shards move the alternate: no merge across. */
    @Test
    void filtersOfAnotherShardCountDoNotMergeEvenWithAsManyBuckets() {
      String shape = variant() + "?fingerprintBits=12&bucketSize=4&capacity=";
      long buckets = CuckooSizing.bucketCount(100_000, 4, 12, 4);
      long capacity = (long) (buckets * 4 * CuckooSizing.designLoad(4));
      while (CuckooSizing.bucketCount(capacity, 4, 12) < buckets) {
        capacity++;
      }
      while (CuckooSizing.bucketCount(capacity, 4, 12) > buckets) {
        capacity--;
      }
      assertEquals(buckets, CuckooSizing.bucketCount(capacity, 4, 12));
      CuckooFilter plain = CuckooFilters.create(shape + capacity);
      CuckooFilter sharded = CuckooFilters.create(shape + "100000&shards=4");
      assertEquals(plain.slots(), sharded.slots(), "as many buckets");
      for (int k = 0; k < 1000; k++) {
        sharded.add("key-" + k);
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plain.addAll(sharded));
      assertTrue(e.getMessage().contains("shards"), e.getMessage());
      assertEquals(0, plain.size());
    }
  }

  /** Filters with {@code concurrency=striped} shared by writer and reader threads, and the option itself. */
  @Nested
  class Striped extends StripedConcurrencyContractTest {
    @Override
    protected String variant() {
      return TableVariantContractTest.this.variant();
    }

    @Override
    protected List<String> shapes() {
      return stripedShapes();
    }

    @Test
    void theOptionIsCheckedKeptInTheSpecAndReadBackFromTheFile() {
      String variant = variant();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CuckooFilters.create(variant + "?capacity=1000&concurrency=locked"));
      assertEquals("concurrency=locked is out of range for variant " + variant + ": none, threadsafe, striped",
          e.getMessage());
      CuckooFilter f = CuckooFilters.create(variant + "?capacity=1000&concurrency=striped");
      assertEquals(Concurrency.STRIPED, f.spec().concurrency().orElseThrow());
      assertEquals(f.spec(), CuckooFilters.create(variant + "?capacity=1000&concurrency=threadsafe").spec());
      assertEquals(f.spec(), CuckooFilters.create(f.spec().toString()).spec());
      f.add("x");
      assertEquals(f.spec(), Filters.roundTrip(f).spec());
      assertEquals(Concurrency.NONE, CuckooFilters.create(variant + "?capacity=1000").spec().concurrency().orElseThrow());
    }
  }

  /** The table payload against well-formed but lying files. */
  @Nested
  class HostilePayloads extends TablePayloadContractTest {
    @Override
    protected long tableWords(FilterSpec spec, long buckets) {
      return TableVariantContractTest.this.tableWords(spec, buckets);
    }

    @Override
    protected String hugeConfig() {
      return TableVariantContractTest.this.hugeConfig();
    }

    @Override
    protected String truncatedConfig() {
      return TableVariantContractTest.this.truncatedConfig();
    }

    @Override
    protected String smallConfig() {
      return TableVariantContractTest.this.smallConfig();
    }

    @Override
    protected long[] tableWithOneFingerprint(int words) {
      return TableVariantContractTest.this.tableWithOneFingerprint(words);
    }
  }

  /** Filters of buckets of 4 take their capacity, within {@link #bitsPerKeyBound} bits per key. */
  @Nested
  class CapacityPromise extends CapacityPromiseContractTest {
    @Override
    protected String config(long capacity, int bits, long seed) {
      return variant() + "?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=4&seed=" + seed;
    }

    @Override
    protected double bitsPerKeyBound(int bits) {
      return TableVariantContractTest.this.bitsPerKeyBound(bits);
    }

    @Override
    protected int[] widthsSource() {
      return capacityWidths();
    }
  }

  /**
   * 10^7 random operations on each of {@link #soakConfigs} against the multiset model ({@link
   * SoakRun}). Run with {@code ./mvnw -B verify -Psoak}; rerun a seed with {@code
   * -Dcuckoo.test.seed=N}.
   */
  @Nested
  @Tag("soak")
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class Soak {
    List<String> configs() {
      return soakConfigs();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void tenMillionOperationsKeepTheContract(String config) {
      System.out.println(new SoakRun(config, SoakRun.OPERATIONS).run());
    }
  }

  /**
   * A filter takes its own size: for each of {@link #capacityWidths}, a filter whose table is N
   * bytes (N past one direct read of a payload, 64 MiB) is created, and read back from its file,
   * in a child JVM whose heap is N + 64 MiB; a heap of half that refuses it, naming its size and
   * the heap's maximum, and the config the refusal says fits is created in that same heap.
   */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class HeapSize {
    static final long MIB = 1 << 20;

    List<Integer> widths() {
      return java.util.Arrays.stream(capacityWidths()).boxed().toList();
    }

    @ParameterizedTest(name = "{0} bits")
    @MethodSource("widths")
    void aTableOfNBytesIsCreatedAndReadInAHeapOfNPlus64MiB(int bits, @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
        throws Exception {
      // About 80 MiB of table: past the 64 MiB a payload is read in at once without asking.
      String config = variant() + "?capacity=" + (80 * MIB * 8 * 95 / 100 / bits) + "&fingerprintBits=" + bits;
      java.nio.file.Path file = dir.resolve("f.cuckoo");
      HeapSizeChild.Outcome made = HeapSizeChild.run(1024 * MIB, "make", config, file.toString());
      assertEquals(0, made.status(), made.output());
      long n = made.figure("size");
      assertTrue(n > 64 * MIB, config + " takes " + n + " bytes");

      HeapSizeChild.Outcome created = HeapSizeChild.run(n + 64 * MIB, "create", config);
      assertEquals(0, created.status(), created.output());
      assertEquals(n, created.figure("size"));
      HeapSizeChild.Outcome read = HeapSizeChild.run(n + 64 * MIB, "read", file.toString());
      assertEquals(0, read.status(), read.output());
      assertEquals(n, read.figure("size"));

      HeapSizeChild.Outcome refused = HeapSizeChild.run(n / 2, "refused", config);
      assertEquals(0, refused.status(), refused.output());
      String message = refused.output();
      java.util.regex.Matcher needs = java.util.regex.Pattern.compile("needs (\\d+) bytes").matcher(message);
      assertTrue(needs.find(), message);
      long stated = Long.parseLong(needs.group(1));
      assertEquals(n, stated, message);
      assertTrue(message.contains("the heap's maximum of " + refused.figure("max") + " bytes"), message);
      assertTrue(refused.figure("size") <= refused.figure("max") / 2, message);
    }
  }
}
