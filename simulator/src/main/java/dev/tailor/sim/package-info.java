/**
 * The discrete-event simulator: the same policies on a virtual clock and a simulated number of
 * cores, under Few-to-Many's fluid work model or the runtime's unit model.
 */
package dev.tailor.sim;
