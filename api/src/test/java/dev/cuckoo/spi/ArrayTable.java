package dev.cuckoo.spi;

import java.util.Arrays;

/**
 * A plain {@link SearchableTable} for tests: one int per slot, slots in order, 8-bit
 * fingerprints. Open to subclasses that watch or pause its searches.
 */
class ArrayTable implements SearchableTable {
  final int[] slots;
  private final long buckets;
  private final int perBucket;
  private final boolean isolated;

  ArrayTable(long buckets, int perBucket) {
    this(buckets, perBucket, false);
  }

  /**
   * @param isolated what {@link #isolatesSlotWrites} says: true is the truth (a slot is an
   *     int of its own), false makes a striped store validate with stripe versions
   */
  ArrayTable(long buckets, int perBucket, boolean isolated) {
    this.buckets = buckets;
    this.perBucket = perBucket;
    this.isolated = isolated;
    this.slots = new int[Math.toIntExact(buckets * perBucket)];
  }

  @Override
  public boolean isolatesSlotWrites() {
    return isolated;
  }

  @Override
  public long bucketCount() {
    return buckets;
  }

  @Override
  public int slotsPerBucket() {
    return perBucket;
  }

  @Override
  public int fingerprintAt(long bucket, int slot) {
    return slots[(int) bucket * perBucket + slot];
  }

  @Override
  public boolean insert(long bucket, int fingerprint) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] == 0) {
        slots[base + s] = fingerprint;
        return true;
      }
    }
    return false;
  }

  @Override
  public int evict(long bucket, int slot, int fingerprint) {
    int i = (int) bucket * perBucket + slot;
    int old = slots[i];
    slots[i] = fingerprint;
    return old;
  }

  @Override
  public void replace(long bucket, int fingerprint, int replacement) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] == fingerprint) {
        slots[base + s] = replacement;
        return;
      }
    }
    throw new IllegalStateException("bucket " + bucket + " lacks " + fingerprint);
  }

  @Override
  public long bucketIndex(long keyHash) {
    return PartialKeyHashing.bucketIndex(keyHash, buckets);
  }

  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, 8);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return holds(bucket1, fingerprint) || holds(bucket2, fingerprint);
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    int n = 0;
    for (long b : new long[] {bucket1, bucket2}) {
      for (int s = 0; s < perBucket; s++) {
        n += fingerprintAt(b, s) == fingerprint ? 1 : 0;
      }
    }
    return n;
  }

  @Override
  public boolean remove(long bucket, int fingerprint) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] == fingerprint) {
        slots[base + s] = 0;
        return true;
      }
    }
    return false;
  }

  @Override
  public void clear() {
    Arrays.fill(slots, 0);
  }

  boolean holds(long bucket, int fingerprint) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] == fingerprint) {
        return true;
      }
    }
    return false;
  }

  /** @return each bucket's fingerprints, sorted: the table as a multiset per bucket */
  int[] contents() {
    int[] c = slots.clone();
    for (int b = 0; b < buckets; b++) {
      Arrays.sort(c, b * perBucket, (b + 1) * perBucket);
    }
    return c;
  }
}
