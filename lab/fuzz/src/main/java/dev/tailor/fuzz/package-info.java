/**
 * The fuzz targets of Tailor's file readers ({@link dev.tailor.fuzz.FuzzTarget}) and the runner
 * that fuzzes one with Jazzer through Maven ({@link dev.tailor.fuzz.JazzerRun}); the targets
 * themselves are this module's {@code @FuzzTest} tests.
 */
package dev.tailor.fuzz;
