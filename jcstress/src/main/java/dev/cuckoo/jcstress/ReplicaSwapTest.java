package dev.cuckoo.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.RedisReplica;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Lookups on a {@link RedisReplica} racing the swap of a refreshed copy. A refresh pulls the key
 * from Redis into a new filter and then swaps it in ({@code RedisReplica.swapIn}, package-private
 * for this test); no Redis can be started for every state, so the racing thread does what a
 * refresh does after its reads from Redis: it loads the new copy from the key's dump chunks with
 * {@link RedisBloomDump#load}, as the pull does, and swaps it in. The replica is built with a
 * client that never connects. What this proves: a lookup never sees a copy half loaded or half
 * published; the pull's own consistency under Redis writes is tested against a live Redis in
 * module {@code redis}.
 *
 * <p>Outcome: (every lookup made while the refresh ran found the key, the load succeeded, the
 * replica now answers from the new copy).
 */
@JCStressTest
@Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the refresh swapped the new copy in")
@Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the copy was not swapped: no race")
@Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
@Outcome(expect = FORBIDDEN, desc = "the load failed")
@State
public class ReplicaSwapTest {

  private static final String KEY = "key-0";
  /** A client that is never used: no connection is made until a command is sent. */
  private static final UnifiedJedis IDLE = RedisClient.create("127.0.0.1", 1);
  private static final Constructor<RedisReplica> REPLICA;
  private static final Method SWAP_IN;
  /** The dump of the key's filter, as {@code CF.SCANDUMP} returns it. */
  private static final List<RedisBloomDump.Chunk> CHUNKS;

  static {
    try {
      REPLICA = RedisReplica.class.getDeclaredConstructor(UnifiedJedis.class, String.class, boolean.class);
      REPLICA.setAccessible(true);
      SWAP_IN = RedisReplica.class.getDeclaredMethod("swapIn", ScalableCuckooFilter.class, Instant.class);
      SWAP_IN.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
    CuckooFilter filter = CuckooFilters.create("scalable?capacity=512");
    for (int i = 0; i < 400; i++) {
      filter.add("key-" + i);
    }
    CHUNKS = RedisBloomDump.dump(filter);
  }

  final RedisReplica replica;
  volatile ScalableCuckooFilter fresh;
  volatile boolean swapped;

  public ReplicaSwapTest() {
    try {
      replica = REPLICA.newInstance(IDLE, "users", false);
      SWAP_IN.invoke(replica, RedisBloomDump.load(CHUNKS), Instant.now());
    } catch (ReflectiveOperationException | CorruptFilterException e) {
      throw new IllegalStateException("cannot build a replica for the test", e);
    }
  }

  @Actor
  public void lookup(ZZZ_Result r) {
    r.r1 = RepeatedLookup.allFound(() -> replica.mightContain(KEY), () -> swapped);
  }

  @Actor
  public void refresh(ZZZ_Result r) {
    try {
      ScalableCuckooFilter copy = RedisBloomDump.load(CHUNKS);
      fresh = copy;
      SWAP_IN.invoke(replica, copy, Instant.now());
      r.r2 = true;
    } catch (ReflectiveOperationException | CorruptFilterException e) {
      r.r2 = false;
    }
    swapped = true;
  }

  @Arbiter
  public void current(ZZZ_Result r) {
    r.r3 = TableKeys.field(replica, "copy") == fresh;
  }
}
