package dev.cuckoo.engine.file;

import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.TableWords;

/**
 * How far a merge into a mapped file has got ({@link TableFilter#addAll}), kept in the file's
 * first page ({@link FirstPage#MERGE_AT}) so that a merge whose writer's process died is finished
 * by merging the same filter again, each of its entries stored once.
 *
 * <pre>
 * offset  size  field (big-endian), in the first page
 * 1024    8     the source's digest ({@link #digest}): non-zero while a merge is under way, or
 *               was cut short
 * 1032    8     4·next + 2·finished + pending: next is the index of the next entry of the source
 *               to move, in the order a merge takes them (the table's buckets and slots, then the
 *               stash); pending is 1 while that entry is being stored; finished is 1 once every
 *               entry was moved
 * 1040    8     while pending: the copies of that entry's fingerprint in its two buckets and the
 *               stash before it was stored
 * 1048    8     zero
 * </pre>
 *
 * <p>Each entry is moved between two stores of one word: before, its count is recorded and it is
 * marked pending; after, next moves past it. A writer that dies between them leaves a pending
 * entry that may or may not have been stored; the merge that finishes the job counts the entry's
 * fingerprint again, in its two buckets and the stash, and stores it only if the count has not
 * grown. A kick path moves entries within their pairs of buckets and keeps every entry in one of
 * its slots at every instant, so the count of a fingerprint in a pair changes only when an entry
 * of that pair is stored or removed (a kick path cut short may leave one moved entry in both its
 * slots: if it is of the same pair and fingerprint, it stands for the pending entry, which a
 * lookup cannot tell from it).
 *
 * <p>A merge that moved every entry leaves the record finished, until the writer's next force or
 * close clears it: a writer that dies after the merge and before it forced the file may not have
 * seen the merge return, and merging the same filter again after the recovery then moves
 * nothing. Within one writer's life, a finished record stops nothing (merging a filter twice
 * merges it twice). A merge refused for want of room returns, which says so, and clears the
 * record. A record of another filter's merge that was not finished refuses a merge until it is
 * finished or abandoned.
 *
 * <p>The record is kept for a writer of a {@code durability=process} file. A {@code
 * durability=machine} file changes only when a force commits, and a merge is not cut by a force:
 * a merge killed halfway leaves the file as it was before it.
 */
public final class MergeRecord {
  private static final int DIGEST = FirstPage.MERGE_AT;
  private static final int PROGRESS = FirstPage.MERGE_AT + 8;
  private static final int BEFORE = FirstPage.MERGE_AT + 16;

  /** Where the record is stored; {@code null} for a record read from a file open for reading. */
  private final FirstPage page;
  private long digest;
  private long progress;
  private long before;
  /** Whether this writer wrote the record (else a writer before it left it). */
  private boolean ours;

  /** A record of its words as the file holds them: the digest, the progress, the count before. */
  private MergeRecord(FirstPage page, long[] words) {
    this.page = page;
    this.digest = words[0];
    this.progress = words[1];
    this.before = words[2];
  }

  /** @return the record in a writer's mapped first page */
  static MergeRecord in(FirstPage page) {
    return new MergeRecord(page, new long[] {page.load(DIGEST), page.load(PROGRESS), page.load(BEFORE)});
  }

  /**
   * @param words the record's four words, as a reader found them in the file
   * @return a record that only reports
   */
  static MergeRecord read(long[] words) {
    return new MergeRecord(null, words);
  }

  /** @return whether a merge is under way, or was cut short */
  public boolean active() {
    return digest != 0;
  }

  /** @return the source's digest, 0 if no merge is under way */
  public long digest() {
    return digest;
  }

  /** @return the entries the merge had moved, the pending one aside */
  public long moved() {
    return progress >>> 2;
  }

  /** @return whether the entry at {@link #moved} was being stored */
  public boolean pending() {
    return (progress & 1) != 0;
  }

  /** @return whether the merge moved every entry */
  public boolean finished() {
    return (progress & 2) != 0;
  }

  /** @return whether this writer wrote the record, rather than one before it */
  public boolean ours() {
    return ours;
  }

  /** @return with {@link #pending}, the count of its fingerprint before */
  public long countBefore() {
    return before;
  }

  /**
   * Starts recording a merge from its first entry.
   *
   * @param source the source's digest, non-zero
   */
  public void begin(long source) {
    store(PROGRESS, 0);
    store(BEFORE, 0);
    store(DIGEST, source); // last: the record is under way from here
    digest = source;
    progress = 0;
    before = 0;
    ours = true;
  }

  /**
   * Before an entry is stored: records its count and marks it pending.
   *
   * @param index the entry's index in the merge's order
   * @param count the copies of its fingerprint in its two buckets and the stash now
   */
  public void storing(long index, long count) {
    store(BEFORE, count);
    store(PROGRESS, index << 2 | 1); // after the count: a pending entry always has its count
    before = count;
    progress = index << 2 | 1;
    ours = true;
  }

  /**
   * After an entry was stored (or found stored): the merge goes on from the next.
   *
   * @param next the index of the next entry
   */
  public void next(long next) {
    store(PROGRESS, next << 2);
    progress = next << 2;
  }

  /**
   * After the last entry: the merge moved them all.
   *
   * @param entries how many
   */
  public void finish(long entries) {
    store(PROGRESS, entries << 2 | 2);
    progress = entries << 2 | 2;
    ours = true;
  }

  /** Clears the record: the merge returned, or was abandoned. */
  void end() {
    if (digest == 0 && progress == 0 && before == 0) {
      return;
    }
    store(DIGEST, 0); // first: the record is over from here, whatever the other words hold
    store(PROGRESS, 0);
    store(BEFORE, 0);
    digest = 0;
    progress = 0;
    before = 0;
  }

  private void store(int offset, long value) {
    if (page == null) {
      throw new UnsupportedOperationException("a merge record read from a file open for reading is not written");
    }
    page.store(offset, value);
  }

  /**
   * A 64-bit digest of a source: its shape, every word of its table and every entry of its
   * stash, so that a merge is finished only from the filter it began with. Never 0.
   *
   * @param table the source's table
   * @param stash its stash
   * @return the digest
   */
  public static long digest(BitStringTable table, FingerprintStash stash) {
    long h = mix(0x243F6A8885A308D3L, table.bucketCount());
    h = mix(h, table.slotsPerBucket());
    h = mix(h, table.fingerprintBits());
    TableWords words = table.words();
    for (long i = 0, n = words.length(); i < n; i++) {
      h = mix(h, words.get(i));
    }
    for (int i = 0; i < stash.size(); i++) {
      h = mix(mix(mix(h, stash.bucket(i)), stash.fingerprint(i)), stash.entry(i));
    }
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }

  private static long mix(long h, long value) {
    return Long.rotateLeft(h ^ (value * 0x9E3779B97F4A7C15L), 27) * 0xC2B2AE3D27D4EB4FL + 0x165667B19E3779F9L;
  }
}
