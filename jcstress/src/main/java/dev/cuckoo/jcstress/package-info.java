/**
 * jcstress tests of the read paths that take no lock: a lookup racing the write that can hide
 * its key for an instant (a kick, a stash spill or reinsert, a doubling, a chain's growth or
 * compaction, an index rebuild, a replica swap). Every test marks "key not found" FORBIDDEN; its arbiter records whether the
 * write did what the race needs (moved the key, doubled the table...), so that the outcome table
 * shows the race was run. Run inside {@code ./mvnw verify} in a quick mode; see
 * docs/guide/concurrency.md.
 *
 * <p>Each shape of a race is its own nested test class with its own actors, which only call
 * the shared state: jcstress reads a test's actors from the test class alone, not from a
 * superclass.
 */
package dev.cuckoo.jcstress;
