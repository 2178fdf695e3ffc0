/**
 * A key-value store on disk with a cuckoo index: {@link dev.cuckoo.logstore.LogStore}, an
 * append-only log of checksummed records and, in memory, a cuckoo table of a 12-bit tag and the
 * record's offset per key, so that a lookup of an absent key reads nothing from disk and one of a
 * present key reads about one record. {@code LogStore}'s Javadoc states what it promises about
 * durability, crashes, sizes and threads; the guide's log-store chapter says when to use it.
 */
package dev.cuckoo.logstore;
