package dev.cuckoo.classic;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.testkit.TablePayloadContractTest;

/** The table payload's hostile-file suite, over classic's tables. */
class ClassicFileTest extends TablePayloadContractTest {

  @Override
  protected long tableWords(FilterSpec spec, long buckets) {
    return BucketTable.payloadWords(buckets, spec.bucketSize().getAsInt(), spec.fingerprintBits().getAsInt());
  }

  /** 30 billion items of 4 bits in buckets of 8: a 16 GiB table. */
  @Override
  protected String hugeConfig() {
    return "classic?capacity=30000000000&fingerprintBits=4&bucketSize=8";
  }

  /** 4 billion items of 4 bits in buckets of 4: a 2 GiB table. */
  @Override
  protected String truncatedConfig() {
    return "classic?capacity=4000000000&fingerprintBits=4&bucketSize=4";
  }

  /** 12-bit slots: 48-bit buckets, so the table ends mid-word. */
  @Override
  protected String smallConfig() {
    return "classic?capacity=1010&fingerprintBits=12&bucketSize=4"; // its table ends mid-word
  }

  /** Fingerprint 0x123 in slot 0 of bucket 0. */
  @Override
  protected long[] tableWithOneFingerprint(int words) {
    long[] table = new long[words];
    table[0] = 0x123;
    return table;
  }
}
