/**
 * Real OpenSearch node processes with Tailor's plugin on this machine: the distribution fetched
 * from Maven Central, node homes configured and started on 127.0.0.1 (through a user namespace when
 * run as root, which OpenSearch refuses), a corpus bulk-loaded into an index, and the open-loop
 * load swept through the nodes for OpenSearch as it ships and for Tailor's policies.
 *
 * <p>{@link dev.tailor.cluster.Cluster} starts, finds, describes and stops a cluster laid out by a
 * {@link dev.tailor.cluster.ClusterLayout}; {@link dev.tailor.cluster.ClusterLoad} runs a sweep
 * through it.
 */
package dev.tailor.cluster;
