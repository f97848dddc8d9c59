/**
 * Writing files so that a reader, a crash or a power loss never sees half of one: {@link
 * dev.tailor.core.io.AtomicFiles}.
 */
package dev.tailor.core.io;
