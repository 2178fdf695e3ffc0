/**
 * The cuckoo machinery that table-based variants share: a {@link dev.cuckoo.engine.CuckooTable}
 * interface for bucket tables, partial-key hashing and sizing ({@link
 * dev.cuckoo.engine.PartialKeyHashing}, {@link dev.cuckoo.engine.CuckooSizing}), the kick path
 * with undo and the stash ({@link dev.cuckoo.engine.KickPath}, {@link
 * dev.cuckoo.engine.FingerprintStash}), the single-threaded and the striped fingerprint stores,
 * the shared file payload ({@link dev.cuckoo.engine.TablePayload}), and the bit-level helpers
 * tables are built from ({@link dev.cuckoo.engine.PackedBits}, {@link
 * dev.cuckoo.engine.SwarLanes}).
 *
 * <p><b>For variant authors; no compatibility promise.</b> This package is exported so that a
 * variant in another module can build on it, but it is not part of the library's API: it may
 * change in any release. Applications use {@code dev.cuckoo} and config strings only.
 *
 * <p>A table slot holds an entry: a fingerprint and, for variants that need one, a value that
 * moves with it on every kick and into the stash (see {@link dev.cuckoo.engine.CuckooTable}).
 */
package dev.cuckoo.engine;
