package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code city}; see {@link ZeroAllocationFunction#CITY}. */
@AutoService(HashStrategyProvider.class)
public final class CityProvider extends ZeroAllocationProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public CityProvider() {
    super(ZeroAllocationFunction.CITY);
  }
}
