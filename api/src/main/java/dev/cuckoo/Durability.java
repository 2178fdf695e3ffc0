package dev.cuckoo;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a crash may take from a filter that lives in a file ({@link CuckooFilters#createFile},
 * {@link CuckooFilters#openWritable}): the value of the config key {@value FilterSpec#DURABILITY},
 * which the file remembers. A filter on the heap has no file, and the value means nothing to it.
 *
 * <p>Each mode's promise, per crash, and what it costs are in the guide ({@code
 * docs/guide/mapped.md}, "What force promises").
 */
public enum Durability {
  /**
   * The default: a writer whose process dies at any instant (killed, out of memory, halted)
   * leaves a file that the next open recovers with every add that had returned, forced or not;
   * a file whose machine stopped while it was being changed is refused.
   */
  PROCESS,
  /**
   * Every add before the last {@link MappedFilter#force} that returned survives a crash of the
   * machine too (a power loss, a kernel crash); adds after it are lost to any crash. The file
   * changes only inside a force, through a journal beside it ({@code FILE.journal}).
   */
  MACHINE;

  /** @return the value as config strings write it: {@code process} or {@code machine} */
  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return {@link #configValue()} */
  @Override
  public String toString() {
    return configValue();
  }

  /**
   * Reads the value of a config string's {@value FilterSpec#DURABILITY} key.
   *
   * @param text {@code process} or {@code machine}
   * @return the value
   * @throws IllegalArgumentException naming the text and the values allowed
   */
  public static Durability parse(String text) {
    for (Durability d : values()) {
      if (d.configValue().equals(text)) {
        return d;
      }
    }
    throw new IllegalArgumentException(FilterSpec.DURABILITY + "=" + text + " is not a durability: "
        + Arrays.stream(values()).map(Durability::configValue).collect(Collectors.joining(", ")));
  }
}
