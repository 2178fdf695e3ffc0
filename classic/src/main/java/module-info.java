/**
 * Variant {@code classic}: the cuckoo filter of Fan et al., with fingerprints of 4 to 32 bits and
 * buckets of 1, 2, 4 or 8 slots. Create one with {@code CuckooFilters.create("classic?capacity=N")};
 * only the provider is public.
 */
module dev.cuckoo.classic {
  requires transitive dev.cuckoo;
  requires static com.google.auto.service;

  exports dev.cuckoo.classic;

  provides dev.cuckoo.spi.FilterProvider with
      dev.cuckoo.classic.ClassicProvider;
}
