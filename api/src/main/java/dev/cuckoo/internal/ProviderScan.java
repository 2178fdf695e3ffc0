package dev.cuckoo.internal;

import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.HashStrategyProvider;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The installed providers of one service ({@link FilterProvider} or {@link
 * HashStrategyProvider}), found by name without reading more of the class path than that name
 * needs: a first-party provider by its class, anything else by a {@link ServiceLoader} pass that
 * stops at the provider of that name; a listing takes the pass to its end. Safe for use by any
 * number of threads.
 */
final class ProviderScan<T> {
  /*
   * Why a lookup by name does not simply load every provider.
   *
   * A process's first open reads one file, whose header names one variant and one hash. Loading
   * every provider to find those two made ServiceLoader read every jar of the class path: its
   * class path phase asks the class loader for every META-INF/services/<service> resource, and the
   * application class loader opens each jar's central directory to answer (a byte[] per jar, kept
   * while the jar stays open). With the 242 other jars of an application that uses Spark, that was
   * about 18 MB and a hundred milliseconds of the first call (docs/results.md, "The first open
   * with 250 jars").
   *
   * Stopping ServiceLoader's iteration at the wanted provider is not enough on the class path: the
   * JDK's resource enumeration looks one resource ahead (BuiltinClassLoader's enumeration asks its
   * class path enumeration for more before it hands out the element it holds), so handing out the
   * hashing jar's services file walks every jar after it in search of the next one. A class lookup
   * has no such look-ahead: it walks the class path only up to the jar that holds the class, and
   * the jars before this library's were opened already to load this class. So the names of the
   * first-party providers map to their classes (ProviderRegistry, kept true by FirstOpenTest), and
   * a lookup of such a name on the class path loads that class from the thread's context class
   * loader, then from this library's, and makes it with its public constructor, as ServiceLoader
   * would. On the module path that constructor is out of reach (a variant's package is not
   * exported) and needed by nobody: ServiceLoader's module phase reads the layers' `provides`
   * tables without any I/O, and the pass stops there.
   *
   * Everything else goes through one ServiceLoader pass that lookups share and resume: a third
   * party's name, a first-party name whose class is not found or not made (the pass then reports
   * why, as before), and listings (variants(), hashes(), an error that names what is installed,
   * "did you mean"), which take it to its end.
   *
   * What stays as it was: the context class loader is scanned first, then, if it is another, the
   * class loader of this library, where the context's providers win a name; a scan starts with the
   * context loader of the call that starts it. Two providers of different classes under one name,
   * or a provider ServiceLoader cannot make, fail the call that meets them; a failed pass starts
   * over at the next call, so every later call that goes as far fails again. What changed: a
   * lookup that stops early does not see such an error further on. A user who installs a provider
   * under a first-party name gets the first-party provider from a lookup of that name, and the
   * refusal of two providers of one name from any call that takes the pass to its end.
   *
   * Concurrency: every provider found is put in a ConcurrentHashMap, so a name once found costs no
   * lock; finding one, and advancing the ServiceLoader iterator (not thread-safe), happen under one
   * lock that both scans share (a provider's constructor that looks up the other kind while another
   * thread does the reverse would otherwise deadlock). The sorted names are published through a
   * volatile field once the pass has reached its end; nothing is put in the map after that. A
   * provider's constructor that looks up its own kind would re-enter the iterator it is being made
   * by, and is refused.
   *
   * No lambdas or method references, as on the rest of the way from CuckooFilters.open to a
   * lookup: each is a class spun at run time the first time it runs (docs/results.md, "A
   * process's first open").
   */

  private final Class<T> service;
  private final String kind;
  private final Object lock;
  /** The first-party providers' class names, by provider name. */
  private final Map<String, String> firstParty;
  /** Every provider met so far, by name; written under {@link #lock}. */
  private final ConcurrentHashMap<String, T> met = new ConcurrentHashMap<>();
  /** The names of every installed provider, sorted, once the scan has reached its end; else null. */
  private volatile Set<String> names;

  // Guarded by lock: where the scan is.
  private Iterator<T> pass;
  /** The library's class loader, to scan after the context's, or null when there is none to. */
  private ClassLoader after;
  /** Whether the pass under way is the context loader's, where two providers of a name are an error. */
  private boolean first;
  private boolean advancing;

  /**
   * @param service the service
   * @param kind what a provider is called in messages ("variant", "hash")
   * @param lock the lock that advances every scan
   * @param firstParty the first-party providers' class names, by provider name
   */
  ProviderScan(Class<T> service, String kind, Object lock, Map<String, String> firstParty) {
    this.service = service;
    this.kind = kind;
    this.lock = lock;
    this.firstParty = firstParty;
  }

  /**
   * @param name a provider's name
   * @return its provider, or null if none is installed (the scan has then reached its end)
   */
  T find(String name) {
    T provider = met.get(name);
    if (provider != null || names != null) {
      return provider;
    }
    synchronized (lock) {
      provider = met.get(name);
      if (provider == null && names == null) {
        provider = firstParty(name);
      }
      while (provider == null && names == null) {
        advance();
        provider = met.get(name);
      }
      return provider;
    }
  }

  /** @return the names of every installed provider, sorted */
  Set<String> names() {
    Set<String> all = names;
    if (all != null) {
      return all;
    }
    synchronized (lock) {
      while (names == null) {
        advance();
      }
      return names;
    }
  }

  /**
   * The first-party provider of a name, from its class on the class path, as the pass would make
   * it. Under the lock.
   *
   * @return the provider, or null if the name is not first-party or its class is not found on the
   *     class path or not made here (the pass then finds it, or says what is wrong)
   */
  private T firstParty(String name) {
    String className = firstParty.get(name);
    if (className == null) {
      return null;
    }
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    ClassLoader library = ProviderScan.class.getClassLoader();
    ClassLoader[] loaders = {context != null ? context : ClassLoader.getSystemClassLoader(), library};
    for (int i = 0; i < loaders.length; i++) {
      if (loaders[i] == null || (i == 1 && loaders[1] == loaders[0])) {
        continue;
      }
      Class<?> type;
      try {
        type = Class.forName(className, false, loaders[i]);
      } catch (ClassNotFoundException | LinkageError notHere) {
        continue;
      }
      // In a named module the pass's module phase finds it without I/O; another copy of the API
      // is the pass's to report.
      if (type.getModule().isNamed() || !service.isAssignableFrom(type)) {
        continue;
      }
      Object made;
      try {
        made = type.getConstructor().newInstance();
      } catch (ReflectiveOperationException | RuntimeException | LinkageError failed) {
        return null;
      }
      T provider = service.cast(made);
      if (!name.equals(nameOf(provider))) {
        return null;
      }
      T before = met.putIfAbsent(name, provider);
      return before != null ? before : provider;
    }
    return null;
  }

  /** Meets the next provider, or moves to the next pass, or ends the scan. Under the lock. */
  private void advance() {
    if (advancing) {
      throw new IllegalStateException("a " + kind + " provider looked up " + kind + "s while it was being made");
    }
    advancing = true;
    try {
      if (pass == null) {
        start();
      }
      if (pass.hasNext()) {
        meet(pass.next());
      } else if (after != null) {
        pass = ServiceLoader.load(service, after).iterator();
        after = null;
        first = false;
      } else {
        names = Collections.unmodifiableSet(new TreeSet<>(met.keySet()));
        pass = null;
      }
    } catch (RuntimeException | Error e) {
      // ServiceConfigurationError, or two of one name: the next call starts over and meets it again.
      pass = null;
      throw e;
    } finally {
      advancing = false;
    }
  }

  private void start() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    ClassLoader library = ProviderScan.class.getClassLoader();
    pass = (context != null ? ServiceLoader.load(service, context) : ServiceLoader.load(service)).iterator();
    after = context != null && context != library ? library : null;
    first = true;
  }

  private void meet(T provider) {
    String name = nameOf(provider);
    T before = met.putIfAbsent(name, provider);
    if (first && before != null && before.getClass() != provider.getClass()) {
      throw new IllegalStateException("two installed " + kind + "s are named '" + name + "': "
          + before.getClass().getName() + " and " + provider.getClass().getName());
    }
  }

  private static String nameOf(Object provider) {
    return provider instanceof FilterProvider p ? p.name() : ((HashStrategyProvider) provider).name();
  }
}
