/**
 * Variant {@code classic}: the cuckoo filter of Fan et al., with fingerprints of 4 to 32 bits and
 * buckets of 1, 2, 4 or 8 slots. Create one with {@code CuckooFilters.create("classic?capacity=N")}:
 * nothing is exported, {@link java.util.ServiceLoader} needs only the {@code provides} clause.
 */
module dev.cuckoo.classic {
  requires dev.cuckoo.engine;
  requires static com.google.auto.service;

  provides dev.cuckoo.spi.FilterProvider with
      dev.cuckoo.classic.ClassicProvider;
}
