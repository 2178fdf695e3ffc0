package dev.cuckoo.engine.testkit;

import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.TableWords;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A storage for tests that stages the death of a writer's process at any instant: words on the
 * heap that log every store, every undo record opened and closed ({@link TableWords#openUndo})
 * and every stash the filter writes to its file ({@link #keeper}), in the order they were made.
 * {@link #forEachCut} then gives, for every {@code n}, the words a file would hold had the
 * process died after the first {@code n} of them, with open undo records put back as the next
 * writer puts them back, and the stash its first page would hold. That is what a mapped file holds when
 * its writer dies: the kernel writes every page the process stored to, in whatever order, but
 * the process's stores stop at one point of its program.
 */
public final class StoreLogWords extends TableWords {
  private static final int SET = 0;
  private static final int OPEN = 1;
  private static final int CLOSE = 2;
  private static final int STASH = 3;

  private final long[] words;
  private final long[] initial;
  /** Per event: kind, then its operands. */
  private final List<long[]> events = new ArrayList<>();
  private int nextRecord;

  /**
   * @param length the longs of the bit string
   */
  public StoreLogWords(long length) {
    this.words = new long[Math.toIntExact(length)];
    this.initial = words.clone();
  }

  @Override
  public long length() {
    return words.length;
  }

  @Override
  public long get(long index) {
    return words[(int) index];
  }

  @Override
  public void set(long index, long value) {
    words[(int) index] = value;
    events.add(new long[] {SET, index, value});
  }

  @Override
  public long bytes() {
    return (long) words.length * Long.BYTES;
  }

  /** {@inheritDoc} As a mapped file's: a record of the words as they are, for every run of more than one. */
  @Override
  public int openUndo(long first, long last) {
    if (first == last) {
      return -1;
    }
    int record = nextRecord++;
    long[] event = new long[(int) (last - first + 4)];
    event[0] = OPEN;
    event[1] = record;
    event[2] = first;
    for (long w = first; w <= last; w++) {
      event[(int) (w - first + 3)] = words[(int) w];
    }
    events.add(event);
    return record;
  }

  /** {@inheritDoc} As a mapped file's: behind a record that says "clearing", which the next writer finishes. */
  @Override
  public void clear() {
    int record = nextRecord++;
    events.add(new long[] {OPEN, record, -1});
    super.clear();
    events.add(new long[] {CLOSE, record});
  }

  @Override
  public void closeUndo(int record) {
    if (record >= 0) {
      events.add(new long[] {CLOSE, record});
    }
  }

  /** @return the events around one, for a failure's message */
  public String around(int n) {
    StringBuilder b = new StringBuilder();
    for (int e = Math.max(0, n - 12); e < Math.min(events.size(), n + 4); e++) {
      b.append(e == n ? " >>" : " ").append(java.util.Arrays.toString(events.get(e)));
    }
    return b.toString();
  }

  /** @return the events so far: a point a process may die at is any number up to it */
  public int events() {
    return events.size();
  }

  /** @return a keeper that logs each stash as the file's first page would hold it */
  public FingerprintStash.Keeper keeper() {
    return stash -> {
      long[] event = new long[1 + 3 * stash.size()];
      event[0] = STASH;
      for (int i = 0; i < stash.size(); i++) {
        event[1 + 3 * i] = stash.bucket(i);
        event[2 + 3 * i] = stash.fingerprint(i);
        event[3 + 3 * i] = stash.entry(i);
      }
      events.add(event);
    };
  }

  /** What a test checks at one point a process may die at. */
  @FunctionalInterface
  public interface Cut {
    /**
     * @param n how many events had been made when the process died
     * @param words the words a file would then hold, after the next writer put back every open
     *     undo record, with one padding word ({@link TableWords#onHeap(long[])})
     * @param stash the stash its first page would hold, as {bucket, fingerprint, entry} triples
     */
    void check(int n, long[] words, long[][] stash);
  }

  /**
   * Calls {@code cut} for every point a process may die at, from before the first event to after
   * the last: each point's words replayed from the one before.
   *
   * @param cut the check
   */
  public void forEachCut(Cut cut) {
    long[] at = Arrays.copyOf(initial, initial.length + 1);
    java.util.Map<Long, long[]> open = new java.util.LinkedHashMap<>();
    long[][] stash = new long[0][];
    for (int n = 0; ; n++) {
      long[] recovered = at.clone();
      for (long[] record : open.values()) {
        if (record[2] < 0) {
          java.util.Arrays.fill(recovered, 0L); // a clear cut short is finished
          continue;
        }
        for (int i = 3; i < record.length; i++) {
          recovered[(int) (record[2] + i - 3)] = record[i];
        }
      }
      cut.check(n, recovered, stash);
      if (n == events.size()) {
        return;
      }
      long[] event = events.get(n);
      switch ((int) event[0]) {
        case SET -> at[(int) event[1]] = event[2];
        case OPEN -> open.put(event[1], event);
        case CLOSE -> open.remove(event[1]);
        default -> {
          stash = new long[(event.length - 1) / 3][];
          for (int i = 0; i < stash.length; i++) {
            stash[i] = new long[] {event[1 + 3 * i], event[2 + 3 * i], event[3 + 3 * i]};
          }
        }
      }
    }
  }
}
