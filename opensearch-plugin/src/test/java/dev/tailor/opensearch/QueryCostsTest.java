package dev.tailor.opensearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.opensearch.index.query.QueryBuilders;

/** The decider's memory of query costs: keys, smoothing, and what an unseen query gets. */
class QueryCostsTest {

  @Test
  void anEqualQueryHasTheSameKeyAndAnotherIndexOrQueryAnother() {
    int a = QueryCosts.key("docs", QueryBuilders.matchQuery("body", "heron"));
    assertEquals(a, QueryCosts.key("docs", QueryBuilders.matchQuery("body", "heron")));
    assertNotEquals(a, QueryCosts.key("other", QueryBuilders.matchQuery("body", "heron")));
    assertNotEquals(a, QueryCosts.key("docs", QueryBuilders.matchQuery("body", "canal")));
    assertNotEquals(0, QueryCosts.key("docs", null), "no query (match all) has a key too");
  }

  @Test
  void anUnseenQueryHasNoPredictionAndASeenOneItsSmoothedCost() {
    QueryCosts costs = new QueryCosts();
    int key = QueryCosts.key("docs", QueryBuilders.termQuery("id", "doc-0001"));
    assertEquals(QueryCosts.UNKNOWN, costs.predictNanos(key));
    costs.record(key, 8_000_000);
    assertEquals(8_000_000, costs.predictNanos(key));
    costs.record(key, 4_000_000); // a quarter of the way: 8 - (8 - 4) / 4 = 7 ms
    assertEquals(7_000_000, costs.predictNanos(key));
  }

  @Test
  void aQueryTakingOverTheSlotForgetsTheOldOne() {
    QueryCosts costs = new QueryCosts();
    int key = 0x12340001;
    int rival = 0x22340001; // the same slot: the slot index mixes bits 0-11 with 16-27
    costs.record(key, 2_000_000);
    costs.record(rival, 9_000_000);
    assertEquals(QueryCosts.UNKNOWN, costs.predictNanos(key));
    assertEquals(9_000_000, costs.predictNanos(rival));
  }

  @Test
  void costsAreClampedToTheSlotsRange() {
    QueryCosts costs = new QueryCosts();
    costs.record(7, -5);
    assertEquals(0, costs.predictNanos(7));
    costs.record(9, Long.MAX_VALUE);
    assertEquals(0xFFFF_FFFFL * 1000, costs.predictNanos(9));
  }
}
