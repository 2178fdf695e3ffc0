/** An application module as a user writes one: it reads the API and nothing else. */
module app {
  requires dev.cuckoo;
}
