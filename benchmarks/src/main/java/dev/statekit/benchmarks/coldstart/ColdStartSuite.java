package dev.statekit.benchmarks.coldstart;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * For each payload kind, fresh JVMs (the examples' jar alone on the classpath, as on Lambda) are
 * timed from start to the first completed invocation of the one entry point; the ToFunction kind
 * runs beside a plain statefun-sdk-java handler in a JVM with only that SDK on its classpath. Each
 * case also runs primed (the SnapStart checkpoint hook before the invocation) to show what priming
 * leaves for the first invocation after a restore. Median of {@code -Dstatekit.coldstart.runs}
 * (default 5) runs, the two sides alternating.
 */
public final class ColdStartSuite implements Suite {
  private static final String APP = "dev.statekit.handlers.ApplicationHandler";
  private static final String GREETER = "dev.statekit.examples.greeter.GreeterHandler";
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public String name() {
    return "cold-start";
  }

  @Override
  public String description() {
    return "JVM start to first completed invocation of the one entry point per payload kind, fresh"
        + " JVMs, beside a plain statefun-sdk-java handler";
  }

  @Override
  public List<Result> run(PrintStream log) throws Exception {
    Path handlersJar =
        Path.of(
            System.getProperty("statekit.handlers.jar", "examples/target/statekit-examples.jar"));
    if (!Files.isRegularFile(handlersJar)) {
      throw new IllegalStateException(
          handlersJar.toAbsolutePath()
              + " is missing: run the suite from the repository root after"
              + " mvn -B -q -DskipTests package, or pass -Dstatekit.handlers.jar=PATH");
    }
    int runs = Integer.getInteger("statekit.coldstart.runs", 5);
    Path work = Files.createTempDirectory("statekit-cold-start");
    Path classes = childClasses(work);
    Path peerJar = peerJar(work);
    List<String> ours = List.of(classes.toString(), handlersJar.toString());
    List<String> theirs = List.of(classes.toString(), peerJar.toString());
    log.println(
        "  starting the embedded DynamoDB, SQS and Kinesis servers the handlers' children use");
    AppResources resources = new AppResources();

    List<Result> results = new ArrayList<>();
    for (Kind kind : Kind.ALL) {
      Path payload = work.resolve(kind.name() + ".payload");
      Files.write(payload, kind.payload());
      double[] cold = new double[runs];
      double[] construct = new double[runs];
      double[] invoke = new double[runs];
      double[] primedInvoke = new double[runs];
      double[] peer = new double[runs];
      for (int i = 0; i < runs; i++) {
        ChildRun run =
            ChildRun.start(
                ours,
                Child.class.getName(),
                List.of(kind.handler(), payload.toString(), "cold"),
                resources.fresh());
        cold[i] = run.firstInvokeMs();
        construct[i] = run.constructMs();
        invoke[i] = run.invokeMs();
        primedInvoke[i] =
            ChildRun.start(
                    ours,
                    Child.class.getName(),
                    List.of(kind.handler(), payload.toString(), "prime"),
                    resources.fresh())
                .invokeMs();
        if (kind.withPeer()) {
          peer[i] =
              ChildRun.start(
                      theirs, PeerChild.class.getName(), List.of(payload.toString()), Map.of())
                  .firstInvokeMs();
        }
        log.printf(
            "  %-20s run %d: %.0f ms (constructor %.0f, invoke %.1f%s)%s%n",
            kind.name(),
            i + 1,
            cold[i],
            construct[i],
            invoke[i],
            kind.primable() ? String.format(", after priming %.1f", primedInvoke[i]) : "",
            kind.withPeer() ? String.format(" sdk %.0f ms", peer[i]) : "");
      }
      Result result =
          Result.of(name(), kind.name())
              .with("handler", kind.handler().substring(kind.handler().lastIndexOf('.') + 1))
              .with("first_invoke_ms", median(cold))
              .with("constructor_ms", median(construct))
              .with("invoke_ms", median(invoke));
      if (kind.primable()) {
        result.with("primed_invoke_ms", median(primedInvoke));
      }
      if (kind.withPeer()) {
        result.with("sdk_first_invoke_ms", median(peer)).with("ratio", median(cold) / median(peer));
      }
      results.add(result);
    }
    resources.close();
    return results;
  }

  /** A payload kind: its name, the handler that takes it, the payload. */
  private record Kind(String name, String handler, String fixture, boolean withPeer) {
    /** Only the one entry point's handler has SnapStart's priming hook. */
    boolean primable() {
      return !handler.equals(GREETER);
    }

    static final List<Kind> ALL =
        List.of(
            new Kind("to-function", APP, "/events/statefun-function-url.json", true),
            new Kind("to-function-greeter", GREETER, "/events/statefun-function-url.json", true),
            new Kind("http-event", APP, "/events/statefun-function-url.json", false),
            new Kind("envelope", APP, "/events/envelope-add-item.json", false),
            new Kind("sqs", APP, "/events/sqs-ingress.json", false),
            new Kind("scheduled", APP, "/events/schedule-tick.json", false),
            new Kind("kinesis", APP, "/events/kinesis-transactions.json", false),
            new Kind("dynamodb-stream", "counting", "/coldstart/dynamodb-stream.json", false));

    byte[] payload() throws IOException {
      byte[] json = resource(fixture);
      if (name.startsWith("to-function")) {
        return Base64.getDecoder().decode(JSON.readTree(json).get("body").asText());
      }
      return json;
    }
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = ColdStartSuite.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException(name + " is not in the benchmarks jar");
      }
      return in.readAllBytes();
    }
  }

  /** The child mains as class files of their own, so no other benchmark code is on the path. */
  private static Path childClasses(Path work) throws IOException {
    Path dir = work.resolve("classes");
    for (Class<?> main : List.of(Child.class, PeerChild.class)) {
      String file = main.getName().replace('.', '/') + ".class";
      Path target = dir.resolve(file);
      Files.createDirectories(target.getParent());
      Files.write(target, resource("/" + file));
    }
    return dir;
  }

  /** statefun-sdk-java's classes alone, taken from this jar. */
  private static Path peerJar(Path work) throws IOException, URISyntaxException {
    Path self =
        Path.of(ColdStartSuite.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path peer = work.resolve("statefun-sdk-java.jar");
    try (JarFile jar = new JarFile(self.toFile());
        OutputStream file = Files.newOutputStream(peer);
        JarOutputStream out = new JarOutputStream(file)) {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        JarEntry entry = entries.nextElement();
        if (entry.getName().startsWith("org/apache/flink/statefun/") && !entry.isDirectory()) {
          out.putNextEntry(new JarEntry(entry.getName()));
          try (InputStream in = jar.getInputStream(entry)) {
            in.transferTo(out);
          }
          out.closeEntry();
        }
      }
    }
    return peer;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
