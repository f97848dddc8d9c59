package dev.tailor.predictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.RequestView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelPredictorTest {

  @TempDir Path dir;

  private static DirectoryReader reader() throws IOException {
    ByteBuffersDirectory d = new ByteBuffersDirectory();
    try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new WhitespaceAnalyzer()))) {
      for (String body : new String[] {"a b", "a", "b c"}) {
        Document doc = new Document();
        doc.add(new TextField("body", body, Field.Store.NO));
        w.addDocument(doc);
      }
    }
    return DirectoryReader.open(d);
  }

  private static PredictorModel model(long seed) throws IOException {
    return Trainer.train(Synthetic.data(120, seed), Synthetic.options(), false).model();
  }

  @Test
  void predictsFromTheQuerysFeatures() throws IOException {
    try (DirectoryReader reader = reader()) {
      PredictorModel model = model(1);
      ModelPredictor p = ModelPredictor.of(reader, model);
      Query q = new TermQuery(new Term("body", "a"));
      long expected = model.predictNanos(new QueryFeatures(reader).extract(q));
      assertEquals(expected, p.predictSequentialNanos(q));
      assertTrue(expected > 0);
      assertEquals(0, p.failures());
    }
  }

  @Test
  void aQueryThatCannotBePredictedIsUnknownNotAnError() throws IOException {
    try (DirectoryReader reader = reader()) {
      ModelPredictor p = ModelPredictor.of(reader, model(1));
      Query broken =
          new Query() {
            @Override
            public String toString(String field) {
              return "broken";
            }

            @Override
            public void visit(org.apache.lucene.search.QueryVisitor visitor) {
              throw new IllegalStateException("cannot visit");
            }

            @Override
            public boolean equals(Object o) {
              return o == this;
            }

            @Override
            public int hashCode() {
              return 1;
            }
          };
      assertEquals(RequestView.UNKNOWN, p.predictSequentialNanos(broken));
      assertEquals(1, p.failures());
    }
  }

  @Test
  void aNewModelIsSwappedInAndABadOneKeepsTheOldServing() throws IOException {
    Path file = dir.resolve("model.json");
    model(1).write(file);
    try (DirectoryReader reader = reader();
        // Polling far apart: the test reloads by hand, so it never waits on a clock.
        ModelPredictor p = ModelPredictor.watch(reader, file, Duration.ofHours(1))) {
      assertTrue(p.isWatching());
      PredictorModel first = p.model();
      Query q = new TermQuery(new Term("body", "a"));
      long before = p.predictSequentialNanos(q);

      Files.writeString(file, "{ not json");
      assertFalse(p.reload());
      assertSame(first, p.model());
      assertEquals(before, p.predictSequentialNanos(q));
      assertEquals(1, p.rejectedModels());
      assertTrue(p.lastProblem().contains(file.toString()), p.lastProblem());

      model(1).write(dir.resolve("other.json"));
      String json = Files.readString(dir.resolve("other.json"));
      Files.writeString(file, json.replace("\"cost\"", "\"lucene.cost\""));
      assertFalse(p.reload());
      assertSame(first, p.model());
      assertTrue(p.lastProblem().contains("featureNames"), p.lastProblem());

      PredictorModel second = model(2);
      second.write(file);
      assertTrue(p.reload());
      assertNotEquals(
          first.trainedAt() + first.training(), p.model().trainedAt() + p.model().training());
      assertEquals(
          second.predictNanos(new QueryFeatures(reader).extract(q)), p.predictSequentialNanos(q));
      assertEquals(2, p.rejectedModels());
    }
  }

  @Test
  void watchRefusesABadFileAtStart() throws IOException {
    Path file = dir.resolve("model.json");
    Files.writeString(file, "{}");
    try (DirectoryReader reader = reader()) {
      IOException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IOException.class, () -> ModelPredictor.watch(reader, file));
      assertTrue(e.getMessage().contains("format"), e.getMessage());
    }
  }
}
