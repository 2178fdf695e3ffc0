package dev.cuckoo.exact;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;

/**
 * A test-only hash, {@code fnv1a-mix}: FNV-1a over the bytes, then the SplitMix64 finalizer.
 * The api module cannot depend on cuckoo-hashing, so its own tests hash with this.
 */
@AutoService(HashStrategyProvider.class)
public final class FnvProvider implements HashStrategyProvider {
  static final String NAME = "fnv1a-mix";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public HashStrategy create(long seed) {
    return new Fnv(seed);
  }

  /** The strategy; only hashBytes is implemented, so the key rule rests on the defaults. */
  static final class Fnv implements HashStrategy {
    private final long seed;

    Fnv(long seed) {
      this.seed = seed;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long hashBytes(byte[] bytes, int offset, int length) {
      java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
      long h = 0xcbf29ce484222325L ^ seed;
      for (int i = offset; i < offset + length; i++) {
        h = (h ^ (bytes[i] & 0xFF)) * 0x100000001b3L;
      }
      h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
      h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
      return h ^ (h >>> 31);
    }
  }
}
