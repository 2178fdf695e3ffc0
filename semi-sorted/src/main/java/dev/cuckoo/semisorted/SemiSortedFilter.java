package dev.cuckoo.semisorted;

import dev.cuckoo.engine.TableFilter;

/**
 * The semi-sorted cuckoo filter's classes for a heap table without concurrency, named for what
 * its lookup reads ({@code OfWidth16}, and {@code OfAnyWidth} for every other width); every other
 * combination (striped, sharded, mapped) is the engine's ({@link TableFilter#compose}). See
 * {@link SemiSortedProvider} for what the filter promises.
 */
final class SemiSortedFilter {

  /*
   * The cuckoo filter of Fan et al. [1], section 3, with the semi-sorted buckets of section 5.2
   * (SemiSortedTable, SemiSortCodec): a key's hash gives its first bucket and an f-bit
   * fingerprint, its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). The
   * engine's FingerprintStore runs add, count and remove over the table (TableFilter), as for a
   * classic filter: a refused add changes nothing (KickPath walks its path first, and writes
   * nothing when the walk gives up), a FingerprintStash takes the
   * rare key no arrangement holds, and only keys that were added may be removed (section 3.3).
   * The table is sized by CuckooSizing (an even bucket count, no power of two), the same number
   * of buckets as a classic filter of the same capacity, each one bit per slot smaller;
   * the engine writes and reads the file payload (TablePayload).
   *
   * A lookup in a loop of independent lookups over a table larger than the caches costs about
   * as much per instruction as per cache miss (docs/results.md), so a filter without concurrency
   * looks up from the filter to its table and, only while the stash holds anything, the stash,
   * as classic's do (ClassicFilter); the headline width has a class naming its table's final
   * class. A striped filter looks up through its store, which validates what it reads.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  private SemiSortedFilter() {}

  /**
   * @param parts a heap table without concurrency, and what goes with it
   * @return the filter class for its table's class
   */
  static TableFilter of(TableFilter.Parts parts) {
    return parts.table() instanceof Width16Table ? new OfWidth16(parts) : new OfAnyWidth(parts);
  }

  /** 16-bit fingerprints ({@link Width16Table}). */
  static final class OfWidth16 extends TableFilter {
    private final Width16Table table;

    OfWidth16(Parts parts) {
      super(parts);
      this.table = (Width16Table) parts.table();
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

  /** Every other width. */
  static final class OfAnyWidth extends TableFilter {
    private final SemiSortedTable table;

    OfAnyWidth(Parts parts) {
      super(parts);
      this.table = (SemiSortedTable) parts.table();
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }
  }
}
