package dev.cuckoo.jcstress;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.FingerprintStash;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;

/**
 * Key hashes picked for where a table places them, and the reads of a filter's internals that the
 * tests' arbiters make. The filters are created through the public API; their table and stash are
 * reached by reflection (the tests run on the class path).
 */
final class TableKeys {
  private final CuckooTable table;
  private final SplittableRandom random;

  /**
   * @param table the table (of a filter of the shape the test builds) that places the keys
   * @param seed the seed of the candidates tried, so that every run builds the same states
   */
  TableKeys(CuckooTable table, long seed) {
    this.table = table;
    this.random = new SplittableRandom(seed);
  }

  /** @return the first candidate hash that passes the test */
  long find(LongPredicate test) {
    for (int tries = 0; tries < 10_000_000; tries++) {
      long h = random.nextLong();
      if (test.test(h)) {
        return h;
      }
    }
    throw new IllegalStateException("no key hash found for a test state");
  }

  long bucket(long keyHash) {
    return table.bucketIndex(keyHash);
  }

  int fingerprint(long keyHash) {
    return table.fingerprint(keyHash);
  }

  /** @return the key's other bucket */
  long other(long keyHash) {
    return table.alternate(table.bucketIndex(keyHash), table.fingerprint(keyHash));
  }

  /** @return a key whose first bucket is {@code bucket} and whose other bucket is {@code other} */
  long keyIn(long bucket, long other) {
    return find(h -> bucket(h) == bucket && other(h) == other);
  }

  // ---------------------------------------------------------------- internals, by reflection

  /** @return the table of a filter that extends the engine's {@code TableFilter} */
  static CuckooTable table(CuckooFilter filter) {
    try {
      Method m = findMethod(filter.getClass(), "table");
      m.setAccessible(true);
      return (CuckooTable) m.invoke(filter);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot reach the table of " + filter.getClass(), e);
    }
  }

  /** @return the stash of a filter that extends the engine's {@code TableFilter} */
  static FingerprintStash stash(CuckooFilter filter) {
    return (FingerprintStash) field(filter, "stash");
  }

  /** @return whether the bucket holds an entry with the key's fingerprint */
  static boolean holds(CuckooTable table, long bucket, int fingerprint) {
    for (int s = 0; s < table.slotsPerBucket(); s++) {
      long entry = table.entryAt(bucket, s);
      if (entry != 0 && table.fingerprintOf(entry) == fingerprint) {
        return true;
      }
    }
    return false;
  }

  /** @return the value of a field of the object, declared in its class or a superclass */
  static Object field(Object object, String name) {
    for (Class<?> c = object.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(object);
      } catch (NoSuchFieldException e) {
        // look in the superclass
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + name + " of " + object.getClass(), e);
      }
    }
    throw new IllegalStateException(object.getClass() + " has no field " + name);
  }

  private static Method findMethod(Class<?> type, String name) throws NoSuchMethodException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.getName().equals(name) && m.getParameterCount() == 0) {
          return m;
        }
      }
    }
    throw new NoSuchMethodException(type + "." + name + "()");
  }
}
