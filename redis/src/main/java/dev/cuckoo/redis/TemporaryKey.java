package dev.cuckoo.redis;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The name of a key to stage a copy in beside a user's key: new (64 random bits), in the same
 * Redis Cluster hash slot, so that one script or one {@code RENAME} may take both keys [1], and
 * starting with the user's key, so that an ACL key pattern that lets a user write the key
 * ({@code ~users*}) usually lets them write this one too.
 *
 * <p>[1] https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/ : commands
 * and scripts over several keys need them in one slot; a key's slot is CRC16 of its hash tag
 * (the part between the first <code>{</code> and the next <code>}</code>, if not empty) or of
 * the whole key, modulo 16384.
 */
final class TemporaryKey {
  private static final int SLOTS = 16384;

  /** More tries than any slot needs: a slot is hit once in 16384 tries on average. */
  private static final int MOST_TRIES = 1 << 24;

  private TemporaryKey() {}

  /**
   * @param key the user's key
   * @param purpose a word for what the copy is for, such as {@code push}
   * @return a new key name in the slot of {@code key}
   */
  static String beside(String key, String purpose) {
    String base = key + ".cuckoo-" + purpose + "." + Long.toHexString(ThreadLocalRandom.current().nextLong());
    int slot = JedisClusterCRC16.getSlot(key);
    if (JedisClusterCRC16.getSlot(base) == slot) {
      return base; // the key's own hash tag, which anything appended keeps
    }
    if (key.indexOf('{') < 0) {
      // No brace in the key: a hash tag appended decides the slot, so search the tag alone.
      return base + "{" + tagOf(slot) + "}";
    }
    // A brace without a tag ("a{b", "a{}b"): the name is hashed whole; a counter appended (no
    // brace, so no tag appears) finds one in the key's slot.
    for (int n = 0; n < MOST_TRIES; n++) {
      String candidate = base + "." + n;
      if (JedisClusterCRC16.getSlot(candidate) == slot) {
        return candidate;
      }
    }
    throw new IllegalStateException("found no key name in hash slot " + slot + " beside '" + key + "'");
  }

  /** @return a short string of digits whose CRC16 falls in the slot */
  private static String tagOf(int slot) {
    byte[] digits = new byte[10];
    for (int n = 0; n < MOST_TRIES; n++) {
      int length = 0;
      for (int rest = n; length == 0 || rest > 0; rest /= 10) {
        digits[length++] = (byte) ('0' + rest % 10); // backwards: any fixed order of the digits will do
      }
      if ((JedisClusterCRC16.getCRC16(digits, 0, length) & (SLOTS - 1)) == slot) {
        return new String(digits, 0, length, StandardCharsets.US_ASCII);
      }
    }
    throw new IllegalStateException("found no hash tag for slot " + slot);
  }
}
