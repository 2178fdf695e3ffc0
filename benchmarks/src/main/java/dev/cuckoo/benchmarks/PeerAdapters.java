package dev.cuckoo.benchmarks;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.fastfilter.Filter;
import org.fastfilter.cuckoo.Cuckoo16;
import org.fastfilter.cuckoo.Cuckoo8;
import org.fastfilter.cuckoo.CuckooPlus16;
import org.fastfilter.cuckoo.CuckooPlus8;

/** Adapters for the libraries Java users pick today, each used as its documentation shows. */
final class PeerAdapters {
  private PeerAdapters() {}

  /**
   * Guava funnels write a long as its 8 little-endian bytes, so one funnel takes both key forms
   * under cuckoo's encoding rule.
   */
  @SuppressWarnings("UnstableApiUsage")
  static final Funnel<Object> KEY_FUNNEL = (key, sink) -> {
    if (key instanceof Long number) {
      sink.putLong(number);
    } else {
      sink.putBytes((byte[]) key);
    }
  };

  /** FastFilter's cuckoo filters: long keys, no removal; a full table throws and drops an item. */
  static final class FastFilterCuckoo extends LongKeyAdapter {
    private final Filter filter;
    private final java.util.function.LongConsumer insert;
    private final int fingerprintBits;

    FastFilterCuckoo(String type, long keys) {
      super("FastFilter's " + type);
      // Sized as FastFilter's own construct(keys) sizes its table: keys / 0.95 slots.
      int slots = (int) Math.min(Integer.MAX_VALUE - 64, (long) Math.ceil(keys / 0.95));
      switch (type) {
        case "Cuckoo8" -> {
          Cuckoo8 f = new Cuckoo8(slots);
          filter = f;
          insert = f::insert;
          fingerprintBits = 8;
        }
        case "Cuckoo16" -> {
          Cuckoo16 f = new Cuckoo16(slots);
          filter = f;
          insert = f::insert;
          fingerprintBits = 16;
        }
        case "CuckooPlus8" -> {
          CuckooPlus8 f = new CuckooPlus8(slots);
          filter = f;
          insert = f::insert;
          fingerprintBits = 8;
        }
        case "CuckooPlus16" -> {
          CuckooPlus16 f = new CuckooPlus16(slots);
          filter = f;
          insert = f::insert;
          fingerprintBits = 16;
        }
        default -> throw new IllegalArgumentException("unknown FastFilter type " + type);
      }
    }

    @Override
    public boolean add(long key) {
      try {
        insert.accept(key);
        return true;
      } catch (IllegalStateException full) {
        return false;
      }
    }

    @Override
    public boolean mightContain(long key) {
      return filter.mayContain(key);
    }

    @Override
    public long sizeInBytes() {
      return filter.getBitCount() / 8;
    }

    @Override
    public long slots() {
      return filter.getBitCount() / fingerprintBits;
    }
  }

  /** CuckooFilter4J: generic keys through a Guava funnel, removal, a victim slot when full. */
  static final class CuckooFilter4J implements FilterAdapter {
    private final com.github.mgunlogson.cuckoofilter4j.CuckooFilter<Object> filter;

    CuckooFilter4J(double fpp, long keys) {
      filter = new com.github.mgunlogson.cuckoofilter4j.CuckooFilter.Builder<Object>(KEY_FUNNEL, keys)
          .withFalsePositiveRate(fpp)
          .build();
    }

    @Override
    public boolean add(long key) {
      return filter.put(key);
    }

    @Override
    public boolean mightContain(long key) {
      return filter.mightContain(key);
    }

    @Override
    public boolean remove(long key) {
      return filter.delete(key);
    }

    @Override
    public boolean add(byte[] key) {
      return filter.put(key);
    }

    @Override
    public boolean mightContain(byte[] key) {
      return filter.mightContain(key);
    }

    @Override
    public boolean remove(byte[] key) {
      return filter.delete(key);
    }

    @Override
    public boolean supportsRemove() {
      return true;
    }

    @Override
    public boolean supportsBytes() {
      return true;
    }

    @Override
    public long sizeInBytes() {
      return filter.getStorageSize() / 8;
    }

    @Override
    public long slots() {
      return filter.getActualCapacity();
    }
  }

  /** Guava's BloomFilter at a given false-positive probability: never refuses, never removes. */
  static final class GuavaBloom implements FilterAdapter {
    private final BloomFilter<Object> filter;

    GuavaBloom(double fpp, long keys) {
      filter = BloomFilter.create(KEY_FUNNEL, keys, fpp);
    }

    @Override
    public boolean add(long key) {
      filter.put(key);
      return true;
    }

    @Override
    public boolean mightContain(long key) {
      return filter.mightContain(key);
    }

    @Override
    public boolean remove(long key) {
      throw new UnsupportedOperationException("Bloom filters do not remove");
    }

    @Override
    public boolean add(byte[] key) {
      filter.put(key);
      return true;
    }

    @Override
    public boolean mightContain(byte[] key) {
      return filter.mightContain(key);
    }

    @Override
    public boolean remove(byte[] key) {
      throw new UnsupportedOperationException("Bloom filters do not remove");
    }

    @Override
    public boolean supportsRemove() {
      return false;
    }

    @Override
    public boolean supportsBytes() {
      return true;
    }

    @Override
    public long sizeInBytes() {
      // Guava does not expose the bit array's size; its serial form is 6 header bytes plus it.
      long[] written = {0};
      try {
        filter.writeTo(new OutputStream() {
          @Override
          public void write(int b) {
            written[0]++;
          }

          @Override
          public void write(byte[] b, int off, int len) {
            written[0] += len;
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return written[0] - 6;
    }

    @Override
    public long slots() {
      return 0;
    }
  }
}
