/**
 * The fault soak behind {@code tailor soak}: requests of every kind (failing, cancelled, slow,
 * nested, random degrees) through one scheduler while its tables are swapped good and corrupt,
 * checked for exactly-once completion and reporting, no dead worker or leaked thread, and a flat
 * heap.
 */
package dev.tailor.bench.soak;
