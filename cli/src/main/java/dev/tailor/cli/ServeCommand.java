package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.lucene.Slicing;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.server.SearchServer;
import dev.tailor.predictor.ModelPredictor;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tailor serve}: an HTTP JSON search server over an index, scheduled by a policy. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve an index over HTTP JSON (GET/POST /search, GET /stats, GET /policy), every search"
          + " scheduled by the policy. Stops gracefully on Ctrl-C or SIGTERM."
    })
final class ServeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--index", required = true, paramLabel = "DIR", description = "A Tailor index.")
  Path index;

  @Option(
      names = "--policy",
      defaultValue = "seq",
      description = "The scheduling policy (./tailor policies; default ${DEFAULT-VALUE}).")
  String policy;

  @Option(
      names = "--workers",
      description = "The parallelism budget (default: this machine's processors).")
  Integer workers;

  @Option(
      names = "--queue",
      defaultValue = "1000",
      description = "Admission queue limit; beyond it a fast 503 (default ${DEFAULT-VALUE}).")
  int queue;

  @Option(
      names = "--bind",
      defaultValue = "127.0.0.1",
      description = "Address to bind (default ${DEFAULT-VALUE}).")
  String bind;

  @Option(
      names = "--port",
      defaultValue = "8080",
      description = "Port (default ${DEFAULT-VALUE}; 0 for any free one).")
  int port;

  @Option(
      names = "--units-per-query",
      description = "Units each query is cut into (default: four per thread of the budget).")
  Integer unitsPerQuery;

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description =
          "A predictor model (./tailor predictor train): each search's sequential time is"
              + " predicted for the policy. The file is watched; a new valid model is swapped in,"
              + " a bad one is logged and the current one kept.")
  Path model;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (!Files.isDirectory(index)) {
      throw new IllegalArgumentException(index + ": no such index directory");
    }
    IndexManifest manifest = IndexManifest.read(index);
    Scheduler.Builder builder = Scheduler.builder().policy(policy).queueCapacity(queue);
    if (workers != null) {
      builder.workers(workers);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(index));
        ModelPredictor predictor = model == null ? null : ModelPredictor.watch(reader, model);
        Scheduler scheduler = builder.build()) {
      SearchServer server =
          new SearchServer(
              unitsPerQuery == null
                  ? new TailorSearcher(reader, scheduler)
                  : new TailorSearcher(reader, scheduler, Slicing.unitsPerQuery(unitsPerQuery)),
              manifest.analyzer(),
              "body",
              SearchServer.Options.defaults().at(bind, port),
              predictor);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    server.stop(Duration.ofSeconds(5)); // running searches finish
                    scheduler.close();
                    stopped.countDown();
                  }));
      err.printf(
          "serving %s (%s, %d docs) on http://%s:%d with policy %s, %s; Ctrl-C stops%n",
          index,
          manifest.sourceLabel(),
          reader.maxDoc(),
          server.address().getHostString(),
          server.address().getPort(),
          scheduler.policy().spec(),
          predictor == null ? "no predictor" : "predictor: " + predictor);
      err.flush();
      stopped.await();
    }
    return 0;
  }
}
