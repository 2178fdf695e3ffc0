/**
 * Variant {@code expandable}: one cuckoo table that doubles as keys arrive, without bound, its
 * entries giving up one fingerprint bit per doubling. Create one with {@code
 * CuckooFilters.create("expandable?targetFpp=0.001")}: nothing is exported, {@link
 * java.util.ServiceLoader} needs only the {@code provides} clause.
 */
module dev.cuckoo.expandable {
  requires dev.cuckoo.engine;
  requires static com.google.auto.service;

  provides dev.cuckoo.spi.FilterProvider with
      dev.cuckoo.expandable.ExpandableProvider;
}
