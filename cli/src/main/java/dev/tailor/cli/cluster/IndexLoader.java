package dev.tailor.cli.cluster;

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
public final class IndexLoader {

  /** The searched text field. */
  public static final String FIELD = "body";

  /** Documents per bulk request. */
  static final int BATCH = 1_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final RestClient client;
  private final Consumer<String> log;

  /** A loader sending through {@code client}. */
  public IndexLoader(RestClient client, Consumer<String> log) {
    this.client = client;
    this.log = log;
  }

  /**
   * The index's settings and mappings.
   *
   * @throws IllegalArgumentException if the shards are fewer than 1 or the replicas negative
   */
  static ObjectNode definition(int shards, int replicas, String source, long limit) {
    if (shards < 1) {
      throw new IllegalArgumentException("--shards: " + shards + " (expected at least 1)");
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("--replicas: " + replicas + " (expected 0 or more)");
    }
    ObjectNode def = JSON.createObjectNode();
    ObjectNode index = def.putObject("settings").putObject("index");
    index.put("number_of_shards", shards);
    index.put("number_of_replicas", replicas);
    index.put("refresh_interval", "-1"); // refreshed once, after the load
    ObjectNode mappings = def.putObject("mappings");
    mappings.putObject("_meta").put("corpus", source).put("limit", limit);
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
   * Makes {@code index} hold the first {@code limit} documents of the corpus, with the given shards
   * and replicas; an index that already holds them (by its {@code _meta} and its count) is kept
   * unless {@code reload}.
   *
   * @return how many documents the index holds
   * @throws IOException if a call fails, or a document is refused (naming it and why)
   */
  public long load(
      String index, Corpus corpus, long limit, int shards, int replicas, boolean reload)
      throws IOException {
    ObjectNode definition = definition(shards, replicas, corpus.source(), limit);
    if (client.exists("/" + index)) {
      JsonNode meta = client.get("/" + index + "/_mapping").path(index).path("mappings");
      JsonNode settings =
          client.get("/" + index + "/_settings").path(index).path("settings").path("index");
      boolean same =
          meta.path("_meta").equals(definition.path("mappings").path("_meta"))
              && settings.path("number_of_shards").asInt() == shards
              && settings.path("number_of_replicas").asInt() == replicas;
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
        if (++inBatch == BATCH) {
          send(batch, sent);
          batch.setLength(0);
          inBatch = 0;
        }
      }
    }
    if (inBatch > 0) {
      send(batch, sent);
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
            + shards
            + " shards x "
            + (replicas + 1)
            + " copies, "
            + segments.path("primaries").path("segments").path("count").asInt()
            + " primary segments");
    return count;
  }

  private void send(StringBuilder batch, long sent) throws IOException {
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
    if (sent % (BATCH * 10L) == 0) {
      log.accept("  " + sent + " documents sent");
    }
  }
}
