package dev.cuckoo;

/**
 * The ready encoders whose values are one of the filter's own key forms, so that a {@link
 * TypedFilter} hands them to the filter directly instead of copying their bytes.
 */
enum ReadyEncoder implements KeyEncoder<Object> {
  STRINGS {
    @Override
    public void encode(Object value, KeySink sink) {
      sink.putString((CharSequence) value);
    }
  },
  LONGS {
    @Override
    public void encode(Object value, KeySink sink) {
      sink.putLong((Long) value);
    }
  },
  BYTES {
    @Override
    public void encode(Object value, KeySink sink) {
      sink.putBytes((byte[]) value);
    }
  };

  @SuppressWarnings("unchecked")
  <T> KeyEncoder<T> typed() {
    return (KeyEncoder<T>) this;
  }
}
