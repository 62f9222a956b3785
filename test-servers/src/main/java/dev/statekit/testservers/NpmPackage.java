package dev.statekit.testservers;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Installs one npm package into a private prefix on first use. A file lock keeps two JVMs from
 * installing into the same prefix at once.
 */
final class NpmPackage {
  private static final long INSTALL_TIMEOUT_SECONDS = 300;

  private final String name;
  private final String version;
  private final Path prefix;

  NpmPackage(String name, String version, Path prefix) {
    this.name = name;
    this.version = version;
    this.prefix = prefix;
  }

  /** The package's folder, installing it if it is not there yet. */
  Path install(String whyNeeded, String overrideHint) {
    Path packageDir = prefix.resolve("node_modules").resolve(name);
    try {
      Files.createDirectories(prefix);
      try (FileChannel lockFile =
              FileChannel.open(
                  prefix.resolve(".install.lock"),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          var lock = lockFile.lock()) {
        if (!isInstalled(packageDir)) {
          runNpm(whyNeeded, overrideHint);
        }
      }
    } catch (IOException e) {
      throw new ServerUnavailableException(
          "Installing " + name + "@" + version + " failed: " + e.getMessage() + ". " + overrideHint,
          e);
    }
    if (!isInstalled(packageDir)) {
      throw new ServerUnavailableException(
          "npm reported success but "
              + packageDir
              + " holds no "
              + name
              + "@"
              + version
              + ". "
              + overrideHint);
    }
    return packageDir;
  }

  private boolean isInstalled(Path packageDir) {
    Path manifest = packageDir.resolve("package.json");
    try {
      return Files.isRegularFile(manifest)
          && Files.readString(manifest).contains("\"version\": \"" + version + "\"");
    } catch (IOException e) {
      return false;
    }
  }

  private void runNpm(String whyNeeded, String overrideHint) throws IOException {
    String npm =
        System.getProperty(
            "statekit.npm",
            System.getProperty("os.name").startsWith("Windows") ? "npm.cmd" : "npm");
    Path log = prefix.resolve("npm-install.log");
    List<String> command =
        List.of(
            npm,
            "install",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--prefix",
            prefix.toString(),
            name + "@" + version);
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new ServerUnavailableException(
          whyNeeded
              + " needs npm to install "
              + name
              + "@"
              + version
              + ", and npm could not be run ("
              + e.getMessage()
              + "). Install Node.js with npm, or "
              + overrideHint,
          e);
    }
    try {
      if (!process.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new ServerUnavailableException(
            "npm install "
                + name
                + "@"
                + version
                + " did not finish in "
                + INSTALL_TIMEOUT_SECONDS
                + " s (no network?). "
                + overrideHint);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServerUnavailableException("Interrupted while installing " + name, e);
    }
    if (process.exitValue() != 0) {
      String output = Files.readString(log, StandardCharsets.UTF_8);
      throw new ServerUnavailableException(
          "npm install "
              + name
              + "@"
              + version
              + " failed with exit code "
              + process.exitValue()
              + " (the registry unreachable, or no package for this platform). npm said:\n"
              + tail(output)
              + "\n"
              + overrideHint);
    }
  }

  private static String tail(String text) {
    return text.length() <= 2000 ? text : text.substring(text.length() - 2000);
  }
}
