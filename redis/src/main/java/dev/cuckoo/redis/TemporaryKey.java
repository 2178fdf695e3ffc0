package dev.cuckoo.redis;

import java.util.UUID;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The name of a key to stage a copy in beside a user's key: new (a random UUID), in the same
 * Redis Cluster hash slot, so that one script or one {@code RENAME} may take both keys [1], and
 * starting with the user's key, so that an ACL key pattern that lets a user write the key
 * ({@code ~users*}) usually lets them write this one too.
 *
 * <p>[1] https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/ : commands
 * and scripts over several keys need them in one slot; a key's slot is CRC16 of its hash tag
 * (the part between the first {@code {} and the next {@code }}, if not empty) or of the whole
 * key.
 */
final class TemporaryKey {
  /** More tries than any slot needs: a slot is hit once in 16384 tries on average. */
  private static final int MOST_TRIES = 1 << 24;

  private TemporaryKey() {}

  /**
   * @param key the user's key
   * @param purpose a word for what the copy is for, such as {@code push}
   * @return a new key name in the slot of {@code key}
   */
  static String beside(String key, String purpose) {
    String base = key + ".cuckoo-" + purpose + "." + UUID.randomUUID();
    int slot = JedisClusterCRC16.getSlot(key);
    // A key with a hash tag keeps it with anything appended. Without one, the name is hashed
    // whole: a counter appended (no braces, so no tag appears) finds one in the key's slot.
    if (JedisClusterCRC16.getSlot(base) == slot) {
      return base;
    }
    for (int n = 0; n < MOST_TRIES; n++) {
      String candidate = base + "." + n;
      if (JedisClusterCRC16.getSlot(candidate) == slot) {
        return candidate;
      }
    }
    throw new IllegalStateException("found no key name in hash slot " + slot + " beside '" + key + "'");
  }
}
