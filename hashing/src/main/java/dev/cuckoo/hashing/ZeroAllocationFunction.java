package dev.cuckoo.hashing;

import java.util.function.LongFunction;
import java.util.function.Supplier;
import net.openhft.hashing.LongHashFunction;

/**
 * The zero-allocation-hashing functions we install, with their names. Seed 0 gives the library's
 * seedless function, which for {@code city} and {@code farm} differs from seeding with 0.
 */
enum ZeroAllocationFunction {
  XXH3("xxh3", "XXH3 64-bit (xxHash 0.8)", LongHashFunction::xx3, LongHashFunction::xx3),
  XXH64("xxh64", "xxHash64", LongHashFunction::xx, LongHashFunction::xx),
  MURMUR3("murmur3", "MurmurHash3 x64_128, low 64 bits", LongHashFunction::murmur_3, LongHashFunction::murmur_3),
  WYHASH("wyhash", "wyhash final version 3", LongHashFunction::wy_3, LongHashFunction::wy_3),
  METRO("metro", "MetroHash64", LongHashFunction::metro, LongHashFunction::metro),
  CITY("city", "CityHash64 1.1", LongHashFunction::city_1_1, LongHashFunction::city_1_1),
  FARM("farm", "FarmHash64 (farmhash na)", LongHashFunction::farmNa, LongHashFunction::farmNa);

  final String hashName;
  final String description;
  // Both hold method references to the library's static factories: stateless, so the enum is
  // immutable although Error Prone cannot prove it of a functional interface.
  @SuppressWarnings("ImmutableEnumChecker")
  private final Supplier<LongHashFunction> seedless;

  @SuppressWarnings("ImmutableEnumChecker")
  private final LongFunction<LongHashFunction> seeded;

  ZeroAllocationFunction(
      String hashName,
      String description,
      Supplier<LongHashFunction> seedless,
      LongFunction<LongHashFunction> seeded) {
    this.hashName = hashName;
    this.description = description;
    this.seedless = seedless;
    this.seeded = seeded;
  }

  LongHashFunction function(long seed) {
    return seed == 0 ? seedless.get() : seeded.apply(seed);
  }
}
