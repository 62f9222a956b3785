package dev.statekit.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.aws.ApplicationTable;
import dev.statekit.examples.hello.HelloHandler;
import dev.statekit.testservers.AwsClients;
import dev.statekit.testservers.LocalServers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Runs the example application end to end against an embedded DynamoDB server. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Starts an embedded DynamoDB server, creates the table and runs the examples.")
final class DemoCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(
      names = "--table",
      defaultValue = "statekit-demo",
      description = "The application table's name (default: ${DEFAULT-VALUE}).")
  String table;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    out.println("StateKit demo");
    out.println("1. DynamoDB API: " + LocalServers.dynamoDb());
    try (DynamoDbClient dynamoDb = AwsClients.dynamoDb()) {
      boolean created = ApplicationTable.createIfAbsent(dynamoDb, table);
      out.println(
          "2. Table "
              + table
              + (created ? " created" : " already there")
              + " (pk, sk, on-demand, TTL on "
              + ApplicationTable.TTL_ATTRIBUTE
              + ")");
      HelloHandler handler = new HelloHandler(dynamoDb, table);
      out.println("3. Invoking the hello handler as Lambda would:");
      for (String name : List.of("Ada", "Grace", "Ada")) {
        String request = JSON.writeValueAsString(Map.of("name", name));
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(request.getBytes()), response, null);
        out.println("   " + request + " -> " + response);
      }
    }
    out.println(
        "4. Stateful functions answering StateFun protocol requests in process, as a Flink"
            + " StateFun runtime would send them:");
    int requests = ProtocolDemo.run(out);
    out.println(
        "Done: 3 hello invocations (counts kept in DynamoDB table "
            + table
            + ") and "
            + requests
            + " StateFun requests.");
    return 0;
  }
}
