#!/bin/sh
# JMH's side of the FastFilter comparison: each contender in its own JMH run (its own forked JVM),
# the four alternating over ROUNDS rounds; JSON per run under OUT. Build the jar first:
#   ./mvnw -B -q -pl benchmarks -am package -DskipTests
set -e
ROUNDS=${ROUNDS:-5}
OUT=${OUT:-target/jmh-fastfilter}
mkdir -p "$OUT"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for c in 'classic?fingerprintBits=16' 'fastfilter/Cuckoo16' 'classic?fingerprintBits=8' 'fastfilter/Cuckoo8'; do
    n=$(echo "$c" | tr '?=/' '___')
    java -jar benchmarks/target/benchmarks.jar 'ContenderBenchmark.(insert|positiveLookup|negativeLookup)$' \
      -p contender="$c" -p size=10000000 -p keys=long -wi 3 -w 2s -i 5 -r 2s -f 1 \
      -rf json -rff "$OUT/r${r}_$n.json" > "$OUT/r${r}_$n.log" 2>&1
  done
  r=$((r + 1))
done
