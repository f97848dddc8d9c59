package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.predictor.Metrics;
import dev.tailor.predictor.ModelReport;
import dev.tailor.predictor.NoiseBound;
import dev.tailor.predictor.PredictorModel;
import dev.tailor.predictor.ProfileData;
import dev.tailor.predictor.ProjectionReport;
import dev.tailor.predictor.Trainer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tailor predictor}: train, apply and show TPC's predictor of sequential time. */
@Command(
    name = "predictor",
    mixinStandardHelpOptions = true,
    description =
        "Train, apply and show the predictor of a query's sequential time (TPC, Jeon et al.,"
            + " ASPLOS'16, §3.1): boosted regression trees (XGBoost) over query and term"
            + " features computed from the index.",
    subcommands = {
      PredictorCommand.Train.class,
      PredictorCommand.Predict.class,
      PredictorCommand.Show.class,
      PredictorCommand.Projection.class
    })
final class PredictorCommand extends GroupCommand {

  /** Where a profile's features come from: its own index and trace unless told otherwise. */
  static final class Sources {
    @Option(
        names = "--index",
        paramLabel = "DIR",
        description =
            "The index to compute features on (default: the profile's environment.index).")
    Path index;

    @Option(
        names = "--trace",
        paramLabel = "FILE",
        description =
            "The trace the profile's queries come from (default: the profile's environment.trace).")
    Path trace;
  }

  /** {@code predictor train}. */
  @Command(
      name = "train",
      mixinStandardHelpOptions = true,
      description = {
        "Train a model of ln(sequential time) on a demand profile. Features are computed from the"
            + " profile's index and trace, each request matched to its trace query by id.",
        "A seeded share of the requests is held out and measured on; --compare measures a second"
            + " profile of the same queries as if it were a prediction (docs/results/tpc.md)."
      })
  static final class Train implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--profile", required = true, paramLabel = "FILE", description = "A profile.")
    Path profile;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The model.")
    Path modelFile;

    @picocli.CommandLine.Mixin Sources sources;

    @Option(
        names = "--seed",
        defaultValue = "1",
        description = "Chooses the held-out requests, seeds XGBoost (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--holdout",
        defaultValue = "0.2",
        paramLabel = "SHARE",
        description = "The share of requests held out, in [0, 1) (default ${DEFAULT-VALUE}).")
    double holdout;

    @Option(
        names = "--compare",
        paramLabel = "FILE",
        description = "A second profile of the same queries: what any model can reach.")
    Path compare;

    @Option(
        names = "--cross-validate",
        paramLabel = "K",
        description = "Also predict every request by K models that did not see it.")
    Integer crossValidate;

    @Option(names = "--no-ablation", description = "Skip training once per dropped feature family.")
    boolean noAblation;

    @Option(
        names = "--rounds",
        defaultValue = "100",
        description = "Boosting rounds (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
        names = "--max-depth",
        defaultValue = "5",
        description = "Tree depth (default ${DEFAULT-VALUE}).")
    int maxDepth;

    @Option(
        names = "--eta",
        defaultValue = "0.15",
        description = "Learning rate (default ${DEFAULT-VALUE}).")
    double eta;

    @Option(
        names = "--subsample",
        defaultValue = "0.8",
        description = "Share of rows per tree (default ${DEFAULT-VALUE}).")
    double subsample;

    @Option(
        names = "--colsample",
        defaultValue = "0.8",
        description = "Share of features per tree (default ${DEFAULT-VALUE}).")
    double colsample;

    @Option(
        names = "--min-child-weight",
        defaultValue = "2",
        description = "Least rows in a leaf (default ${DEFAULT-VALUE}).")
    double minChildWeight;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      Trainer.Options options;
      try {
        options =
            new Trainer.Options(
                new PredictorModel.Params(
                    rounds, maxDepth, eta, subsample, colsample, minChildWeight, 1),
                seed,
                holdout);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      ProfileData data = ProfileData.read(profile, sources.index, sources.trace);
      DemandProfile other = compare == null ? null : DemandProfile.read(compare);
      Trainer.Result r = Trainer.train(data, options, !noAblation);
      r.model().write(modelFile);
      ModelReport.printTraining(r, data, profile, seed, out);
      if (other != null) {
        ModelReport.printNoiseBound(r, data, other, compare, out);
      }
      if (crossValidate != null) {
        ModelReport.printCrossValidated(
            data, options.params(), seed, crossValidate, other, compare, out);
      }
      out.println("model written to " + modelFile);
      out.flush();
      return 0;
    }
  }

  /** {@code predictor predict}. */
  @Command(
      name = "predict",
      mixinStandardHelpOptions = true,
      description = {
        "Write a copy of a profile with every request's predicted sequential time attached, for"
            + " the simulator and the table builders.",
        "With --cross-fit K, K models each predict the fold they did not see."
      })
  static final class Predict implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "FILE", description = "A model.")
    Path model;

    @Option(names = "--profile", required = true, paramLabel = "FILE", description = "A profile.")
    Path profile;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "FILE",
        description = "The profile with predictions.")
    Path out;

    @picocli.CommandLine.Mixin Sources sources;

    @Option(
        names = "--cross-fit",
        paramLabel = "K",
        description = "Predict each of K folds by a model trained on the others.")
    Integer crossFit;

    @Override
    public Integer call() throws IOException {
      PrintWriter stdout = spec.commandLine().getOut();
      PredictorModel m = PredictorModel.read(model);
      ProfileData data = ProfileData.read(profile, sources.index, sources.trace);
      DemandProfile.Predictions predictions;
      try {
        predictions = ModelReport.predict(m, model, data.data(), crossFit);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      data.profile().withPredictions(predictions).write(out);
      stdout.printf(
          "predicted %d requests of %s (%s, model %s); written to %s%n",
          data.data().size(),
          profile.getFileName(),
          predictions.method(),
          model.getFileName(),
          out);
      stdout.println(
          "  against the profile's times: "
              + Metrics.of(
                      ModelReport.actualNanos(data.data()),
                      predictions.sequentialNanos(),
                      m.training().longThresholdNanos())
                  .describe());
      if (crossFit == null) {
        stdout.println(
            "  (the model saw the requests it was trained on: use --cross-fit K for predictions"
                + " of unseen queries)");
      }
      stdout.flush();
      return 0;
    }
  }

  /** {@code predictor show}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Show a model: its features, what it was trained on, its held-out metrics.")
  static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "MODEL", description = "A model file.")
    Path model;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      ModelReport.printModel(model, PredictorModel.read(model), out);
      out.flush();
      return 0;
    }
  }

  /** {@code predictor projection}. */
  @Command(
      name = "projection",
      mixinStandardHelpOptions = true,
      description = {
        "Score the projection of each request's sequential time from its first windows (1/16,"
            + " 1/8, 1/4 of them) beside the arrival model's: recall and precision of the slowest"
            + " 5%% and the relative L1 error (docs/results/projection.md).",
        "The arrival model, also the projection's prior, is --model's prediction, else the"
            + " profile's attached predictions, else the profile's median sequential time."
      })
  static final class Projection implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--profile",
        required = true,
        paramLabel = "FILE",
        description = "A profile with unit times.")
    Path profile;

    @Option(names = "--model", paramLabel = "FILE", description = "A model to predict with.")
    Path model;

    @Option(
        names = "--second-profile",
        paramLabel = "FILE",
        description =
            "A second profile of the same trace on the same index, to print the noise bound: how"
                + " well its measured times find the slowest 5%%.")
    Path secondProfile;

    @picocli.CommandLine.Mixin Sources sources;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      DemandProfile second = secondProfile == null ? null : DemandProfile.read(secondProfile);
      DemandProfile p;
      long[] predicted = null;
      String arrival = null;
      if (model != null) {
        PredictorModel m = PredictorModel.read(model);
        ProfileData data = ProfileData.read(profile, sources.index, sources.trace);
        p = data.profile();
        predicted = ModelReport.predict(m, model, data.data(), null).sequentialNanos();
        arrival = "the predictions of model " + model.getFileName() + " (as it is)";
      } else {
        p = DemandProfile.read(profile);
        if (p.predictions() != null) {
          predicted = p.predictions().sequentialNanos();
          arrival =
              "the profile's predictions ("
                  + p.predictions().method()
                  + (p.predictions().model() == null ? "" : ", model " + p.predictions().model())
                  + ")";
        }
      }
      ProjectionReport.Result r;
      try {
        r = ProjectionReport.score(p, predicted, arrival);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), profile + ": " + e.getMessage());
      }
      NoiseBound noise = null;
      if (second != null) {
        try {
          noise = NoiseBound.of(p, second);
        } catch (IllegalArgumentException e) {
          throw new ParameterException(spec.commandLine(), secondProfile + ": " + e.getMessage());
        }
      }
      ProjectionReport.print(r, profile.getFileName().toString(), out);
      if (noise != null) {
        ProjectionReport.printNoiseBound(noise, secondProfile.getFileName().toString(), out);
      }
      out.flush();
      return 0;
    }
  }
}
