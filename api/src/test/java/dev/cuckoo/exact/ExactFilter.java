package dev.cuckoo.exact;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** See {@link ExactProvider}. */
final class ExactFilter extends AbstractCuckooFilter {
  private final Map<Long, Integer> counts = new HashMap<>();
  private final long capacity;
  private long size;

  ExactFilter(FilterSpec spec) {
    super(spec);
    this.capacity = spec.capacity().getAsLong();
  }

  /** Loads an entry; false if it repeats a hash or exceeds capacity. */
  boolean put(long hash, int copies) {
    if (counts.containsKey(hash) || size + copies > capacity) {
      return false;
    }
    counts.put(hash, copies);
    size += copies;
    return true;
  }

  @Override
  protected boolean addHash(long hash) {
    if (size == capacity) {
      return false;
    }
    counts.merge(hash, 1, Integer::sum);
    size++;
    return true;
  }

  /** Merges by hash: the exact answer a merge of true sets gives, to prove the kit's merge tests. */
  @Override
  protected long addAllFrom(AbstractCuckooFilter other) {
    ExactFilter that = (ExactFilter) other;
    if (capacity != that.capacity) {
      throw new IllegalArgumentException("cannot merge " + that.spec() + " into " + spec() + ": capacities differ");
    }
    long moved = 0;
    for (Map.Entry<Long, Integer> e : new TreeMap<>(that.counts).entrySet()) {
      for (int i = 0; i < e.getValue(); i++) {
        if (!addHash(e.getKey())) {
          return moved;
        }
        moved++;
      }
    }
    return moved;
  }

  @Override
  protected boolean mightContainHash(long hash) {
    return counts.containsKey(hash);
  }

  @Override
  protected boolean removeHash(long hash) {
    Integer c = counts.get(hash);
    if (c == null) {
      return false;
    }
    if (c == 1) {
      counts.remove(hash);
    } else {
      counts.put(hash, c - 1);
    }
    size--;
    return true;
  }

  @Override
  protected long countHash(long hash) {
    return counts.getOrDefault(hash, 0);
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public long slots() {
    return capacity;
  }

  @Override
  public long sizeInBytes() {
    return 16 + 48L * counts.size();
  }

  @Override
  public double expectedFpp() {
    return Math.scalb((double) counts.size(), -64);
  }

  @Override
  public void clear() {
    counts.clear();
    size = 0;
  }

  @Override
  protected long payloadLength() {
    return 8 + 12L * counts.size();
  }

  @Override
  protected void writePayload(PayloadOutput out) throws IOException {
    out.writeLong(counts.size());
    for (Map.Entry<Long, Integer> e : new TreeMap<>(counts).entrySet()) {
      out.writeLong(e.getKey());
      out.writeInt(e.getValue());
    }
  }
}
