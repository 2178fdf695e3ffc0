package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;

/** One of our variants, created from a config string with the capacity appended. */
final class CuckooAdapter implements FilterAdapter {
  private final CuckooFilter filter;

  CuckooAdapter(String config, long keys) {
    this.filter = CuckooFilters.create(config + (config.contains("?") ? "&" : "?") + "capacity=" + keys);
  }

  CuckooFilter filter() {
    return filter;
  }

  @Override
  public boolean add(long key) {
    return filter.add(key);
  }

  @Override
  public boolean mightContain(long key) {
    return filter.mightContain(key);
  }

  @Override
  public boolean remove(long key) {
    return filter.remove(key);
  }

  @Override
  public boolean add(byte[] key) {
    return filter.add(key);
  }

  @Override
  public boolean mightContain(byte[] key) {
    return filter.mightContain(key);
  }

  @Override
  public boolean remove(byte[] key) {
    return filter.remove(key);
  }

  @Override
  public boolean supportsRemove() {
    return true;
  }

  @Override
  public boolean supportsBytes() {
    return true;
  }

  @Override
  public long sizeInBytes() {
    return filter.sizeInBytes();
  }

  @Override
  public long slots() {
    return filter.slots();
  }
}
