/**
 * What a variant or hash author implements or is handed; applications need none of it.
 *
 * <p>A variant is a {@link dev.cuckoo.spi.FilterProvider} (registered with {@code
 * @AutoService(FilterProvider.class)} and a {@code provides} clause in its {@code
 * module-info.java}) whose filters usually extend {@link dev.cuckoo.spi.AbstractCuckooFilter},
 * which turns the key forms into hashes once, so a variant implements the hash-level operations
 * only. It describes its configuration keys with a {@link dev.cuckoo.spi.SpecSchema}, and writes
 * and reads its file payload through {@link dev.cuckoo.spi.PayloadOutput} and {@link
 * dev.cuckoo.spi.PayloadInput}, inside the envelope the library owns.
 *
 * <p>A hash is a {@link dev.cuckoo.spi.HashStrategy}, passed to a spec as an instance or
 * registered by name through a {@link dev.cuckoo.spi.HashStrategyProvider}. Its {@code
 * hashChars} and {@code hashLong} must give what {@code hashBytes} gives for the key's bytes.
 *
 * <p>Table machinery that variants share (tables, kick path, stash, sizing) is in the engine
 * module's {@code dev.cuckoo.engine}, not here.
 */
package dev.cuckoo.spi;
