package dev.cuckoo.exact;

import com.google.auto.service.AutoService;
import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.SpecSchema;
import java.io.IOException;

/**
 * A test-only variant, {@code exact}: a multiset of 64-bit key hashes, refusing adds once it
 * holds {@code capacity} items. It proves the contract test kit (and the file envelope) on
 * something whose right answers are obvious. Not shipped in the test-jar.
 */
@AutoService(FilterProvider.class)
public final class ExactProvider implements FilterProvider {
  static final String NAME = "exact";
  private static final SpecSchema SCHEMA =
      SpecSchema.builder(NAME)
          .capacity(1, 1 << 24)
          .fingerprintBits(64, 64, 64)
          .bucketSizes(1, 1)
          .maxKicks(0, 0, 0)
          .defaultHash(FnvProvider.NAME)
          .wholeOption("spare", 0, 10, 0)
          .choiceOption("flavour", "plain", "plain", "salted")
          .build();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "exact multiset of 64-bit hashes (tests only)";
  }

  @Override
  public SpecSchema schema() {
    return SCHEMA;
  }

  @Override
  public CuckooFilter create(FilterSpec resolved) {
    return new ExactFilter(resolved);
  }

  @Override
  public CuckooFilter read(FilterSpec resolved, PayloadInput in) throws IOException {
    ExactFilter f = new ExactFilter(resolved);
    long distinct = in.readLong();
    in.requireRemaining(distinct * 12, distinct + " entries");
    for (long i = 0; i < distinct; i++) {
      long hash = in.readLong();
      int copies = in.readInt();
      if (copies < 1 || !f.put(hash, copies)) {
        throw new CorruptFilterException("exact payload entry " + i + " is invalid");
      }
    }
    return f;
  }
}
