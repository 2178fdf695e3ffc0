#!/usr/bin/env bash
# Instructions per operation of the heap path, in two checkouts built with
# `./mvnw -B -q compile -pl classic,semi-sorted,hashing -am`:
#   docs/measure/heap-path-instructions.sh BEFORE_DIR AFTER_DIR 'classic?fingerprintBits=12'
# Deterministic for the same code and inputs, whatever else the machine runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
zah=$(ls ~/.m2/repository/net/openhft/zero-allocation-hashing/*/zero-allocation-hashing-*.jar | head -1)
work=$(mktemp -d)
javac -cp "$1/api/target/classes" -d "$work" "$here/HeapPathInstructions.java"
total() { # checkout passes op
  local cp="$work:$1/api/target/classes:$1/engine/target/classes:$1/classic/target/classes"
  cp="$cp:$1/semi-sorted/target/classes:$1/hashing/target/classes:$zah"
  valgrind --tool=callgrind --callgrind-out-file="$work/cg" java -XX:-BackgroundCompilation \
    -XX:+UseSerialGC -Xms256m -Xmx256m -cp "$cp" HeapPathInstructions "$config" 100000 "$2" "$3" >/dev/null 2>&1
  awk '/^(summary|totals):/ {print $2; exit}' "$work/cg"
}
config=$3
for dir in "$1" "$2"; do
  lookup=$(( ($(total "$dir" 50 lookup) - $(total "$dir" 10 lookup)) ))
  insert=$(( ($(total "$dir" 13 insert) - $(total "$dir" 3 insert)) ))
  awk -v d="$dir" -v c="$config" -v l="$lookup" -v i="$insert" \
    'BEGIN { printf "%s %s: lookup %.2f, insert %.2f instructions/op\n", d, c, l / 4e6, i / 1e6 }'
done
rm -rf "$work"
