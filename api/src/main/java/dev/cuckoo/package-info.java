/**
 * Approximate membership with cuckoo filters: the API applications use.
 *
 * <p>{@link dev.cuckoo.CuckooFilters} creates a {@link dev.cuckoo.CuckooFilter} from a config
 * string ({@code "classic?capacity=1000000&fingerprintBits=12"}), a {@link dev.cuckoo.FilterSpec}
 * or properties, and reads one back from the common file format. Which variant answers is chosen
 * by the config's name and found at run time with {@link java.util.ServiceLoader}; the variants and
 * hashes installed are listed by {@link dev.cuckoo.CuckooFilters#variants()} and {@link
 * dev.cuckoo.CuckooFilters#hashes()}.
 *
 * <p>What every filter promises, whatever the variant: no false negatives for a key added and
 * not removed; a refused add loses nothing already stored; a key means the same bytes through
 * every method (a {@code CharSequence} is its UTF-8, a {@code long} its 8 little-endian bytes);
 * bad configuration fails with an {@link java.lang.IllegalArgumentException} that names the key,
 * the value and what is allowed; a damaged file fails with a {@link
 * dev.cuckoo.CorruptFilterException}. Thread safety is a setting ({@link dev.cuckoo.Concurrency});
 * a filter is not thread-safe unless its spec asks for it.
 *
 * <p>Typed keys go through a {@link dev.cuckoo.KeyEncoder} (a Guava {@code Funnel}'s role) into a
 * {@link dev.cuckoo.TypedFilter}.
 */
package dev.cuckoo;
