#!/usr/bin/env python3
"""Answers lookups from a `classic` or `semi-sorted` cuckoo filter file, written from
docs/guide/file-format.md (the sections cited as "file-format.md, ...").

    python3 cuckoo_reader.py FILE KEY...            prints "KEY<TAB>true|false" per key
    python3 cuckoo_reader.py --keys KEYS FILE       the same for each line of KEYS ("-": stdin)

Plain Python 3.8+, standard library only, except that the hashes xxh3 (the library's default)
and xxh64 need the `xxhash` module (`pip install xxhash`; Debian and Ubuntu: `apt-get install
python3-xxhash`); murmur64a is implemented here. It reads envelope versions 1 to 3 and maps the
file, so a lookup reads the two buckets it needs and memory stays that of the pages touched.
It checks the header checksum, the state and the length, as the library's `open` does, and the
hash check, but not the trailing checksum (a pass over the whole file). Anything it cannot
answer it says in one line on stderr, with exit status 1 (2 for bad usage). docs/reader/README.md
says more, with its speed.
"""
import math
import mmap
import os
import struct
import sys

MASK = (1 << 64) - 1
MAGIC = 0x434B4F46
PAGE = 4096
USAGE = "usage: cuckoo_reader.py FILE KEY...   or   cuckoo_reader.py --keys KEYS FILE  (KEYS '-': stdin)"
READS = "classic and semi-sorted"


class Refusal(Exception):
    """What this reader cannot answer, said in one line."""


# --- Hashes (file-format.md, "Hashes") --------------------------------------------------------

def murmur64a(data, seed):
    """MurmurHash64A: 8-byte blocks read little-endian, then the 1..7 tail bytes little-endian."""
    m = 0xC6A4A7935BD1E995
    n = len(data)
    h = (seed ^ (n * m)) & MASK
    end = n & ~7
    for k in struct.unpack_from("<%dQ" % (end >> 3), data):
        k = (k * m) & MASK
        k ^= k >> 47
        h ^= (k * m) & MASK
        h = (h * m) & MASK
    if n & 7:
        h = ((h ^ int.from_bytes(data[end:], "little")) * m) & MASK
    h ^= h >> 47
    h = (h * m) & MASK
    return h ^ (h >> 47)


def hash_function(name, seed, path):
    """The spec's hash as a function of bytes, with the seed as its unsigned 64 bits."""
    if name == "murmur64a":
        return lambda data: murmur64a(data, seed)
    if name in ("xxh3", "xxh64"):
        try:
            import xxhash
        except ImportError:
            raise Refusal("%s uses hash %s, which needs the Python module xxhash: pip install xxhash"
                          " (Debian, Ubuntu: apt-get install python3-xxhash)" % (path, name)) from None
        f = xxhash.xxh3_64_intdigest if name == "xxh3" else xxhash.xxh64_intdigest
        if seed == 0:
            return f
        return lambda data: f(data, seed)
    raise Refusal("%s uses hash %s, which this reader does not implement: it reads xxh3, xxh64 and"
                  " murmur64a (file-format.md, Hashes)" % (path, name))


# The probe keys of the hash check (file-format.md, "The envelope"): a hash that reproduces the
# file's four values is the one its filter was built with, so a lookup cannot silently miss.
PROBE_KEYS = (b"", bytes.fromhex("0123456789ABCDEF"), b"cuckoo", bytes(range(100)))


# --- CRC32C, for the version 3 header checksum ------------------------------------------------

def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)  # Castagnoli, reflected
        table.append(c)
    return table


def crc32c(data):
    table = _crc32c_table()
    c = 0xFFFFFFFF
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


# --- The spec string (file-format.md, "The spec string") --------------------------------------

def parse_spec(text, path):
    """variant?key=value&key=value: no character of a name or value needs escaping."""
    variant, _, query = text.partition("?")
    params = {}
    for pair in query.split("&") if query else ():
        key, eq, value = pair.partition("=")
        if not eq or not key or not value or key in params:
            raise Refusal("%s: spec %r has %r where key=value was expected" % (path, text, pair))
        params[key] = value
    return variant, params


def whole(params, key, default, path):
    value = params.get(key, default)
    try:
        return int(value, 16) if value.lower().startswith("0x") else int(value.replace("_", ""), 10)
    except ValueError:
        raise Refusal("%s: spec value %s=%s is not a whole number" % (path, key, value)) from None


# --- The file ---------------------------------------------------------------------------------

class FilterFile:
    """The header and payload fields of a filter file, its stash, and its table, mapped."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size < 12:
                    raise Refusal("%s is %d bytes: too short for a filter file" % (path, size))
                # Read-only and shared: pages are read from the file as a lookup touches them,
                # and count once however many processes read it.
                self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                if hasattr(self.map, "madvise") and hasattr(mmap, "MADV_RANDOM"):
                    # Lookups land on random pages: read the page a bucket is on, not the
                    # readahead window around it.
                    self.map.madvise(mmap.MADV_RANDOM)
        except OSError as e:
            raise Refusal("%s cannot be read: %s" % (path, e.strerror or e)) from None
        self.size = size
        self._envelope()
        self._payload()

    def _fields(self, fmt, at, what):
        if at + struct.calcsize(fmt) > self.size:
            raise Refusal("%s ends at byte %d, inside %s" % (self.path, self.size, what))
        return struct.unpack_from(fmt, self.map, at)

    def _envelope(self):
        path, mm = self.path, self.map
        magic, version, v = self._fields(">IHH", 0, "the header")
        if magic != MAGIC:
            raise Refusal("%s is not a filter file: it starts %08x, not CKOF" % (path, magic))
        if version not in (1, 2, 3):
            raise Refusal("%s is a filter file of format version %d; this reader reads versions 1 to 3"
                          % (path, version))
        if not 1 <= v <= 64:
            raise Refusal("%s: variant name of %d bytes, not 1..64" % (path, v))
        (s,) = self._fields(">I", 8 + v, "the header")
        if not 1 <= s <= 65536:
            raise Refusal("%s: spec of %d bytes, not 1..65536" % (path, s))
        at = 12 + v + s
        variant = mm[8:8 + v].decode("ascii", "replace")
        self.spec = mm[12 + v:at].decode("utf-8", "replace")
        # Version 1 is version 2 without the hash check.
        self.hash_check = self._fields(">4Q", at, "the hash check") if version >= 2 else None
        at += 32 if version >= 2 else 0
        (self.payload_length,) = self._fields(">Q", at, "the header")
        if version == 3:
            # Version 3 (file-format.md, "Version 3: an aligned payload"): checked as open checks
            # it, so a damaged header or a file its writer left between forces is refused.
            offset, checksum = self._fields(">QI", at + 8, "the header")
            if crc32c(mm[0:at + 16]) != checksum:
                raise Refusal("%s: header checksum mismatch: the header is damaged" % path)
            if offset % PAGE != 0 or offset < at + 20 + 32:
                raise Refusal("%s: payload offset %d is not where the header puts it" % (path, offset))
            # The mark: the 32 bytes before the payload, its state first.
            (state,) = self._fields(">I", offset - 32, "the header")
            if state != 0:
                raise Refusal("%s was left being changed by its writer (state %d): its table may hold a"
                              " half-moved fingerprint" % (path, state))
            if offset + self.payload_length + 4 != self.size:
                raise Refusal("%s is %d bytes, but its header says %d + %d + 4 (truncated, or extended)"
                              % (path, self.size, offset, self.payload_length))
            self.payload = offset
        else:
            self.payload = at + 8
            if self.payload + self.payload_length + 4 > self.size:
                raise Refusal("%s is %d bytes, shorter than its header says (payload of %d bytes at %d)"
                              % (path, self.size, self.payload_length, self.payload))
        self.version = version
        spec_variant, self.params = parse_spec(self.spec, path)
        if variant not in ("classic", "semi-sorted"):
            raise Refusal("%s holds a %s filter; this reader reads %s" % (path, variant, READS))
        if spec_variant != variant:
            raise Refusal("%s: spec %r is not for variant %s" % (path, self.spec, variant))
        self.variant = variant

    def _payload(self):
        path, p = self.path, self.payload
        params = self.params
        # The shape is the spec's (file-format.md, "The spec string"); the sizes are the payload's.
        self.bits = whole(params, "fingerprintBits", "0", path)
        self.slots = whole(params, "bucketSize", "4", path)
        self.shards = whole(params, "shards", "1", path)
        # A negative seed is stored signed and used as its two's-complement 64 bits.
        self.seed = whole(params, "seed", "0", path) & MASK
        semi = self.variant == "semi-sorted"
        if semi and (self.slots != 4 or not 5 <= self.bits <= 32):
            raise Refusal("%s: semi-sorted with fingerprintBits=%d and bucketSize=%d, not 5..32 and 4"
                          % (path, self.bits, self.slots))
        if not semi and (self.slots not in (1, 2, 4, 8) or not 4 <= self.bits <= 32):
            raise Refusal("%s: classic with fingerprintBits=%d and bucketSize=%d, not 4..32 and 1, 2, 4, 8"
                          % (path, self.bits, self.slots))
        self.bucket_bits = 4 * self.bits - 4 if semi else self.slots * self.bits
        (layout,) = self._fields(">I", p, "the payload")
        if layout == 3 and self.version == 3:
            # Layout 3: fields and stash in the first page, the table at payload offset 4096.
            self.m, self.items, self.words = self._fields(">QQQ", p + 8, "the payload")
            stash_at = p + 32
            self.table = p + PAGE
            expected = PAGE + 8 * self.words
        elif layout in (1, 2) and self.version < 3:
            # Layouts 1 and 2: the fields, the table, then the stash.
            self.m, self.items, self.words = self._fields(">QQQ", p + 4, "the payload")
            self.table = p + 28
            stash_at = self.table + 8 * self.words
            expected = None
        else:
            raise Refusal("%s: payload layout %d in a version %d file" % (path, layout, self.version))
        if not 1 <= self.m < 1 << 62 or self.m % self.shards:
            raise Refusal("%s: %d buckets, not a whole number of buckets in each of %d shards"
                          % (path, self.m, self.shards))
        if self.words != (self.m * self.bucket_bits + 63) // 64:
            raise Refusal("%s: a table of %d longs, but %d buckets of %d bits take %d"
                          % (path, self.words, self.m, self.bucket_bits, (self.m * self.bucket_bits + 63) // 64))
        (stashed,) = self._fields(">I", stash_at, "the stash")
        if stashed > 8:
            raise Refusal("%s: %d fingerprints in the stash, more than its 8 slots" % (path, stashed))
        entries = self._fields(">" + "QI" * stashed, stash_at + 4, "the stash")
        self.stash = set(zip(entries[0::2], entries[1::2]))
        if expected is None:
            expected = 28 + 8 * self.words + 4 + 12 * stashed
        if self.payload_length != expected:
            raise Refusal("%s: payload of %d bytes, but its fields make it %d" % (path, self.payload_length, expected))
        self.hash = hash_function(self.params.get("hash", ""), self.seed, path)
        if self.hash_check is not None and tuple(self.hash(k) for k in PROBE_KEYS) != self.hash_check:
            raise Refusal("%s: hash %s with seed %d does not reproduce the file's hash check: the filter was"
                          " built with another hash under that name" % (path, self.params.get("hash"),
                                                                       self.seed - (self.seed >> 63 << 64)))

    def lookup(self):
        """The function key bytes -> bool that answers mightContain, its constants bound once.

        file-format.md, "How a key becomes two buckets and a fingerprint", steps 3 to 6. Only the
        bytes of the two buckets are read, straight from the mapping.
        """
        m, bits, shards = self.m, self.bits, self.shards
        m2, s2, ms = 2 * m, 2 * shards, m // shards
        odd = 1 if ms % 2 == 0 else 0
        w = min(bits + 8, 32)
        low, top = (1 << w) - 1, (1 << bits) - 1
        hash_, stash = self.hash, self.stash
        has = self._semi_sorted_bucket() if self.variant == "semi-sorted" else self._classic_bucket()

        def might_contain(key):
            h = hash_(key)
            h1 = h >> 1
            i1 = (h1 * m2) >> 64  # step 3
            fp = (((h & low) * top) >> w) + 1  # step 4
            # Step 5, within the key's shard (base 0 when there is one).
            base = ((h1 * s2) >> 64) * ms if shards > 1 else 0
            x = (fp * 0x9E3779B97F4A7C15) & MASK
            x = ((x ^ (x >> 32)) * 0xBF58476D1CE4E5B9) & MASK
            off = ((x * ms) >> 64) | odd
            local = i1 - base
            i2 = base + (off - local if off >= local else off - local + ms)
            if has(i1, fp) or has(i2, fp):  # step 6
                return True
            return bool(stash) and ((i1, fp) in stash or (i2, fp) in stash)

        return might_contain

    def _bucket_bits(self):
        """The function bucket -> its bits as an int, bit 0 first (file-format.md, the table).

        The table is one little-endian bit string of big-endian longs: bucket k's bits start at
        bit k·B of it, in long k·B / 64. A bucket spans at most n longs; the few buckets whose n
        longs would run past the table read only the longs it has.
        """
        mm, table, words, bb = self.map, self.table, self.words, self.bucket_bits
        n = (63 + bb + 63) // 64
        structs = [(struct.Struct(">%dQ" % i).unpack_from, struct.Struct("<%dQ" % i).pack) for i in range(n + 1)]
        unpack, pack = structs[n]
        last = words - n  # the last long a full read of n longs may start at
        from_bytes = int.from_bytes
        mask = (1 << bb) - 1

        if n == 2:
            unpack_one = structs[1][0]

            def read(bucket):
                start = bucket * bb
                k = start >> 6
                if k <= last:
                    a, b = unpack(mm, table + 8 * k)
                    return ((b << 64 | a) >> (start & 63)) & mask
                (a,) = unpack_one(mm, table + 8 * k)  # the table's last long
                return (a >> (start & 63)) & mask
            return read

        def read(bucket):
            start = bucket * bb
            k = start >> 6
            if k <= last:
                longs = unpack(mm, table + 8 * k)
                return (from_bytes(pack(*longs), "little") >> (start & 63)) & mask
            short_unpack, short_pack = structs[words - k]
            longs = short_unpack(mm, table + 8 * k)
            return (from_bytes(short_pack(*longs), "little") >> (start & 63)) & mask
        return read

    def _classic_bucket(self):
        """Whether bucket k holds fp: b slots of f bits, slot s at bits [s·f, (s + 1)·f) of the bucket."""
        read, bits, slots = self._bucket_bits(), self.bits, self.slots
        if slots == 1:
            return lambda bucket, fp: read(bucket) == fp
        # Compare every slot at once: x has a zero slot exactly where the bucket holds fp, and
        # (x - ones) & ~x & tops is non-zero exactly when some slot of x is zero (a slot borrows
        # only from a lower slot that is zero, and the lowest zero slot sets its top bit).
        ones = sum(1 << (s * bits) for s in range(slots))
        tops = ones << (bits - 1)

        def has(bucket, fp):
            x = read(bucket) ^ (fp * ones)
            return ((x - ones) & ~x & tops) != 0
        return has

    def _semi_sorted_bucket(self):
        """Whether bucket k holds fp (file-format.md, semi-sorted): a 12-bit code of the four
        sorted low nibbles, then the four f − 4 high parts; slot i holds high_i << 4 | n_i."""
        read, high_bits = self._bucket_bits(), self.bits - 4
        nibbles = semi_sort_nibbles()
        high_mask = (1 << high_bits) - 1
        shifts = tuple(12 + i * high_bits for i in range(4))
        path = self.path

        def has(bucket, fp):
            v = read(bucket)
            code = v & 0xFFF
            if code >= len(nibbles):
                raise Refusal("%s: bucket %d is not a semi-sorted bucket (code %d)" % (path, bucket, code))
            ns = nibbles[code]
            nibble = fp & 15
            if nibble not in ns:
                return False
            high = fp >> 4
            for i in range(4):
                if ns[i] == nibble and (v >> shifts[i]) & high_mask == high:
                    return True
            return False
        return has


def semi_sort_nibbles():
    """The sorted nibbles n0 <= n1 <= n2 <= n3 of every code C(a0,1) + C(a1,2) + C(a2,3) + C(a3,4),
    ai = ni + i: all 3,876 of them (file-format.md, semi-sorted)."""
    table = [None] * 3876
    for n3 in range(16):
        for n2 in range(n3 + 1):
            for n1 in range(n2 + 1):
                for n0 in range(n1 + 1):
                    code = n0 + math.comb(n1 + 1, 2) + math.comb(n2 + 2, 3) + math.comb(n3 + 3, 4)
                    table[code] = (n0, n1, n2, n3)
    return table


# --- The command line -------------------------------------------------------------------------

def lines_of(f):
    """The keys of a binary file, one a line: the bytes between newlines, read as they come."""
    for line in f:
        yield line[:-1] if line.endswith(b"\n") else line


def answer(might_contain, keys, out):
    """Writes KEY<TAB>true|false for each key, a few thousand lines at a time."""
    answers = (b"\tfalse\n", b"\ttrue\n")
    lines = []
    for key in keys:
        lines.append(key + answers[might_contain(key)])
        if len(lines) == 4096:
            out.write(b"".join(lines))
            lines.clear()
    out.write(b"".join(lines))
    out.flush()


def main(argv):
    args = argv[1:]
    keys_path = None
    if args[:1] == ["--keys"] and len(args) == 3:
        keys_path, path = args[1], args[2]
    elif args and not args[0].startswith("--"):
        path = args[0]
    else:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        might_contain = FilterFile(path).lookup()
        if keys_path is None:
            # The bytes the system passed: os.fsencode undoes Python's decoding of the arguments.
            answer(might_contain, [os.fsencode(k) for k in args[1:]], sys.stdout.buffer)
        elif keys_path == "-":
            answer(might_contain, lines_of(sys.stdin.buffer), sys.stdout.buffer)
        else:
            try:
                keys = open(keys_path, "rb")
            except OSError as e:
                raise Refusal("%s cannot be read: %s" % (keys_path, e.strerror or e)) from None
            with keys:
                answer(might_contain, lines_of(keys), sys.stdout.buffer)
    except Refusal as e:
        sys.stdout.flush()
        print("cuckoo_reader.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
