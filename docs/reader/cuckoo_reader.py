#!/usr/bin/env python3
"""Answers lookups from a `classic` cuckoo filter file, written from docs/guide/file-format.md alone.

Standard library only; it checks no checksum (CRC32C is not in the standard library). Hashes:
murmur64a (implemented here) and xxh3, the library's default, which needs the `xxhash` module
(`pip install xxhash`; Debian and Ubuntu: `apt-get install python3-xxhash`); without it, or for
another hash, it says so in one line on stderr and exits with status 1. Usage:

    python3 cuckoo_reader.py FILE KEY...     prints "KEY<TAB>true|false" per key
"""
import struct
import sys

MASK = (1 << 64) - 1
MAGIC = 0x434B4F46


class Refusal(Exception):
    """What this reader cannot answer, said in one line."""


def murmur64a(data, seed):
    m = 0xC6A4A7935BD1E995
    r = 47
    h = (seed ^ (len(data) * m)) & MASK
    end = len(data) & ~7
    for i in range(0, end, 8):
        k = struct.unpack_from("<Q", data, i)[0]
        k = (k * m) & MASK
        k ^= k >> r
        k = (k * m) & MASK
        h ^= k
        h = (h * m) & MASK
    tail = len(data) & 7
    if tail:
        t = int.from_bytes(data[end:end + tail], "little")
        h ^= t
        h = (h * m) & MASK
    h ^= h >> r
    h = (h * m) & MASK
    h ^= h >> r
    return h


def hash_function(name, seed, path):
    if name == "murmur64a":
        return lambda data: murmur64a(data, seed)
    if name == "xxh3":
        try:
            import xxhash
        except ImportError:
            raise Refusal("%s uses hash %s, which needs the Python module xxhash: pip install xxhash"
                          " (Debian, Ubuntu: apt-get install python3-xxhash)" % (path, name)) from None
        return lambda data: xxhash.xxh3_64_intdigest(data, seed=seed)
    raise Refusal("%s uses hash %s, which this reader does not implement: it reads xxh3 and murmur64a"
                  % (path, name))


class ClassicFile:
    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        magic, version, v = struct.unpack_from(">IHH", data, 0)
        if magic != MAGIC or version not in (2, 3):
            raise ValueError("not a filter file of version 2 or 3")
        variant = data[8:8 + v].decode("ascii")
        (s,) = struct.unpack_from(">I", data, 8 + v)
        spec = data[12 + v:12 + v + s].decode("utf-8")
        at = 12 + v + s + 32  # after the hash check
        (payload_length,) = struct.unpack_from(">Q", data, at)
        at += 8
        if version == 3:
            (offset,) = struct.unpack_from(">Q", data, at)
            (state,) = struct.unpack_from(">I", data, at + 12)
            if state != 0:
                raise ValueError("the file was left being changed by its writer")
            at = offset
        if variant != "classic":
            raise ValueError("this reader reads classic files, not " + variant)
        params = dict(p.split("=", 1) for p in spec.split("?", 1)[1].split("&"))
        self.bits = int(params["fingerprintBits"])
        self.slots = int(params["bucketSize"])
        self.hash = hash_function(params["hash"], int(params.get("seed", "0")) & MASK, path)
        self.shards = int(params.get("shards", "1"))
        layout = struct.unpack_from(">I", data, at)[0]
        if layout == 3:
            self.m, self.items, words = struct.unpack_from(">QQQ", data, at + 8)
            stash_at = at + 32
            table_at = at + 4096
        else:
            self.m, self.items, words = struct.unpack_from(">QQQ", data, at + 4)
            table_at = at + 28
            stash_at = table_at + 8 * words
        (stashed,) = struct.unpack_from(">I", data, stash_at)
        self.stash = set()
        for i in range(stashed):
            bucket, fp = struct.unpack_from(">QI", data, stash_at + 4 + 12 * i)
            self.stash.add((bucket, fp))
        # The bit string: long i holds bits [64i, 64i + 64); each long is big-endian in the file,
        # so reversing each one's bytes gives the string as little-endian bytes.
        longs = struct.unpack_from(">%dQ" % words, data, table_at)
        self.table = int.from_bytes(struct.pack("<%dQ" % words, *longs), "little")

    def slot(self, bucket, s):
        bit = (bucket * self.slots + s) * self.bits
        return (self.table >> bit) & ((1 << self.bits) - 1)

    def buckets_and_fingerprint(self, key):
        h = self.hash(key)
        i1 = ((h >> 1) * (2 * self.m)) >> 64
        w = min(self.bits + 8, 32)
        fp = (((h & ((1 << w) - 1)) * ((1 << self.bits) - 1)) >> w) + 1
        # With shards=S, both buckets lie in the key's shard of m_s = m / S buckets: the alternate
        # is that of a table of m_s buckets, within the shard. With S = 1 the shard is the table.
        ms = self.m // self.shards
        base = (((h >> 1) * (2 * self.shards)) >> 64) * ms
        x = (fp * 0x9E3779B97F4A7C15) & MASK
        x = ((x ^ (x >> 32)) * 0xBF58476D1CE4E5B9) & MASK
        off = (x * ms) >> 64
        if ms % 2 == 0:
            off |= 1
        local = i1 - base
        i2 = base + (off - local if off >= local else off - local + ms)
        return i1, i2, fp

    def might_contain(self, key):
        if isinstance(key, str):
            key = key.encode("utf-8")
        i1, i2, fp = self.buckets_and_fingerprint(key)
        for b in (i1, i2):
            if any(self.slot(b, s) == fp for s in range(self.slots)):
                return True
        return (i1, fp) in self.stash or (i2, fp) in self.stash


def main(argv):
    try:
        f = ClassicFile(argv[1])
    except Refusal as e:
        print("cuckoo_reader.py: %s" % e, file=sys.stderr)
        return 1
    for key in argv[2:]:
        print("%s\t%s" % (key, "true" if f.might_contain(key) else "false"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
