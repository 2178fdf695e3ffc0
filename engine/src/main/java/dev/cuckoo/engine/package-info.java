/**
 * What a table-based variant builds on: the {@link dev.cuckoo.engine.CuckooTable} interface and
 * the {@link dev.cuckoo.engine.BitStringTable} a variant's bucket encoding extends, the {@link
 * dev.cuckoo.engine.TableWords} it reads and writes (and their heap storages), partial-key
 * hashing and sizing ({@link dev.cuckoo.engine.PartialKeyHashing}, {@link
 * dev.cuckoo.engine.CuckooSizing}), SWAR searches ({@link dev.cuckoo.engine.SwarLanes}), the kick
 * path, the stash and the single-threaded store ({@link dev.cuckoo.engine.KickPath}, {@link
 * dev.cuckoo.engine.FingerprintStash}, {@link dev.cuckoo.engine.PlainFingerprintStore}), and the
 * provider and filter a variant subclasses ({@link dev.cuckoo.engine.TableProvider}, {@link
 * dev.cuckoo.engine.TableFilter}). Everything else the engine does lives in packages it does not
 * export, one a concern: {@code dev.cuckoo.engine.file} (a table in a file: its mapped words,
 * its payload layout, its mark, first page, undo records and merges), {@code
 * dev.cuckoo.engine.striped} (the store for {@code concurrency=striped} and its locks, through
 * which it runs the one kick path) and {@code dev.cuckoo.engine.sharded} (a table cut into shards, and a shard as a filter
 * of its own).
 *
 * <p><b>For variant authors; no compatibility promise.</b> This package is exported so that a
 * variant in another module can build on it, but it is not part of the library's API: it may
 * change in any release. Applications use {@code dev.cuckoo} and config strings only.
 *
 * <p>A table slot holds an entry: a fingerprint and, for variants that need one, a value that
 * moves with it on every kick and into the stash (see {@link dev.cuckoo.engine.CuckooTable}).
 *
 * <h2>The rooms, and what a variant writes</h2>
 *
 * <pre>
 *   a variant (classic, semi-sorted) writes     dev.cuckoo.engine (exported) does, for all of them
 *   ----------------------------------------    ---------------------------------------------------
 *   XProvider extends TableProvider:            create, read, shards, createFile, open, convert,
 *     newBucketCount, payloadWords, wrap,         the file and heap checks (TableProvider)
 *     bucketBits, shape, lookups                TableFilter.compose: heap or mapped, sharded or
 *   its table classes (BitStringTable):           not, striped or not; the variant's lookups class
 *     the encoding and its searches               for a heap table without concurrency
 *     |                                         the stash, the kick path, the plain store
 *     | reads and writes words only
 *     v
 *   TableWords, the seam:                       on the heap: a long[] and a padding word, or an
 *                                                 int[] (HeapWords, IntHeapWords)
 *
 *   not exported, used by the classes above:
 *   dev.cuckoo.engine.file      FileWords (ContiguousWords, SegmentedWords; RawMemory does the
 *                                 unsafe reads and writes), TablePayload (the layout), TableFile
 *                                 (the mark, the first page, forces, recovery), FirstPage,
 *                                 UndoRecords, ChangedRegions, MergeRecord
 *   dev.cuckoo.engine.striped   StripedFingerprintStore, StripeLocks
 *   dev.cuckoo.engine.sharded   ShardedTable (a table's buckets cut into shards), TableShard
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
 * instant (the kick path searches first and moves from the free end, storing before it removes),
 * and a variant whose bucket write takes several words brackets it with {@link
 * dev.cuckoo.engine.TableWords#openUndo} and {@link dev.cuckoo.engine.TableWords#closeUndo},
 * which on the heap cost a call that does nothing. The file's mark, its first page and its forces
 * are kept by the file package's {@code TableFile}, whose {@code recover} the next writer's open
 * calls when the envelope finds the file marked. With {@code durability=machine} the table is
 * mapped copy-on-write and a force commits its changed pages through a journal ({@link
 * dev.cuckoo.spi.MappedPayload#commit}). Every store to a mapping, like every write of the
 * envelope, passes through the one seam the crash tests cut at ({@code
 * dev.cuckoo.internal.io.FileWrites}, exported to this module alone).
 */
package dev.cuckoo.engine;
