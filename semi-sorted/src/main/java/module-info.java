/**
 * Variant {@code semi-sorted}: the cuckoo filter of Fan et al. with buckets of four semi-sorted
 * fingerprints, one bit saved per fingerprint. Create one with {@code
 * CuckooFilters.create("semi-sorted?capacity=N")}; only the provider is public.
 */
module dev.cuckoo.semisorted {
  requires transitive dev.cuckoo;
  requires static com.google.auto.service;

  exports dev.cuckoo.semisorted;

  provides dev.cuckoo.spi.FilterProvider with
      dev.cuckoo.semisorted.SemiSortedProvider;
}
