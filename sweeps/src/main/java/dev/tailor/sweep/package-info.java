/**
 * The sweeps a user runs over the simulator from the command line: {@code simulate}'s seeded sweep
 * ({@link dev.tailor.sweep.SimulatedSweep}), the demo's interleaved points ({@link
 * dev.tailor.sweep.DemoSweep}), and the capacity plan over core counts ({@link
 * dev.tailor.sweep.CapacityPlan}) with its validation against a replay's real cells ({@link
 * dev.tailor.sweep.PlanValidation}).
 */
package dev.tailor.sweep;
