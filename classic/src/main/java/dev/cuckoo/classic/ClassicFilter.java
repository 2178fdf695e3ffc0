package dev.cuckoo.classic;

import dev.cuckoo.engine.TableFilter;

/**
 * The classic cuckoo filter's classes for a heap table without concurrency, one per table class,
 * named for what its lookup reads ({@code OfByteBuckets}, {@code OfShortBuckets}, {@code
 * OfTwelveBitBuckets}, and {@code OfPackedBuckets} for every other shape); every other
 * combination (striped, sharded, mapped) is the engine's ({@link TableFilter#compose}). See {@link ClassicProvider} for what the filter
 * promises.
 */
final class ClassicFilter {

  /*
   * Fan et al. [1], section 3: a key's hash gives its first bucket i1 and an f-bit fingerprint;
   * its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). The engine's
   * FingerprintStore runs add, count and remove over the table (TableFilter): a refused add
   * changes nothing (KickPath walks its path before it moves anything, and writes nothing when
   * the walk gives up), and only keys that were added may be removed
   * (section 3.3). The table is sized by CuckooSizing (an even bucket count, no power of two).
   *
   * A lookup in a loop of independent lookups over a table larger than the caches costs about
   * as much per instruction as per cache miss: the processor overlaps the misses of as many
   * lookups as its reorder window holds instructions for (docs/results.md, "Repeated JMH
   * lookups"). Every type check on the way to the table counts, so a filter without concurrency
   * is a subclass per table class whose lookup goes from the filter to its table's final class
   * and, only while the stash holds anything, to the stash: no store in between.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  private ClassicFilter() {}

  /**
   * @param parts a heap table without concurrency, and what goes with it
   * @return the filter class for its table's class
   */
  static TableFilter of(TableFilter.Parts parts) {
    if (parts.table() instanceof ShortBucketTable) {
      return new OfShortBuckets(parts);
    }
    if (parts.table() instanceof ByteBucketTable) {
      return new OfByteBuckets(parts);
    }
    if (parts.table() instanceof TwelveBitBucketTable) {
      return new OfTwelveBitBuckets(parts);
    }
    return new OfPackedBuckets(parts);
  }

  /** 16-bit fingerprints in buckets of 4 ({@link ShortBucketTable}). */
  static final class OfShortBuckets extends TableFilter {
    private final ShortBucketTable table;

    OfShortBuckets(Parts parts) {
      super(parts);
      this.table = (ShortBucketTable) parts.table();
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }

    /** {@inheritDoc} Both buckets of every key gathered first, then tested; the stash after. */
    @Override
    protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
      return stashed(table, hashes, n, results, at, table.containsHashes(hashes, n, scratch, results, at));
    }
  }

  /** 8-bit fingerprints in buckets of 4 ({@link ByteBucketTable}). */
  static final class OfByteBuckets extends TableFilter {
    private final ByteBucketTable table;

    OfByteBuckets(Parts parts) {
      super(parts);
      this.table = (ByteBucketTable) parts.table();
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }

    /** {@inheritDoc} Both buckets of every key gathered first, then tested; the stash after. */
    @Override
    protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
      return stashed(table, hashes, n, results, at, table.containsHashes(hashes, n, scratch, results, at));
    }
  }

  /** 12-bit fingerprints in buckets of 4 ({@link TwelveBitBucketTable}), the default width. */
  static final class OfTwelveBitBuckets extends TableFilter {
    private final TwelveBitBucketTable table;

    OfTwelveBitBuckets(Parts parts) {
      super(parts);
      this.table = (TwelveBitBucketTable) parts.table();
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }

    /** {@inheritDoc} Both buckets of every key gathered first, then tested; the stash after. */
    @Override
    protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
      return stashed(table, hashes, n, results, at, table.containsHashes(hashes, n, scratch, results, at));
    }
  }

  /** Every other shape ({@link PackedBucketTable}). */
  static final class OfPackedBuckets extends TableFilter {
    private final PackedBucketTable table;

    OfPackedBuckets(Parts parts) {
      super(parts);
      this.table = (PackedBucketTable) parts.table();
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }

    /** {@inheritDoc} Both buckets of every key gathered first, then tested, where a bucket is one window; the stash after. */
    @Override
    protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
      return stashed(table, hashes, n, results, at, table.containsHashes(hashes, n, scratch, results, at));
    }
  }
}
