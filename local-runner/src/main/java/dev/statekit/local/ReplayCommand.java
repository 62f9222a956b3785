package dev.statekit.local;

import dev.statekit.application.Application;
import dev.statekit.aws.events.EventWriter;
import dev.statekit.local.template.EventSource;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.Template;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Feeds the records of a file through a named pipeline by the route Lambda takes: Kinesis events of
 * the stream the pipeline reads, to the one entry point, then the scheduled tick until the
 * pipeline's event time has moved.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description =
        "Feeds the records of FILE (one JSON record per line) through the pipeline NAME as Kinesis"
            + " events of the stream it reads, with a progress bar, then fires the schedule until"
            + " the pipeline's windows have fired: through the running serve (or, with none, in"
            + " this process). The file is a shard of its own: replaying it again applies nothing"
            + " twice.")
final class ReplayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Option(
      names = "--pipeline",
      required = true,
      paramLabel = "NAME",
      description = "The pipeline, as the application declares it.")
  String pipeline;

  @Parameters(paramLabel = "FILE", description = "Records, one per line (JSON lines).")
  Path file;

  @Option(
      names = "--wait-seconds",
      defaultValue = "60",
      description =
          "The longest wait for the pipeline's event time to move after the file"
              + " (default: ${DEFAULT-VALUE}).")
  int waitSeconds;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Template template = options.template();
    Application application = LocalApp.declared(template);
    if (application.pipeline(pipeline).isEmpty()) {
      err.println(
          "statekit-local replay: "
              + application.name()
              + " has no pipeline '"
              + pipeline
              + "'; choose one of "
              + application.pipelineNames());
      return 2;
    }
    if (!Files.isRegularFile(file)) {
      err.println("statekit-local replay: " + file + ": no such file");
      return 2;
    }
    byte[] content = Files.readAllBytes(file);
    List<byte[]> records = new ArrayList<>();
    for (String line : new String(content, StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        records.add(line.strip().getBytes(StandardCharsets.UTF_8));
      }
    }
    FunctionDef function =
        ApplicationCode.applicationFunction(template)
            .orElse(template.urlFunction().orElse(template.functions().get(0)));
    Invocations functions = Invocations.open(spec, options);
    String stream = functions.prefix() + "-" + kinesisSource(function);
    String shard = "shardId-replay-" + HexFormat.of().formatHex(sha256(content), 0, 6);
    ProgressBar progress = new ProgressBar(out, records.size(), "records");
    int fed = 0;
    for (KinesisFeed.Event event : KinesisFeed.events(records, stream, shard)) {
      RunningServe.Answer answer = functions.invoke(function.logicalId(), event.payload());
      List<String> failed = EventWriter.batchItemFailures(answer.body());
      if (answer.failed() || (failed != null && !failed.isEmpty())) {
        progress.finish(fed);
        err.println(
            "statekit-local replay: "
                + function.logicalId()
                + " failed on the batch from record "
                + (fed + 1)
                + ": "
                + Invocations.describe(answer.body()));
        return 1;
      }
      fed += event.records();
      progress.update(fed);
    }
    progress.finish(records.size());
    long watermark =
        PipelineTicks.until(
            payload -> functions.invoke(function.logicalId(), payload).body(),
            PipelineTicks.rule(function),
            Application.tickTask(pipeline),
            Long.MIN_VALUE + 1,
            Duration.ofSeconds(waitSeconds));
    out.println(
        "Replayed "
            + records.size()
            + " records through "
            + pipeline
            + " as Kinesis events of "
            + stream
            + "/"
            + shard
            + "; its event time is now "
            + PipelineTicks.describe(watermark)
            + " (records behind it were late; a window fires once event time passes its end).");
    out.flush();
    return 0;
  }

  private static String kinesisSource(FunctionDef function) {
    return function.events().stream()
        .filter(e -> e.type().equals("Kinesis"))
        .map(EventSource::sourceLogicalId)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    function.logicalId() + " reads no Kinesis stream in the template"));
  }

  private static byte[] sha256(byte[] content) throws java.security.NoSuchAlgorithmException {
    return MessageDigest.getInstance("SHA-256").digest(content);
  }
}
