/**
 * The store for {@code concurrency=striped}, the engine's own (not exported): writers take the
 * stripe locks of the buckets they change ({@code StripeLocks}), each thread's {@code KickPath}
 * searches and then moves through a view of the table that holds them, and lookups take no lock
 * ({@code StripedFingerprintStore}). docs/guide/concurrency.md says what a reader may see.
 */
package dev.cuckoo.engine.striped;
