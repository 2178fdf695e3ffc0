/**
 * The cuckoo filter API ({@code dev.cuckoo}: what applications use) and the SPI that variants
 * and hashes implement ({@code dev.cuckoo.spi}). Variants and hashes are found with {@link
 * java.util.ServiceLoader}. The file envelope and the provider registry live in {@code
 * dev.cuckoo.internal}, and the text rules the API, the SPI and the envelope share (a key's UTF-8,
 * config names and numbers) in {@code dev.cuckoo.text}; neither is exported: they are no promise
 * to anyone.
 */
@SuppressWarnings("module") // the engine, exported to below, is built after this module
module dev.cuckoo {
  requires static com.google.auto.service;

  exports dev.cuckoo;
  exports dev.cuckoo.spi;
  // The one seam every write to a filter file goes through, for the engine's mapped stores: no promise.
  exports dev.cuckoo.internal.io to dev.cuckoo.engine;

  uses dev.cuckoo.spi.FilterProvider;
  uses dev.cuckoo.spi.HashStrategyProvider;
}
