package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code metro}; see {@link ZeroAllocationFunction#METRO}. */
@AutoService(HashStrategyProvider.class)
public final class MetroProvider extends ZeroAllocationProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public MetroProvider() {
    super(ZeroAllocationFunction.METRO);
  }
}
