package dev.cuckoo.scalable;

/**
 * Merging one {@link SubFilterChain} into another of the same shape: a copy of every fingerprint
 * of the other, duplicates included, each where a CF.EXISTS of its key looks, all of them or (in
 * a chain that grows) none.
 *
 * <p>[1] RedisBloom issue 517, compaction of sub-filters after deletes,
 * https://github.com/RedisBloom/RedisBloom/issues/517
 */
final class ChainMerge {
  private ChainMerge() {}

  /**
   * Merges another chain of the same shape into one: a copy of every fingerprint, duplicates
   * included. A chain that grows (expansion 1 or more) takes them all or none: they go into a copy
   * of the sub-filters they may reach ({@link SubFilterChain#workingCopy}), which replaces the
   * chain's only once every fingerprint found a place, so a refused merge leaves the chain byte for
   * byte as it was (and needs memory for that copy while it runs). A chain that never grows (expansion 0) is one table and merges as any
   * fixed table does: in place, stopping at the first fingerprint that finds no room.
   *
   * @param into the chain to merge into
   * @param other a chain of {@code into}'s shape, not {@code into}
   * @param what the merge, to begin messages with ("cannot merge ... into ...")
   * @return the fingerprints moved in: all of the other's, or fewer with expansion 0 only
   * @throws IllegalArgumentException saying why, if a growing chain cannot place them all
   * @throws IllegalStateException if the heap has no room for the working copy
   */
  static long merge(SubFilterChain into, SubFilterChain other, String what) {
    if (into.expansion() == 0) {
      return moveIn(into, other);
    }
    SubFilterChain trial;
    try {
      trial = into.workingCopy(into.expansion() == 1
          ? into.subFilterCount()
          : Math.min(into.subFilterCount(), other.subFilterCount()));
    } catch (OutOfMemoryError e) {
      throw new IllegalStateException(what + ": a merge works on a copy of this filter's sub-filters, and the heap "
          + "has no room for it; this filter is unchanged", e);
    }
    long moved = moveIn(trial, other);
    if (moved < other.items()) {
      throw new IllegalArgumentException(what + ": only " + moved + " of its " + other.items()
          + " fingerprints find a place: " + whyMergeStopped(trial, other, moved) + "; this filter is unchanged. "
          + "Chains with expansion=1 (sub-filters of one size) merge as long as the chain can grow, and variant "
          + "expandable merges filters of any sizes");
    }
    into.adopt(trial);
    return moved;
  }

  /**
   * Moves a copy of every fingerprint of another chain of the same shape into {@code into},
   * oldest sub-filter first, stopping at the first that finds no room.
   *
   * <p>A fingerprint of the other's sub-filter j sits at its key's bucket reduced by that
   * sub-filter's size, which says nothing of the key's bucket in a larger one. So it may go only
   * to sub-filters whose size divides that one: with expansion 1 (or 0) every sub-filter has one
   * size, and it goes where CF.ADD of its key would put it, the chain growing as CF.ADD grows it;
   * with a larger expansion only sub-filters 0..j qualify, and it goes there, as compaction moves
   * fingerprints only to older sub-filters [1]: the newest of them with room at either bucket,
   * else (growing {@code into} to j + 1 sub-filters where it is shorter) an empty new sub-filter
   * j, else the kick loop in sub-filter j. Either way the merged chain is one RedisBloom itself
   * could hold: every fingerprint where a CF.EXISTS of its key looks.
   *
   * @return the fingerprints moved in
   */
  private static long moveIn(SubFilterChain into, SubFilterChain other) {
    long moved = 0;
    for (int j = 0; j < other.subFilterCount(); j++) {
      SubFilter from = other.subFilter(j);
      for (long bucket = 0; bucket < from.numBuckets(); bucket++) {
        for (int slot = 0; slot < into.bucketSize(); slot++) {
          int fp = from.fingerprintAt(bucket, slot);
          if (fp != 0) {
            if (!(into.expansion() <= 1 ? into.insertFingerprint(bucket, fp) : into.insertUpTo(j, bucket, fp))) {
              return moved;
            }
            moved++;
          }
        }
      }
    }
    return moved;
  }

  /** @return why {@link #moveIn} stopped after {@code moved} of the other's fingerprints, for messages */
  private static String whyMergeStopped(SubFilterChain into, SubFilterChain other, long moved) {
    int j = 0;
    for (long before = other.subFilter(0).occupied(); before <= moved; before += other.subFilter(j).occupied()) {
      j++;
    }
    int expansion = into.expansion();
    if (expansion > 1 && into.subFilterCount() > j) {
      return "with expansion " + expansion + " a fingerprint of the other's sub-filter " + j + " knows its bucket "
          + "only up to that sub-filter's size, so it may go only to this chain's sub-filters 0.." + j
          + ", no larger than that one, and they have no room left";
    }
    if (into.subFilterCount() == SubFilterChain.MAX_SUB_FILTERS) {
      return "this chain would need more than " + SubFilterChain.MAX_SUB_FILTERS + " sub-filters";
    }
    return "this chain cannot grow further (its next sub-filter would outgrow the heap)";
  }
}
