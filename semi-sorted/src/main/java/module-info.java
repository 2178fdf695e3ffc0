/**
 * Variant {@code semi-sorted}: the cuckoo filter of Fan et al. with buckets of four semi-sorted
 * fingerprints, one bit saved per fingerprint. Create one with {@code
 * CuckooFilters.create("semi-sorted?capacity=N")}: nothing is exported, {@link
 * java.util.ServiceLoader} needs only the {@code provides} clause.
 */
module dev.cuckoo.semisorted {
  requires dev.cuckoo.engine;
  requires static com.google.auto.service;

  provides dev.cuckoo.spi.FilterProvider with
      dev.cuckoo.semisorted.SemiSortedProvider;
}
