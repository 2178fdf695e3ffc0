package dev.cuckoo.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/** Staging keys land in their key's hash slot, whatever braces the key holds. */
class TemporaryKeyTest {
  @Test
  void aStagingKeyIsNewStartsWithTheKeyAndSharesItsSlot() {
    List<String> keys = List.of("users", "", "{users}:bloom", "a{b}c", "a{b", "a}b", "a{}b", "}{", "{}{x}", "{",
        "üñí©ødé", "x".repeat(1000));
    for (String key : keys) {
      String staged = TemporaryKey.beside(key, "push");
      assertTrue(staged.startsWith(key + ".cuckoo-push."), staged);
      assertEquals(JedisClusterCRC16.getSlot(key), JedisClusterCRC16.getSlot(staged), "key '" + key + "': " + staged);
      assertNotEquals(staged, TemporaryKey.beside(key, "push"), "a new name every time");
    }
  }
}
