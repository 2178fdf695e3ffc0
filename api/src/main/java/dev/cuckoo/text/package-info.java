/**
 * The text rules every layer of the API module shares, so that each has one home: a key's UTF-8
 * (the key-encoding rule), the forms of configuration names and values, and the known name a
 * mistyped one was meant to be. It imports nothing of the module, so the API, the SPI and the
 * file format all stand on it without leaning on one another. Not exported: no promise to anyone.
 */
package dev.cuckoo.text;
