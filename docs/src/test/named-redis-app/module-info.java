/** An application module as a user of cuckoo-redis writes one: it reads that module and nothing else. */
module redisapp {
  requires dev.cuckoo.redis;
}
