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
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * For each payload kind, fresh JVMs (the examples' jar alone on the classpath, as on Lambda) are
 * timed from start to the first completed invocation of the one entry point; the ToFunction kind
 * runs beside a plain statefun-sdk-java handler in a JVM with only that SDK on its classpath. Each
 * case also runs primed (the SnapStart checkpoint hook before the invocation) to show what priming
 * leaves for the first invocation after a restore, and (unless {@code
 * -Dstatekit.coldstart.classArchive=false}) cold again with a dynamic class archive (AppCDS) that a
 * training JVM wrote after constructing the handler and running its priming hook, which calls no
 * server: what an archive built offline with the jar saves a cold start. Beside each payload that
 * calls AWS runs the AWS SDK alone making a first DynamoDB and SQS call ({@link AwsSdkChild}), the
 * floor under such a payload. Median of {@code -Dstatekit.coldstart.runs} (default 5) runs, the
 * sides alternating.
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
    List<String> flags = jvmFlags();
    List<Kind> kinds = kinds();
    log.println("  child JVM flags (both sides): " + String.join(" ", flags));
    Path work = Files.createTempDirectory("statekit-cold-start");
    Path classes = childJar(work);
    Path peerJar = peerJar(work);
    List<String> ours = List.of(classes.toString(), handlersJar.toString());
    List<String> baseline = baselineJar().map(jar -> List.of(classes.toString(), jar)).orElse(null);
    if (baseline != null) {
      log.println("  baseline handlers jar, run beside every case: " + baseline.get(1));
    }
    List<String> theirs = List.of(classes.toString(), peerJar.toString());
    Path peerPayload = work.resolve("peer.payload");
    Files.write(peerPayload, Kind.ALL.get(0).payload());
    log.println(
        "  starting the embedded DynamoDB, SQS and Kinesis servers the handlers' children use");
    AppResources resources = new AppResources();
    Path archive = null;
    if (Boolean.parseBoolean(System.getProperty("statekit.coldstart.classArchive", "true"))
        && kinds.stream().anyMatch(Kind::primable)) {
      archive = train(work, flags, ours, resources, log);
    }

    List<Result> results = new ArrayList<>();
    for (Kind kind : kinds) {
      Path payload = work.resolve(kind.name() + ".payload");
      Files.write(payload, kind.payload());
      double[] cold = new double[runs];
      double[] construct = new double[runs];
      double[] invoke = new double[runs];
      double[] primedInvoke = new double[runs];
      double[] peer = new double[runs];
      double[] archived = new double[runs];
      double[] before = new double[runs];
      double[] floor = new double[runs];
      boolean withArchive = archive != null && kind.primable();
      for (int i = 0; i < runs; i++) {
        ChildRun run =
            ChildRun.start(
                flags,
                ours,
                Child.class.getName(),
                List.of(kind.handler(), payload.toString(), "cold"),
                resources.fresh());
        cold[i] = run.firstInvokeMs();
        construct[i] = run.constructMs();
        invoke[i] = run.invokeMs();
        if (kind.primable()) {
          primedInvoke[i] =
              ChildRun.start(
                      flags,
                      ours,
                      Child.class.getName(),
                      List.of(kind.handler(), payload.toString(), "prime"),
                      resources.fresh())
                  .invokeMs();
        }
        if (withArchive) {
          archived[i] =
              ChildRun.start(
                      withArchive(flags, archive),
                      ours,
                      Child.class.getName(),
                      List.of(kind.handler(), payload.toString(), "cold"),
                      resources.fresh())
                  .firstInvokeMs();
        }
        if (baseline != null) {
          before[i] =
              ChildRun.start(
                      flags,
                      baseline,
                      Child.class.getName(),
                      List.of(kind.handler(), payload.toString(), "cold"),
                      resources.fresh())
                  .firstInvokeMs();
        }
        if (kind.reachesAws()) {
          floor[i] =
              ChildRun.start(flags, ours, AwsSdkChild.class.getName(), List.of(), resources.fresh())
                  .firstInvokeMs();
        }
        // The peer runs beside every case, so each ratio compares JVMs started under the same load.
        peer[i] =
            ChildRun.start(
                    flags,
                    theirs,
                    PeerChild.class.getName(),
                    List.of(peerPayload.toString()),
                    Map.of())
                .firstInvokeMs();
        log.printf(
            "  %-20s run %d: %.0f ms (constructor %.0f, invoke %.1f%s)%s%s%s sdk %.0f ms%n",
            kind.name(),
            i + 1,
            cold[i],
            construct[i],
            invoke[i],
            kind.primable() ? String.format(", after priming %.1f", primedInvoke[i]) : "",
            withArchive ? String.format(" with class archive %.0f ms", archived[i]) : "",
            baseline != null ? String.format(" baseline %.0f ms", before[i]) : "",
            kind.reachesAws() ? String.format(" aws-sdk floor %.0f ms", floor[i]) : "",
            peer[i]);
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
      if (withArchive) {
        result.with("archived_first_invoke_ms", median(archived));
      }
      result
          .with("sdk_first_invoke_ms", median(peer))
          .with("ratio_to_sdk", median(cold) / median(peer));
      if (withArchive) {
        result.with("archived_ratio_to_sdk", median(archived) / median(peer));
      }
      if (kind.reachesAws()) {
        result.with("aws_sdk_floor_ms", median(floor));
      }
      if (baseline != null) {
        result
            .with("baseline_first_invoke_ms", median(before))
            .with("ratio_to_baseline", median(cold) / median(before));
        if (withArchive) {
          result.with("archived_ratio_to_baseline", median(archived) / median(before));
        }
      }
      results.add(result);
    }
    resources.close();
    return results;
  }

  /**
   * A second handlers jar ({@code -Dstatekit.coldstart.baselineJar}, e.g. an earlier commit's),
   * measured cold beside every case in the same run, so a change is compared under the same load.
   */
  static Optional<String> baselineJar() {
    String jar = System.getProperty("statekit.coldstart.baselineJar", "").trim();
    if (jar.isEmpty()) {
      return Optional.empty();
    }
    if (!Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "-Dstatekit.coldstart.baselineJar names "
              + Path.of(jar).toAbsolutePath()
              + ", which is no file: give the handlers jar to compare with");
    }
    return Optional.of(Path.of(jar).toAbsolutePath().toString());
  }

  /**
   * Writes the dynamic class archive of the one entry point's handler: a JVM constructs it and runs
   * its priming hook (offline clients, no server called), then exits, and {@code
   * -XX:ArchiveClassesAtExit} archives every class it loaded that the JDK's own archive lacks.
   */
  private static Path train(
      Path work, List<String> flags, List<String> ours, AppResources resources, PrintStream log)
      throws IOException, InterruptedException {
    Path archive = work.resolve("statekit-handler.jsa");
    List<String> training = new ArrayList<>(flags);
    training.add("-XX:ArchiveClassesAtExit=" + archive);
    ChildRun.start(
        training,
        ours,
        Child.class.getName(),
        List.of(APP, work.resolve("none").toString(), "train"),
        resources.fresh());
    if (!Files.isRegularFile(archive)) {
      throw new IllegalStateException(
          "The training JVM wrote no class archive at "
              + archive
              + "; run with -Dstatekit.coldstart.classArchive=false to measure without one");
    }
    log.printf(
        "  class archive from construction and priming: %.1f MB%n", Files.size(archive) / 1e6);
    return archive;
  }

  /** {@code flags} with the archive, which must map (-Xshare:on), or the JVM refuses to start. */
  private static List<String> withArchive(List<String> flags, Path archive) {
    List<String> with = new ArrayList<>(flags);
    with.add("-XX:SharedArchiveFile=" + archive);
    with.add("-Xshare:on");
    return with;
  }

  /**
   * The flags of every child JVM, ours and the peer's: by default those Lambda's java17 and java21
   * runtimes start the JVM with (tiered compilation stopped at C1, the serial collector), so the
   * figures are what a function without SnapStart pays; {@code -Dstatekit.coldstart.jvmFlags}
   * replaces them (space-separated, empty for the JVM's own defaults).
   */
  static List<String> jvmFlags() {
    String flags = System.getProperty("statekit.coldstart.jvmFlags", LAMBDA_FLAGS).trim();
    return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
  }

  /** The JVM flags Lambda's java17 and java21 runtimes use by default. */
  static final String LAMBDA_FLAGS =
      "-XX:+TieredCompilation -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  /** The payload kinds to measure: every one, or those {@code -Dstatekit.coldstart.kinds} names. */
  static List<Kind> kinds() {
    String names = System.getProperty("statekit.coldstart.kinds", "").trim();
    if (names.isEmpty()) {
      return Kind.ALL;
    }
    List<Kind> chosen = new ArrayList<>();
    for (String name : names.split(",")) {
      Kind kind =
          Kind.ALL.stream()
              .filter(k -> k.name().equals(name.trim()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "-Dstatekit.coldstart.kinds names '"
                              + name.trim()
                              + "', which is no payload kind; the kinds are "
                              + Kind.ALL.stream().map(Kind::name).toList()));
      chosen.add(kind);
    }
    return chosen;
  }

  /** A payload kind: its name, the handler that takes it, the payload. */
  record Kind(String name, String handler, String fixture) {
    /**
     * Whether the payload calls DynamoDB or SQS: beside it runs the AWS SDK alone making a first
     * call to each ({@link AwsSdkChild}), the floor under what such a payload can cost.
     */
    boolean reachesAws() {
      return List.of("envelope", "sqs", "scheduled", "kinesis").contains(name);
    }

    /** Only the one entry point's handler has SnapStart's priming hook. */
    boolean primable() {
      return !handler.equals(GREETER);
    }

    static final List<Kind> ALL =
        List.of(
            new Kind("to-function", APP, "/events/statefun-function-url.json"),
            new Kind("to-function-greeter", GREETER, "/events/statefun-function-url.json"),
            new Kind("http-event", APP, "/events/statefun-function-url.json"),
            new Kind("envelope", APP, "/events/envelope-add-item.json"),
            new Kind("sqs", APP, "/events/sqs-ingress.json"),
            new Kind("scheduled", APP, "/events/schedule-tick.json"),
            new Kind("kinesis", APP, "/events/kinesis-transactions.json"),
            new Kind("dynamodb-stream", "counting", "/coldstart/dynamodb-stream.json"));

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

  /**
   * The child mains in a jar of their own, so no other benchmark code is on the path (a jar, since
   * a class archive refuses a class path with a non-empty directory).
   */
  private static Path childJar(Path work) throws IOException {
    Path jar = work.resolve("children.jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      for (Class<?> main : List.of(Child.class, PeerChild.class, AwsSdkChild.class)) {
        String name = main.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(name));
        out.write(resource("/" + name));
        out.closeEntry();
      }
    }
    return jar;
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
