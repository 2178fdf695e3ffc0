package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.KeyEncoder;
import dev.cuckoo.TypedFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class GuavaExample {

  /** A value of two fields, as a Guava Funnel would take it. */
  record Order(long id, String customer) {}

  @Test
  void typedKeys() {
    // tag::typed[]
    // Guava: Funnel<Order> f = (o, into) -> into.putLong(o.id()).putString(o.customer(), UTF_8);
    KeyEncoder<Order> byIdAndCustomer = (o, sink) -> sink.putLong(o.id()).putString(o.customer());
    TypedFilter<Order> orders = TypedFilter.of(CuckooFilters.create("classic?capacity=1000000"), byIdAndCustomer);
    orders.add(new Order(17, "alice"));
    orders.mightContain(new Order(17, "alice"));   // true
    orders.remove(new Order(17, "alice"));         // unlike a Bloom filter

    TypedFilter<UUID> sessions = TypedFilter.of(CuckooFilters.create("classic?capacity=1000000"), KeyEncoder.uuids());
    UUID id = UUID.randomUUID();
    sessions.add(id);
    // end::typed[]
    assertTrue(sessions.mightContain(id));
    assertEquals(0, orders.filter().size());
  }

  @Test
  void putAll() {
    List<String> emails = List.of("a@example.com", "b@example.com", "c@example.com");
    // tag::add-all[]
    CuckooFilter seen = CuckooFilters.create("classic?capacity=1000000");
    long added = seen.addAll(emails);        // Guava's putAll: here, how many went in
    seen.addAll(new long[] {1L, 2L, 3L});
    seen.addAll(emails.stream().map(String::toUpperCase));
    // added == emails.size(), or the position of the first key the filter refused:
    // the keys before it are in, it and the keys after it are not.
    // end::add-all[]
    assertEquals(3, added);
    assertEquals(9, seen.size());
  }

  @Test
  void mergeAndCollect() {
    List<String> keys = new ArrayList<>();
    IntStream.range(0, 50_000).forEach(i -> keys.add("user:" + i));
    List<String> left = keys.subList(0, 25_000);
    List<String> right = keys.subList(25_000, 50_000);
    // tag::merge[]
    // One filter per partition or shard, of one config...
    CuckooFilter a = CuckooFilters.create("classic?capacity=1000000");
    CuckooFilter b = CuckooFilters.create("classic?capacity=1000000");
    a.addAll(left);
    b.addAll(right);
    long moved = a.addAll(b);       // Spark's mergeInPlace: a now answers for both; b unchanged
    // moved == b.size(), or fewer if a ran out of room: then what moved stays, nothing is lost

    // ...or let a parallel stream do it: a filter per thread, merged at the end.
    CuckooFilter all = keys.parallelStream().collect(CuckooFilters.toFilter("classic?capacity=1000000"));
    // end::merge[]
    assertEquals(b.size(), moved);
    assertEquals(50_000, a.size());
    assertEquals(50_000, all.size());
    assertTrue(keys.stream().allMatch(all::mightContain));
    assertThrows(IllegalArgumentException.class, () -> a.addAll(CuckooFilters.create("classic?capacity=2000000")));
  }
}
