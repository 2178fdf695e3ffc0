/**
 * Variant {@code scalable}: {@link dev.cuckoo.scalable.ScalableCuckooFilter}, RedisBloom's
 * cuckoo filter (Redis 8's {@code CF.*} commands) reply for reply, installed by {@link
 * dev.cuckoo.scalable.ScalableProvider}, with {@link dev.cuckoo.scalable.RedisBloomDump} to move
 * filters to and from RedisBloom's {@code CF.SCANDUMP} / {@code CF.LOADCHUNK} chunks.
 */
package dev.cuckoo.scalable;
