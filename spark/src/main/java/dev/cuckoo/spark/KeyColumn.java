package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.KeyKind;
import dev.cuckoo.ShardRouter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The Spark column types a key may come from, each with the library's key rule: a string is its
 * UTF-8 bytes, a binary its bytes, a long its 8 little-endian bytes, and an int the key of the
 * same value as a long. The last follows what a Java caller gets from {@code
 * filter.mightContain(anInt)}: the int widens to {@code long}, so a key added from an int column
 * is found by the plain-Java lookup of the same number, whichever width it was stored at.
 */
enum KeyColumn {
  STRING(DataTypes.StringType, KeyKind.STRING) {
    @Override
    long hash(InternalRow row, ShardRouter router, byte[] scratch) {
      UTF8String s = row.getUTF8String(0);
      if (s.getBaseObject() instanceof byte[] base) {
        return router.hash(base, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
      }
      return router.hash(s.getBytes());
    }
  },
  BINARY(DataTypes.BinaryType, KeyKind.BINARY) {
    @Override
    long hash(InternalRow row, ShardRouter router, byte[] scratch) {
      return router.hash(row.getBinary(0));
    }
  },
  LONG(DataTypes.LongType, KeyKind.LONG) {
    @Override
    long hash(InternalRow row, ShardRouter router, byte[] scratch) {
      return router.hash(littleEndian(row.getLong(0), scratch));
    }
  },
  INT(DataTypes.IntegerType, KeyKind.LONG) {
    @Override
    long hash(InternalRow row, ShardRouter router, byte[] scratch) {
      return router.hash(littleEndian(row.getInt(0), scratch));
    }
  };

  // Spark's DataType objects are immutable case objects, only not annotated as such.
  @SuppressWarnings("ImmutableEnumChecker")
  private final DataType type;
  private final KeyKind kind;

  KeyColumn(DataType type, KeyKind kind) {
    this.type = type;
    this.kind = kind;
  }

  /** @return the kind of key a column of this type makes, which a filter built from it records */
  KeyKind kind() {
    return kind;
  }

  /**
   * Why a filter cannot answer for keys of this type, or null where it can: its spec records
   * keys of another kind ({@link FilterSpec#KEYS}), every one of which has other bytes than a key
   * of this type, so every row would be "absent". A filter that records no kind (one written
   * before kinds were recorded, or built outside Spark) answers every type, as it always did.
   *
   * @param filter the filter
   * @param key the key column or expression, as the user wrote it, for the message
   */
  String mismatch(CuckooFilter filter, String key) {
    return mismatch(filter.spec().keyKind().orElse(null), key);
  }

  /**
   * {@link #mismatch(CuckooFilter, String)} for a filter known by the kind it records.
   *
   * @param recorded the kind of key the filter's spec records, or null for none
   * @param key the key column or expression, as the user wrote it, for the message
   */
  String mismatch(KeyKind recorded, String key) {
    if (recorded == null || recorded == kind) {
      return null;
    }
    KeyColumn built = recorded == KeyKind.STRING ? STRING : recorded == KeyKind.BINARY ? BINARY : LONG;
    return "the filter was built from " + recorded + " keys (its spec says " + FilterSpec.KEYS + "=" + recorded
        + ") and the key " + key + " is " + type.sql() + ", whose keys are " + kind + "s: no " + type.sql()
        + " value has the bytes of a " + built.type.sql() + " key, so every row would be absent; look up a "
        + built.type.sql() + " key (CAST(" + key + " AS " + built.type.sql() + ")) or build the filter from "
        + type.sql() + " keys";
  }

  /**
   * @param row a one-column row whose value is not null
   * @param router the filter's hash
   * @param scratch 8 bytes this call may overwrite
   * @return the hash of the row's key
   */
  abstract long hash(InternalRow row, ShardRouter router, byte[] scratch);

  /**
   * The key column of a Dataset, checked on the driver before any job.
   *
   * @throws IllegalArgumentException naming the column and the columns there are, or the
   *     column's type and the supported ones
   */
  static KeyColumn of(Dataset<?> ds, String column) {
    StructField field = Arrays.stream(ds.schema().fields())
        .filter(f -> f.name().equals(column))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("column '" + column + "' is not in the Dataset; its columns: "
            + String.join(", ", ds.schema().fieldNames())));
    return of(field.dataType(), column);
  }

  static KeyColumn of(DataType type, String what) {
    for (KeyColumn k : values()) {
      if (k.type.equals(type)) {
        return k;
      }
    }
    throw new IllegalArgumentException("column '" + what + "' has type " + type.simpleString()
        + ", which is not a key type: supported are " + supported());
  }

  static String supported() {
    return Arrays.stream(values()).map(k -> k.type.simpleString()).collect(Collectors.joining(", "));
  }

  /**
   * The key bytes of a value as Spark hands it to a Java UDF, by the rule above.
   *
   * @throws IllegalArgumentException for a value of any other type
   */
  static byte[] bytesOf(Object value) {
    if (value instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    } else if (value instanceof byte[] b) {
      return b;
    } else if (value instanceof Long l) {
      return littleEndian(l, new byte[8]);
    } else if (value instanceof Integer i) {
      return littleEndian(i, new byte[8]);
    }
    throw unsupported(value);
  }

  /**
   * {@code filter.mightContain} of a value as Catalyst holds it (a string's UTF-8 bytes hashed
   * where they lie, a long or an int boxed, a binary's bytes); false for null.
   */
  static boolean mightContain(CuckooFilter filter, Object value) {
    if (value == null) {
      return false;
    } else if (value instanceof UTF8String s) {
      if (s.getBaseObject() instanceof byte[] base) {
        return filter.mightContain(base, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
      }
      return filter.mightContain(s.getBytes()); // off the heap: copied
    } else if (value instanceof Long l) {
      return filter.mightContain(l.longValue());
    } else if (value instanceof Integer i) {
      return filter.mightContain(i.longValue());
    } else if (value instanceof byte[] b) {
      return filter.mightContain(b);
    }
    throw unsupported(value);
  }

  /**
   * The hash of a value as Catalyst holds it, by the rule above (a string's UTF-8 bytes hashed
   * where they lie).
   *
   * @param value a value that is not null
   * @param scratch 8 bytes this call may overwrite
   */
  static long hashOf(Object value, ShardRouter router, byte[] scratch) {
    if (value instanceof UTF8String s) {
      if (s.getBaseObject() instanceof byte[] base) {
        return router.hash(base, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
      }
      return router.hash(s.getBytes());
    }
    return router.hash(catalystBytes(value, scratch));
  }

  /** The key bytes of a value as Catalyst holds it: a string's UTF-8 bytes, a binary, a long or an int's 8 bytes. */
  static byte[] catalystBytes(Object value, byte[] scratch) {
    if (value instanceof UTF8String s) {
      return s.getBytes();
    } else if (value instanceof byte[] b) {
      return b;
    } else if (value instanceof Long l) {
      return littleEndian(l, scratch);
    } else if (value instanceof Integer i) {
      return littleEndian(i, scratch);
    }
    throw unsupported(value);
  }

  /** The SQL names of the key types, for Spark's type-mismatch errors: {@code "STRING" or "BINARY" ...}. */
  static String sqlTypes() {
    return Arrays.stream(values()).map(k -> "\"" + k.type.sql() + "\"").collect(Collectors.joining(" or "));
  }

  private static IllegalArgumentException unsupported(Object value) {
    return new IllegalArgumentException("a key of class " + value.getClass().getName()
        + " is not a key type: supported are " + supported());
  }

  private static byte[] littleEndian(long value, byte[] out) {
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (value >>> (8 * i));
    }
    return out;
  }
}
