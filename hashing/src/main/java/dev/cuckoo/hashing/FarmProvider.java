package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code farm}; see {@link ZeroAllocationFunction#FARM}. */
@AutoService(HashStrategyProvider.class)
public final class FarmProvider extends ZeroAllocationProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public FarmProvider() {
    super(ZeroAllocationFunction.FARM);
  }
}
