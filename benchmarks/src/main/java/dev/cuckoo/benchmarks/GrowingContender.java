package dev.cuckoo.benchmarks;

/**
 * A growing filter from outside this project, which {@code compare --grow} measures exactly as it
 * measures ours: a library that is not on Maven Central, or one we may not depend on, compiled
 * into a jar of its own with a small class implementing this interface.
 *
 * <p>The contender is named {@code class:NAME?key=value&key=value} ({@code ?...} optional):
 * {@code NAME} is the fully qualified name of a public class on the class path that implements
 * this interface and has a public constructor taking {@code (java.util.Map<String, String>
 * options, long capacity)}. {@code options} holds the pairs after {@code ?}, in their order, as
 * written (no decoding); {@code capacity} is the keys the filter is created for, {@code --from}
 * for a growing filter, or {@code --to} after {@value GrowthWorker#PRESIZED}. The constructor
 * throws {@link IllegalArgumentException} for an option it does not know or cannot take; {@code
 * compare} reports it with the contender's name. The contender is named in the tables, CSV and
 * charts by what was written on the command line.
 *
 * <p>The class is looked up on {@code java.class.path}: {@code ./compare} appends the
 * environment variable {@code COMPARE_CLASSPATH} to it, and every worker JVM inherits it.
 */
public interface GrowingContender {

  /**
   * @param key the key, which {@code compare --grow} never adds twice
   * @return {@code false} if the filter refused it (the measurement stops there)
   */
  boolean add(long key);

  /**
   * @param key the key
   * @return whether the key may be present
   */
  boolean mightContain(long key);

  /**
   * The memory behind the bits per item the report gives: the filter's own measure if it has
   * one, which the report cannot check.
   *
   * @return the bits the filter holds
   */
  long sizeInBits();
}
