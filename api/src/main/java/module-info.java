/**
 * The cuckoo filter API ({@code dev.cuckoo}) and the SPI that variants and hashes implement
 * ({@code dev.cuckoo.spi}). Variants and hashes are found with {@link java.util.ServiceLoader}.
 */
module dev.cuckoo {
  requires static com.google.auto.service;

  exports dev.cuckoo;
  exports dev.cuckoo.spi;

  uses dev.cuckoo.spi.FilterProvider;
  uses dev.cuckoo.spi.HashStrategyProvider;
}
