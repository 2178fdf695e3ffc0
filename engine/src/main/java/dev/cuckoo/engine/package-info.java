/**
 * The cuckoo machinery that table-based variants share: a {@link dev.cuckoo.engine.CuckooTable}
 * interface for bucket tables, partial-key hashing and sizing ({@link
 * dev.cuckoo.engine.PartialKeyHashing}, {@link dev.cuckoo.engine.CuckooSizing}), the kick path
 * and the stash ({@link dev.cuckoo.engine.KickPath}, {@link
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
 *
 * <h2>The storage seam, and what a variant writes</h2>
 *
 * <pre>
 *   a variant (classic, semi-sorted) writes    the engine does, once for all of them
 *   ----------------------------------------   ----------------------------------------------
 *   XProvider extends TableProvider:           create, read, shards, createFile, open, convert,
 *     newBucketCount, payloadWords, wrap,        the heap check, TablePayload's layout
 *     maxHeapCapacity, shape, lookups
 *   its table classes (BitStringTable):        TableFilter.compose: heap or mapped, sharded or
 *     the encoding and its searches              not, striped or not (ThroughStore, Sharded,
 *     |                                          Mapped; the variant's lookups class for a heap
 *     | reads and writes words only              table without concurrency)
 *     v
 *   TableWords, the seam:                      onHeap: a long[] and a padding word (HeapWords)
 *                                              onHeapInts: an int[] (IntHeapWords)
 *                                              FileWords: a file's words at their addresses,
 *                                                mapped shared or private (ContiguousWords;
 *                                                SegmentedWords where segments do not touch;
 *                                                RawMemory does the unsafe reads and writes)
 *                                              a test's own subclass (one that loses writes)
 * </pre>
 *
 * <p>A table-based variant writes its bucket encoding once, over {@link
 * dev.cuckoo.engine.TableWords}, and its provider extends {@link
 * dev.cuckoo.engine.TableProvider}, naming only what its encoding knows; the engine composes every
 * combination of storage, shards and concurrency ({@link dev.cuckoo.engine.TableFilter#compose}).
 * The heap path pays nothing for the seam while a process has loaded one storage class: the JIT
 * then sees one implementation of each word access and inlines it with no type check (class
 * hierarchy analysis), as it did when tables held their arrays themselves (docs/results.md, "One
 * engine for heap and mapped tables").
 *
 * <h2>A writer that dies</h2>
 *
 * <p>A mapped file outlives its writer: whatever ends the process, the stores it made reach the
 * file. So every write sequence keeps each stored fingerprint in one of its slots at every
 * instant ({@link dev.cuckoo.engine.KickPath} walks first and moves from the free end, {@link
 * dev.cuckoo.engine.StripedKickPath} stores before it removes), and a variant whose bucket write
 * takes several words brackets it with {@link dev.cuckoo.engine.TableWords#openUndo} and {@link
 * dev.cuckoo.engine.TableWords#closeUndo}, which on the heap cost a call that does nothing. The
 * file's mark, its first page and its forces are kept by {@link dev.cuckoo.engine.TableFile},
 * whose {@code recover} the next writer's open calls when the envelope finds the file marked.
 * With {@code durability=machine} the table is mapped copy-on-write and a force commits its
 * changed pages through a journal ({@link dev.cuckoo.spi.MappedPayload#commit}). Every store to a
 * mapping, like every write of the envelope, passes through the one seam the crash tests cut at
 * ({@code dev.cuckoo.internal.io.FileWrites}, exported to this module alone).
 */
package dev.cuckoo.engine;
