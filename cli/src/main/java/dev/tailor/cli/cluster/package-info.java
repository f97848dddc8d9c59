/**
 * Real OpenSearch node processes for {@code tailor cluster}: the distribution fetched from Maven
 * Central, node homes configured and started on 127.0.0.1 (through a user namespace when run as
 * root, which OpenSearch refuses), the corpus bulk-loaded, and the settings each configuration of a
 * sweep runs under.
 */
package dev.tailor.cli.cluster;
