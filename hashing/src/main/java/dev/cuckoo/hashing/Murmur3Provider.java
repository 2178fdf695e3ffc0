package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code murmur3}; see {@link ZeroAllocationFunction#MURMUR3}. */
@AutoService(HashStrategyProvider.class)
public final class Murmur3Provider extends ZeroAllocationProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public Murmur3Provider() {
    super(ZeroAllocationFunction.MURMUR3);
  }
}
