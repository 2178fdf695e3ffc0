package dev.cuckoo.hashing;

/**
 * XXH3 with a {@code hashLong} that computes the 8-byte case directly instead of reading the key
 * back from memory: the filters' {@code add(long)} and {@code mightContain(long)} call it on
 * every operation, so it sits on their hot path.
 */
final class Xxh3Hash extends ZeroAllocationHash {

  /*
   * XXH3-64 [1] hashes 4 to 8 bytes with XXH3_len_4to8_64b: with input1 the first and input2
   * the last 4 bytes (little-endian), seed' = seed ^ (bswap32(low 32 bits of seed) << 32) and
   * bitflip = (readLE64(kSecret + 8) ^ readLE64(kSecret + 16)) - seed', it returns
   * rrmxmx((input2 + (input1 << 32)) ^ bitflip, 8). For our 8 little-endian key bytes input1 is
   * the key's low half and input2 its high half, so the input word is the key rotated by 32.
   * Seedless XXH3 is the same function with seed 0. The result is checked against
   * zero-allocation-hashing for random keys and seeds.
   *
   * [1] Y. Collet, xxHash, "XXH3" (xxhash.h, version 0.8), https://github.com/Cyan4973/xxHash
   */

  /** Bytes 8..15 and 16..23 of XXH3's default secret kSecret, read little-endian. */
  private static final long SECRET_8 = 0x1cad21f72c81017cL;
  private static final long SECRET_16 = 0xdb979083e96dd4deL;
  private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;

  private final long bitflip;

  Xxh3Hash(long seed) {
    super(ZeroAllocationFunction.XXH3, seed);
    long mixedSeed = seed ^ ((Integer.reverseBytes((int) seed) & 0xFFFF_FFFFL) << 32);
    this.bitflip = (SECRET_8 ^ SECRET_16) - mixedSeed;
  }

  @Override
  public long hashLong(long key) {
    long h = Long.rotateLeft(key, 32) ^ bitflip;
    h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
    h *= PRIME_MX2;
    h ^= (h >>> 35) + 8;
    h *= PRIME_MX2;
    return h ^ (h >>> 28);
  }
}
