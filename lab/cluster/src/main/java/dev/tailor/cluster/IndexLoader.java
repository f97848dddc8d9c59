package dev.tailor.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.DocSource;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Creates the searched index and bulk-loads a corpus into it: title and body as text under Lucene's
 * English analyzer (as {@code tailor index} builds its own indexes), the given shards and replicas,
 * the corpus and the document count recorded in the mapping's {@code _meta}, so that a later load
 * of the same documents reuses the index instead of loading it again.
 */
final class IndexLoader {

  /** The searched text field. */
  static final String FIELD = "body";

  /** Progress is printed every this many documents. */
  private static final long LOG_EVERY = 10_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final RestClient client;
  private final Consumer<String> log;

  /** A loader sending through {@code client}. */
  IndexLoader(RestClient client, Consumer<String> log) {
    this.client = client;
    this.log = log;
  }

  /** The index's settings and mappings, recording the corpus, the limit and the shape. */
  static ObjectNode definition(IndexShape shape, String source, long limit) {
    ObjectNode def = JSON.createObjectNode();
    ObjectNode index = def.putObject("settings").putObject("index");
    index.put("number_of_shards", shape.shards());
    index.put("number_of_replicas", shape.replicas());
    index.put("refresh_interval", "-1"); // refreshed after every batch, and once at the end
    if (shape.segmentsPerTier() != null) {
      index.put("merge.policy.segments_per_tier", shape.segmentsPerTier());
    }
    ObjectNode mappings = def.putObject("mappings");
    ObjectNode meta =
        mappings
            .putObject("_meta")
            .put("corpus", source)
            .put("limit", limit)
            .put("shards", shape.shards())
            .put("replicas", shape.replicas())
            .put("refresh_every", shape.refreshEvery());
    if (shape.segmentsPerTier() != null) {
      meta.put("segments_per_tier", shape.segmentsPerTier());
    }
    ObjectNode props = mappings.putObject("properties");
    props.putObject("title").put("type", "text").put("analyzer", "english");
    props.putObject(FIELD).put("type", "text").put("analyzer", "english");
    return def;
  }

  /** One document's lines of a bulk request: the action, then the source. */
  static String bulkLines(String index, CorpusDoc doc) {
    ObjectNode action = JSON.createObjectNode();
    action.putObject("index").put("_index", index);
    ObjectNode source = JSON.createObjectNode();
    source.put("title", doc.title());
    source.put(FIELD, doc.body());
    return action + "\n" + source + "\n";
  }

  /**
   * Makes {@code index} hold the first {@code limit} documents of the corpus, laid out as {@code
   * shape} says; an index that already holds them so (by its {@code _meta}) is kept unless {@code
   * reload}. The documents go in bulk requests of {@code refreshEvery}, each followed by a refresh,
   * so that every shard gets a segment per request (as far as merges leave them): with one segment
   * per shard, neither OpenSearch's slices nor Tailor's policies have anything to run in parallel.
   *
   * @return how many documents the index holds
   * @throws IOException if a call fails, or a document is refused (naming it and why)
   */
  long load(String index, Corpus corpus, long limit, IndexShape shape, boolean reload)
      throws IOException {
    ObjectNode definition = definition(shape, corpus.source(), limit);
    int refreshEvery = shape.refreshEvery();
    if (client.exists("/" + index)) {
      JsonNode meta = client.get("/" + index + "/_mapping").path(index).path("mappings");
      boolean same = meta.path("_meta").equals(definition.path("mappings").path("_meta"));
      if (same && !reload) {
        long count = client.get("/" + index + "/_count").path("count").asLong();
        log.accept(
            "index "
                + index
                + ": kept, "
                + count
                + " documents of "
                + corpus.source()
                + " (--reload loads it again)");
        return count;
      }
      log.accept("index " + index + ": deleting, to load it " + (same ? "again" : "as asked"));
      client.delete("/" + index);
    }
    client.put("/" + index, definition);
    long sent = 0;
    StringBuilder batch = new StringBuilder();
    int inBatch = 0;
    try (DocSource docs = corpus.open()) {
      CorpusDoc doc;
      while (sent < limit && (doc = docs.next()) != null) {
        batch.append(bulkLines(index, doc));
        sent++;
        if (++inBatch == refreshEvery) {
          send(index, batch, inBatch, sent);
          batch.setLength(0);
          inBatch = 0;
        }
      }
    }
    if (inBatch > 0) {
      send(index, batch, inBatch, sent);
    }
    JsonNode refresh = JSON.createObjectNode().putObject("index").put("refresh_interval", "1s");
    client.put("/" + index + "/_settings", refresh);
    client.post("/" + index + "/_refresh", "", "application/json");
    RestClient slow = new RestClient(client.node(), Duration.ofMinutes(3));
    slow.get("/_cluster/health/" + index + "?wait_for_status=green&timeout=120s");
    long count = client.get("/" + index + "/_count").path("count").asLong();
    if (count != sent) {
      throw new IOException("index " + index + " holds " + count + " documents, " + sent + " sent");
    }
    JsonNode segments = client.get("/" + index + "/_stats/segments").path("_all");
    log.accept(
        "index "
            + index
            + ": "
            + count
            + " documents of "
            + corpus.source()
            + ", "
            + shape.shards()
            + " shards x "
            + (shape.replicas() + 1)
            + " copies, "
            + segments.path("primaries").path("segments").path("count").asInt()
            + " segments in the primaries");
    return count;
  }

  private void send(String index, StringBuilder batch, int docs, long sent) throws IOException {
    JsonNode r = client.post("/_bulk", batch.toString(), "application/x-ndjson");
    if (r.path("errors").asBoolean(false)) {
      for (JsonNode item : r.path("items")) {
        JsonNode error = item.path("index").path("error");
        if (!error.isMissingNode()) {
          throw new IOException(
              "bulk load: a document before number "
                  + sent
                  + " was refused: "
                  + RestClient.excerpt(error.toString()));
        }
      }
    }
    client.post("/" + index + "/_refresh", "", "application/json");
    if (sent / LOG_EVERY != (sent - docs) / LOG_EVERY) {
      log.accept("  " + sent + " documents sent");
    }
  }
}
