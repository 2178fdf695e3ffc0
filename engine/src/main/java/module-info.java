/**
 * The cuckoo machinery that table-based variants share ({@code dev.cuckoo.engine}): bucket
 * tables, partial-key hashing, sizing, the kick path and stash, the fingerprint stores and the
 * shared payload. Exported for variant authors, with no compatibility promise.
 */
module dev.cuckoo.engine {
  requires transitive dev.cuckoo;
  requires jdk.unsupported; // sun.misc.Unsafe: RawMemory reads and writes mappings at their addresses

  exports dev.cuckoo.engine;
}
