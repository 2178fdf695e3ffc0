package dev.cuckoo.engine;

import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * The words a bucket table keeps its bit string in, wherever they are: the one seam between a
 * table's encoding and its storage. A table reads and writes its slots through this class only,
 * so that one table class serves a filter on the heap and a filter mapped from a file.
 *
 * <p>The contract, for every storage: {@link #length} longs, word {@code i} read by {@link #get}
 * and stored by {@link #set}; the words read together as one little-endian bit string (bit
 * {@code i} is bit {@code i % 64} of word {@code i / 64}), which {@link #window} reads 64 bits of
 * at any bit offset (zeros past the last word) and {@link #write} stores a field of at any bit
 * offset, storing only to the words the field occupies and keeping their other bits. Indexes are
 * the caller's to keep in range: a table's are by construction (a bucket index is below its
 * bucket count, whose words the storage was made to hold), so no storage checks them word by
 * word.
 *
 * <p>The storages: {@link #onHeap} (a {@code long[]}, with a padding word after the bit string
 * so that a window never looks past the array), {@link #onHeapInts} (an {@code int[]}, for a
 * table that reads a bucket as one int), {@code FileWords} (a file's words, of any length, mapped
 * shared or private), and any subclass a test makes (one that records or loses writes, say).
 * While a process has loaded one storage class, the JIT sees one implementation of each method
 * and inlines it into the table's search with no type check: a process of heap filters runs the
 * code it ran before the seam existed, give or take a load (docs/results.md, "The heap path").
 * So that a class is loaded only when a filter uses it, this class names its storages only in
 * calls to their static factories, which the verifier does not load a class to check.
 */
public abstract class TableWords {

  /** For the engine's storages and for tests' own. */
  protected TableWords() {}

  /**
   * @param length the longs of the bit string, without padding
   * @return zeroed words on the heap, with one padding word after them
   * @throws IllegalArgumentException if that is more than one array holds ({@link
   *     CuckooSizing#MAX_HEAP_WORDS})
   */
  public static TableWords onHeap(long length) {
    if (length < 0 || length + 1 > CuckooSizing.MAX_HEAP_WORDS) {
      throw new IllegalArgumentException(length + " longs are more than one array holds");
    }
    return HeapWords.of(new long[(int) length + 1], length);
  }

  /**
   * @param words the bit string (read from a file, say), followed by one zero padding word
   * @return words on the heap over that array, which they now own
   */
  public static TableWords onHeap(long[] words) {
    if (words.length == 0) {
      throw new IllegalArgumentException("no padding word");
    }
    return HeapWords.of(words, words.length - 1L);
  }

  /**
   * Zeroed words on the heap kept as ints, two to a word, for a table that reads its buckets 32
   * bits at a time ({@link #getInt}): one load a bucket, where a {@code long[]} takes a load, a
   * shift and a mask.
   *
   * @param length the longs of the bit string, without padding
   * @return the words, with one padding word after them
   * @throws IllegalArgumentException if that is more than one array holds
   */
  public static TableWords onHeapInts(long length) {
    if (length < 0 || 2 * (length + 1) > CuckooSizing.MAX_HEAP_WORDS) {
      throw new IllegalArgumentException(length + " longs are more ints than one array holds");
    }
    return IntHeapWords.of(new int[(int) (2 * (length + 1))], length);
  }

  /** @return the longs of the bit string, padding aside */
  public abstract long length();

  /**
   * @param index a word, below {@link #length}
   * @return it
   */
  public abstract long get(long index);

  /**
   * @param index a word, below {@link #length}
   * @param value what to store there
   */
  public abstract void set(long index, long value);

  /**
   * Bits {@code [32·index, 32·index + 32)} of the bit string: the low half of word {@code index /
   * 2} for an even index, the high half for an odd one.
   *
   * @param index an int, below {@code 2·length()}
   * @return it
   */
  public int getInt(long index) {
    return (int) (get(index >>> 1) >>> (index << 5));
  }

  /**
   * Stores bits {@code [32·index, 32·index + 32)} of the bit string, and no other.
   *
   * @param index an int, below {@code 2·length()}
   * @param value what to store there
   */
  public void setInt(long index, int value) {
    long w = index >>> 1;
    long mask = 0xFFFF_FFFFL << (index << 5);
    set(w, (get(w) & ~mask) | ((value & 0xFFFF_FFFFL) << (index << 5)));
  }

  /**
   * @return these words as storage that reads ints in one load ({@link #onHeapInts}), copied
   *     there if they are a {@code long[]} on the heap; any other storage is itself
   */
  public TableWords withFastInts() {
    return this;
  }

  /**
   * Bits {@code [offset, offset + 64)} of the bit string, zeros past its end.
   *
   * @param offset a bit offset below {@code 64·length()}
   * @return the 64 bits from there, bit {@code offset} in bit 0
   */
  public long window(long offset) {
    long w = offset >>> 6;
    long next = w + 1 < length() ? get(w + 1) : 0L;
    return (get(w) >>> offset) | ((next << 1) << ~offset);
  }

  /*
   * The gathers are the middle pass of a block of lookups (BitStringTable.containsHashes): every
   * key's buckets computed first, then their loads issued back to back with nothing else between
   * them, then the tests. A load that misses the caches holds its place in the processor's
   * window until it completes, so the keys whose misses overlap are as many as the window holds
   * of this loop: a handful of instructions a key here, where a whole lookup takes some eighty
   * (docs/results.md, "Many lookups at once"). Each storage gathers from its own memory in one
   * loop, with no call per load.
   */

  /**
   * Replaces each of the first {@code n} word indexes in {@code at} with the word there.
   *
   * @param at word indexes, each below {@link #length}; on return, the words
   * @param n how many
   */
  public void gather(long[] at, int n) {
    for (int i = 0; i < n; i++) {
      at[i] = get(at[i]);
    }
  }

  /**
   * Replaces each of the first {@code n} int indexes in {@code at} with the int there ({@link
   * #getInt}), unsigned.
   *
   * @param at int indexes, each below {@code 2·length()}; on return, the ints
   * @param n how many
   */
  public void gatherInts(long[] at, int n) {
    for (int i = 0; i < n; i++) {
      at[i] = getInt(at[i]) & 0xFFFF_FFFFL;
    }
  }

  /**
   * Replaces each of the first {@code n} bit offsets in {@code at} with the 64 bits from there
   * ({@link #window}).
   *
   * @param at bit offsets, each below {@code 64·length()}; on return, the windows
   * @param n how many
   */
  public void gatherWindows(long[] at, int n) {
    for (int i = 0; i < n; i++) {
      at[i] = window(at[i]);
    }
  }

  /**
   * Stores the low bits of {@code value} that {@code mask} selects at the bit offset, storing to
   * the word after only when the field reaches into it, and keeping every other bit of the words
   * it stores to ({@link PackedBits#write}).
   *
   * @param offset a bit offset
   * @param value the field
   * @param mask {@code 2^bits - 1} for the field's width
   */
  public void write(long offset, long value, long mask) {
    long w = offset >>> 6;
    long v = value & mask;
    set(w, (get(w) & ~(mask << offset)) | (v << offset));
    long spill = (mask >>> 1) >>> ~offset;
    if (spill != 0) {
      set(w + 1, (get(w + 1) & ~spill) | ((v >>> 1) >>> ~offset));
    }
  }

  /**
   * @param bit a bit offset
   * @return whether every bit from there to the end of the storage (padding included) is zero
   */
  public boolean isClearFrom(long bit) {
    for (long w = bit >>> 6; w < length(); w++) {
      long unused = w == bit >>> 6 ? -1L << bit : -1L;
      if ((get(w) & unused) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Zeros every word. */
  public void clear() {
    for (long w = 0; w < length(); w++) {
      if (get(w) != 0) {
        set(w, 0L); // a word already zero is left alone: a mapped file's untouched pages stay untouched
      }
    }
  }

  /**
   * Writes the first {@code count} words, in order.
   *
   * @param out where to write them
   * @param count how many, at most {@link #length}
   * @throws IOException if writing fails
   */
  public void writeTo(PayloadOutput out, long count) throws IOException {
    for (long i = 0; i < count; i++) {
      out.writeLong(get(i));
    }
  }

  /**
   * Reads the first {@code count} words, in order, as {@link #writeTo} wrote them: a table read
   * into the storage it was made in, so that reading allocates it once.
   *
   * @param in where to read them, with {@code 8·count} bytes {@link PayloadInput#atHand}
   * @param count how many, at most {@link #length}
   * @throws IOException if reading fails or the payload ends first
   */
  public void readFrom(PayloadInput in, long count) throws IOException {
    for (long i = 0; i < count; i++) {
      set(i, in.readLong());
    }
  }

  /** @return the bytes the storage holds, padding included */
  public abstract long bytes();

  /**
   * Before words {@code [first, last]} are stored to as one change (a bucket rewritten whole):
   * a storage that outlives its process (a mapped file) records their present values, so that
   * if the process dies before {@link #closeUndo}, the next writer puts them back and the change
   * is as if never begun. A run of one word needs nothing: its store is whole or not made. On
   * the heap, nothing.
   *
   * <p>Record layout, in the file's byte order: a tag {@code (first + 1) << 2 | count} (0: free),
   * then the {@code count} words as they were. The tag is stored after the words, and cleared
   * after the change, each store ordered after the one before.
   *
   * @param first the first word to change
   * @param last the last, at most {@code FirstPage.UNDO_MAX_WORDS} - 1 after {@code first}
   * @return what to give {@link #closeUndo}
   */
  public int openUndo(long first, long last) {
    return -1;
  }

  /**
   * After the change {@link #openUndo} began: forgets its record.
   *
   * @param undo what {@link #openUndo} returned
   */
  public void closeUndo(int undo) {}

  /**
   * Tells the storage that several threads may write it at once (each to its own words, under
   * its own locks): {@link #openUndo} then gives each change a record of its own.
   */
  public void shareWriters() {}

  /**
   * Makes the words written so far reach their storage's medium, for a storage that has one:
   * nothing for the heap; a mapped file's changed pages written and waited for.
   *
   * @throws IOException naming the file, if its device reports a failure
   */
  public void force() throws IOException {}
}
