package dev.cuckoo.hashing;

import net.openhft.hashing.LongHashFunction;

/**
 * The zero-allocation-hashing functions we install, with their names. Seed 0 gives the library's
 * seedless function, which for {@code city} and {@code farm} differs from seeding with 0.
 */
enum ZeroAllocationFunction {
  XXH3("xxh3", "XXH3 64-bit (xxHash 0.8)"),
  XXH64("xxh64", "xxHash64"),
  MURMUR3("murmur3", "MurmurHash3 x64_128, low 64 bits"),
  WYHASH("wyhash", "wyhash final version 3"),
  METRO("metro", "MetroHash64"),
  CITY("city", "CityHash64 1.1"),
  FARM("farm", "FarmHash64 (farmhash na)");

  final String hashName;
  final String description;

  ZeroAllocationFunction(String hashName, String description) {
    this.hashName = hashName;
    this.description = description;
  }

  /*
   * A switch rather than a pair of method references per constant: each method reference is a
   * class spun at run time when the enum is initialized, and the registry initializes it to learn
   * the hashes' names, so a process's first CuckooFilters.open paid for fourteen of them, and for
   * loading zero-allocation-hashing, whatever hash its file used.
   */
  LongHashFunction function(long seed) {
    boolean seedless = seed == 0;
    return switch (this) {
      case XXH3 -> seedless ? LongHashFunction.xx3() : LongHashFunction.xx3(seed);
      case XXH64 -> seedless ? LongHashFunction.xx() : LongHashFunction.xx(seed);
      case MURMUR3 -> seedless ? LongHashFunction.murmur_3() : LongHashFunction.murmur_3(seed);
      case WYHASH -> seedless ? LongHashFunction.wy_3() : LongHashFunction.wy_3(seed);
      case METRO -> seedless ? LongHashFunction.metro() : LongHashFunction.metro(seed);
      case CITY -> seedless ? LongHashFunction.city_1_1() : LongHashFunction.city_1_1(seed);
      case FARM -> seedless ? LongHashFunction.farmNa() : LongHashFunction.farmNa(seed);
    };
  }
}
