/**
 * {@code dev.cuckoo.logstore}: {@link dev.cuckoo.logstore.LogStore}, an append-only key-value
 * log on disk with a cuckoo index of tag and record offset in memory.
 */
module dev.cuckoo.logstore {
  requires dev.cuckoo.engine;

  exports dev.cuckoo.logstore;
}
