/**
 * Sharded tables, the engine's own (not exported): one table's buckets cut into shards that a
 * key's hash picks ({@code ShardedTable}), and one shard handed out as a filter of its own ({@code
 * TableShard}), for builds that fill shards in parallel (CuckooFilters.shards, Spark).
 */
package dev.cuckoo.engine.sharded;
