package dev.cuckoo.semisorted;

import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.TableWords;

/**
 * The headline shape, 16-bit fingerprints in 60-bit buckets, searched as {@link Width8To15Table}
 * does but with its lane layout, bucket width and fingerprint width as constants.
 */
final class Width16Table extends SemiSortedTable {
  private static final long BUCKET_BITS = 60;
  private static final long LO = 0x0000_0010_0100_1001L;
  private static final long HI = LO << 11;
  private static final long LOW = LO * 0x7FF;
  private static final long[] LANES = SemiSortCodec.laneNibbles(12, false);

  Width16Table(long bucketCount, TableWords words) {
    super(bucketCount, 16, words);
  }

  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, 16);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return Width8To15Table.contains(words, LANES, bucket1 * BUCKET_BITS, bucket2 * BUCKET_BITS, fingerprint, LO, HI);
  }

  /**
   * Looks up a block of key hashes in three passes, as classic's tables do: both buckets of
   * every key, their windows gathered in one loop of loads ({@link TableWords#gatherWindows}),
   * the tests.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many, at most {@code scratch.length / 2}
   * @param scratch at least {@code 2n} longs
   * @param results where answer {@code i} goes, at {@code at + i}
   * @param at where the block's answers start
   * @return how many are true
   */
  @Override
  public int containsHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
    bucketOffsets(hashes, n, scratch);
    words.gatherWindows(scratch, 2 * n);
    int found = 0;
    for (int i = 0; i < n; i++) {
      boolean r = Width8To15Table.containsIn(scratch[2 * i], scratch[2 * i + 1], LANES, fingerprint(hashes[i]), LO, HI);
      results[at + i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    return Width8To15Table.count(words, LANES, bucket1 * BUCKET_BITS, bucket2 * BUCKET_BITS, fingerprint, LO, HI, LOW);
  }
}
