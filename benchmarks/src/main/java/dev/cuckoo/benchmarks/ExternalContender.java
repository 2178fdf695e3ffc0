package dev.cuckoo.benchmarks;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link GrowingContender} named {@code class:NAME?key=value&...}, behind the harness's
 * adapter, so that every measurement, table, CSV and chart of {@code compare --grow} treats it as
 * one of ours. It takes {@code long} keys only and cannot remove.
 */
final class ExternalContender extends LongKeyAdapter {
  /** Marks a contender that names a class. */
  static final String PREFIX = "class:";

  private final GrowingContender filter;

  private ExternalContender(GrowingContender filter) {
    super("a class: contender");
    this.filter = filter;
  }

  /**
   * @param config what follows {@value GrowthWorker#PRESIZED}, if anything: starts with
   *     {@value #PREFIX}
   * @return whether {@code config} names a class
   */
  static boolean names(String config) {
    return config.startsWith(PREFIX);
  }

  /**
   * @param contender the contender as written, for messages
   * @param config {@code class:NAME?options}
   * @param capacity the keys the filter is created for
   * @return the contender's filter, created
   * @throws IllegalArgumentException naming {@code contender}, if the class is missing, is not a
   *     {@link GrowingContender}, has no such constructor, or refuses the options
   */
  static ExternalContender create(String contender, String config, long capacity) {
    String spec = config.substring(PREFIX.length());
    int q = spec.indexOf('?');
    String className = q < 0 ? spec : spec.substring(0, q);
    if (className.isEmpty()) {
      throw bad(contender, "no class named after " + PREFIX);
    }
    Map<String, String> options = options(contender, q < 0 ? "" : spec.substring(q + 1));
    Class<?> type;
    try {
      type = Class.forName(className, true, ExternalContender.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw bad(contender, "no class " + className + " on the class path (./compare adds the jars named in"
          + " COMPARE_CLASSPATH)");
    } catch (LinkageError e) {
      throw bad(contender, className + " cannot be loaded: " + e);
    }
    if (!GrowingContender.class.isAssignableFrom(type)) {
      throw bad(contender, className + " does not implement " + GrowingContender.class.getName());
    }
    if (!Modifier.isPublic(type.getModifiers()) || Modifier.isAbstract(type.getModifiers())) {
      throw bad(contender, className + " is not a public concrete class");
    }
    Constructor<?> constructor;
    try {
      constructor = type.getConstructor(Map.class, long.class);
    } catch (NoSuchMethodException e) {
      throw bad(contender, className + " has no public constructor (Map<String, String> options, long capacity)");
    }
    try {
      return new ExternalContender((GrowingContender) constructor.newInstance(options, capacity));
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      throw bad(contender,
          cause instanceof IllegalArgumentException ? cause.getMessage() : className + " failed: " + cause);
    } catch (ReflectiveOperationException e) {
      throw bad(contender, className + " cannot be created: " + e);
    }
  }

  /** @return {@code a=1&b=2} as an ordered map */
  private static Map<String, String> options(String contender, String query) {
    Map<String, String> options = new LinkedHashMap<>();
    if (query.isEmpty()) {
      return Collections.unmodifiableMap(options);
    }
    for (String pair : query.split("&", -1)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw bad(contender, "option '" + pair + "' is not key=value");
      }
      if (options.put(pair.substring(0, eq), pair.substring(eq + 1)) != null) {
        throw bad(contender, "option " + pair.substring(0, eq) + " is given twice");
      }
    }
    return Collections.unmodifiableMap(options);
  }

  private static IllegalArgumentException bad(String contender, String why) {
    return new IllegalArgumentException("contender " + contender + ": " + why);
  }

  @Override
  public boolean add(long key) {
    return filter.add(key);
  }

  @Override
  public boolean mightContain(long key) {
    return filter.mightContain(key);
  }

  @Override
  public long sizeInBytes() {
    return (filter.sizeInBits() + 7) / 8;
  }

  @Override
  public long sizeInBits() {
    return filter.sizeInBits();
  }

  /** @return 0: what the filter holds is its own business */
  @Override
  public long slots() {
    return 0;
  }
}
