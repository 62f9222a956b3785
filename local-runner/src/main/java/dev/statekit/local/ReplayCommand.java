package dev.statekit.local;

import dev.statekit.examples.ExamplePipelines;
import dev.statekit.examples.fraud.Card;
import dev.statekit.function.Message;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.PipelineResult;
import dev.statekit.stream.RunOptions;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Feeds the records of a file through a named pipeline, with a progress bar. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description =
        "Feeds the records of FILE (one JSON record per line) through the pipeline NAME in this"
            + " process, with a progress bar; what the pipeline sends to functions goes to the"
            + " running serve (or, with none, to the functions in this process).")
final class ReplayCommand implements Callable<Integer> {
  private static final int PRINTED = 50;

  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Option(
      names = "--pipeline",
      required = true,
      paramLabel = "NAME",
      description = "The pipeline: ${COMPLETION-CANDIDATES}.",
      completionCandidates = PipelineNames.class)
  String pipeline;

  @Parameters(paramLabel = "FILE", description = "Records, one per line (JSON lines).")
  Path file;

  @Option(
      names = "--print",
      description = "Print what the pipeline would send instead of sending it.")
  boolean printOnly;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!ExamplePipelines.names().contains(pipeline)) {
      err.println(
          "statekit-local replay: there is no pipeline '"
              + pipeline
              + "'; choose one of "
              + ExamplePipelines.names());
      return 2;
    }
    if (!Files.isRegularFile(file)) {
      err.println("statekit-local replay: " + file + ": no such file");
      return 2;
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Invocations functions = printOnly ? null : Invocations.open(spec, options);
    AtomicInteger sent = new AtomicInteger();
    List<String> printed = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    ProgressBar progress = new ProgressBar(out, lines.size(), "records");
    Pipeline run =
        ExamplePipelines.pipeline(
            pipeline,
            new LineSource(file.toString(), lines, progress::update),
            (message, key) -> {
              sent.incrementAndGet();
              if (functions == null) {
                printed.add("  -> " + describe(message));
              } else {
                RunningServe.Answer answer = functions.invoke(null, Envelopes.of(message, key));
                if (answer.failed()) {
                  throw new IllegalStateException(
                      "Delivering to "
                          + message.targetAddress()
                          + " failed: "
                          + new String(answer.body(), StandardCharsets.UTF_8));
                }
              }
            });
    PipelineResult result = run.run(RunOptions.named(pipeline).build());
    progress.finish(lines.size());
    printed.stream().limit(PRINTED).forEach(out::println);
    if (printed.size() > PRINTED) {
      out.println("  ... and " + (printed.size() - PRINTED) + " more");
    }
    out.println(
        "Replayed "
            + result.recordsRead()
            + " records through "
            + pipeline
            + ": "
            + sent.get()
            + " message(s) "
            + (functions == null ? "printed" : "sent to functions")
            + ", "
            + result.droppedRecords()
            + " unreadable record(s) dropped, "
            + result.lateRecords()
            + " late.");
    out.flush();
    return 0;
  }

  private static String describe(Message message) {
    if (message.is(Card.ALERT)) {
      var alert = message.as(Card.ALERT);
      return message.targetAddress()
          + ": "
          + alert.reason()
          + " (window ending "
          + java.time.Instant.ofEpochMilli(alert.windowEnd())
          + ")";
    }
    return message.toString();
  }

  /** Completion candidates of --pipeline. */
  static final class PipelineNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return ExamplePipelines.names().iterator();
    }
  }
}
