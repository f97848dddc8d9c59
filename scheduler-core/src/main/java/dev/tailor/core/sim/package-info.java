/**
 * The discrete-event simulator: the same policies on a virtual clock and a simulated number of
 * cores.
 */
package dev.tailor.core.sim;
