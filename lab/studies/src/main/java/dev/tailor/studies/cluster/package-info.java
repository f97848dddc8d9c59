/**
 * The partition-aggregate model: an aggregator fans each query out to N shards, each a full
 * simulated server of C cores running a Tailor policy, and answers when the slowest shard has (Jeon
 * et al., "TPC: Target-Driven Parallelism Combining Prediction and Correction to Reduce Tail
 * Latency in Interactive Services", ASPLOS'16, §2.1, §4.5). {@link
 * dev.tailor.studies.cluster.SimulatedCluster} simulates a point, {@link
 * dev.tailor.studies.cluster.Observation} relates the aggregator's P99 to the shards' higher
 * quantiles, and {@link dev.tailor.studies.cluster.SustainedLoad} finds by bisection the highest
 * load at which a policy keeps the aggregator's P99 within a target.
 */
package dev.tailor.studies.cluster;
