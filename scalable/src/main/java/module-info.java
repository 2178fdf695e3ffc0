/**
 * Variant {@code scalable}: RedisBloom's cuckoo filter (the one behind Redis 8's {@code CF.*}
 * commands), a growing chain of sub-filters that answers every command as RedisBloom does and
 * dumps and loads RedisBloom's {@code CF.SCANDUMP} / {@code CF.LOADCHUNK} bytes.
 */
module dev.cuckoo.scalable {
  requires transitive dev.cuckoo;
  requires static com.google.auto.service;

  exports dev.cuckoo.scalable;

  provides dev.cuckoo.spi.FilterProvider with
      dev.cuckoo.scalable.ScalableProvider;
}
