package dev.statekit.local;

import dev.statekit.local.template.Template;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Creates the template's tables, queues and streams. */
@Command(
    name = "tables",
    mixinStandardHelpOptions = true,
    description =
        "Creates the template's DynamoDB tables, SQS queues and Kinesis streams (existing ones are"
            + " kept) on the embedded servers, LocalStack or AWS, and prints their names.")
final class TablesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin BackendOptions options;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Backend backend = options.backend();
    if (!backend.hasServers()) {
      spec.commandLine()
          .getErr()
          .println(
              "statekit-local tables: --in-memory has no tables to create; use the embedded servers, --localstack or --aws");
      return 2;
    }
    Template template = options.template();
    out.println("Creating the resources of " + template.source() + " on " + backend.describe());
    LocalDeployment.create(template, backend, options.prefix, out);
    out.println("Done.");
    out.flush();
    return 0;
  }
}
