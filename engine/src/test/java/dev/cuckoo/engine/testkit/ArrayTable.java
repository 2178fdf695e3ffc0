package dev.cuckoo.engine.testkit;

import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.PartialKeyHashing;
import java.util.Arrays;

/**
 * A plain {@link CuckooTable} for tests: one long per slot, slots in order, keys placed with
 * 8-bit fingerprints (tests may store wider ones, up to 16 bits). An entry is a fingerprint in
 * its low 16 bits and a value above them ({@code value << 16 | fingerprint}), so tests can check
 * that values move with their fingerprints; entries without a value are their fingerprint. Open
 * to subclasses that watch or pause its searches.
 */
public class ArrayTable implements CuckooTable {
  /** The slots, bucket by bucket: open to tests that corrupt or inspect them. */
  public final long[] slots;
  private final long buckets;
  private final int perBucket;
  private final boolean isolated;

  public ArrayTable(long buckets, int perBucket) {
    this(buckets, perBucket, false);
  }

  /**
   * @param isolated what {@link #isolatesSlotWrites} says: true is the truth (a slot is a long
   *     of its own), false makes a striped store validate with stripe versions
   */
  public ArrayTable(long buckets, int perBucket, boolean isolated) {
    this.buckets = buckets;
    this.perBucket = perBucket;
    this.isolated = isolated;
    this.slots = new long[Math.toIntExact(buckets * perBucket)];
  }

  /** @return the entry of a fingerprint and a value */
  public static long entry(int fingerprint, long value) {
    return value << 16 | fingerprint;
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
  public int fingerprintOf(long entry) {
    return (int) (entry & 0xFFFF);
  }

  @Override
  public long entryAt(long bucket, int slot) {
    return slots[(int) bucket * perBucket + slot];
  }

  @Override
  public boolean insert(long bucket, long entry) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] == 0) {
        slots[base + s] = entry;
        return true;
      }
    }
    return false;
  }

  @Override
  public long evict(long bucket, int slot, long entry) {
    int i = (int) bucket * perBucket + slot;
    long old = slots[i];
    slots[i] = entry;
    return old;
  }

  @Override
  public void replace(long bucket, long entry, long replacement) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] == entry) {
        slots[base + s] = replacement;
        return;
      }
    }
    throw new IllegalStateException("bucket " + bucket + " lacks " + entry);
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
        long e = entryAt(b, s);
        n += e != 0 && fingerprintOf(e) == fingerprint ? 1 : 0;
      }
    }
    return n;
  }

  @Override
  public boolean remove(long bucket, long entry) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] == entry) {
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

  public boolean holds(long bucket, int fingerprint) {
    int base = (int) bucket * perBucket;
    for (int s = 0; s < perBucket; s++) {
      if (slots[base + s] != 0 && fingerprintOf(slots[base + s]) == fingerprint) {
        return true;
      }
    }
    return false;
  }

  /** @return each bucket's entries, sorted: the table as a multiset per bucket */
  public long[] contents() {
    long[] c = slots.clone();
    for (int b = 0; b < buckets; b++) {
      Arrays.sort(c, b * perBucket, (b + 1) * perBucket);
    }
    return c;
  }
}
