/**
 * A table in a file, the engine's own (not exported): the words of a mapped table ({@code
 * FileWords}, contiguous or in segments, over {@code RawMemory}'s unsafe reads and writes), the
 * payload's layout ({@code TablePayload}), and what keeps a file whole when its writer dies: the
 * mark and the first page ({@code TableFile}, {@code FirstPage}), the undo records of a bucket
 * written in several words ({@code UndoRecords}), the regions a force commits ({@code
 * ChangedRegions}) and the record of an unfinished merge ({@code MergeRecord}). File format:
 * docs/guide/file-format.md; crash safety: docs/guide/mapped.md.
 */
package dev.cuckoo.engine.file;
