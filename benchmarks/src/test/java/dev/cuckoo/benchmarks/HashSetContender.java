package dev.cuckoo.benchmarks;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A {@link GrowingContender} from "outside" for the tests: an exact set, which finds every key
 * added and no other, and says it holds {@code bitsPerKey} bits a key ({@code bitsPerKey=N}, 64 if
 * not given).
 */
public final class HashSetContender implements GrowingContender {
  private final Set<Long> keys = new HashSet<>();
  private final long bitsPerKey;

  /**
   * @param options {@code bitsPerKey=N}, optional
   * @param capacity the keys it is created for, at least 1
   */
  public HashSetContender(Map<String, String> options, long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    for (String key : options.keySet()) {
      if (!key.equals("bitsPerKey")) {
        throw new IllegalArgumentException("unknown option " + key);
      }
    }
    bitsPerKey = Long.parseLong(options.getOrDefault("bitsPerKey", "64"));
  }

  @Override
  public boolean add(long key) {
    return keys.add(key);
  }

  @Override
  public boolean mightContain(long key) {
    return keys.contains(key);
  }

  @Override
  public long sizeInBits() {
    return bitsPerKey * keys.size();
  }
}
