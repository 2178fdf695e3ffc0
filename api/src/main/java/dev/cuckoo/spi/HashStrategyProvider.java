package dev.cuckoo.spi;

/**
 * Makes a {@link HashStrategy} available by name, so that config strings and filter files can
 * name it. Register an implementation with {@code @AutoService(HashStrategyProvider.class)} (or a
 * {@code META-INF/services} entry) and, in a named module, {@code provides
 * dev.cuckoo.spi.HashStrategyProvider with ...}.
 */
public interface HashStrategyProvider {

  /**
   * @return the strategy's name, unique among installed hashes; letters, digits, '.', '_', '-'
   */
  String name();

  /**
   * @return a one-line description for listings
   */
  default String description() {
    return name();
  }

  /**
   * @param seed the seed; 0 must give the strategy's unseeded form where it has one
   * @return the strategy for that seed; its {@link HashStrategy#name()} equals {@link #name()}
   */
  HashStrategy create(long seed);
}
