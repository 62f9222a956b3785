package dev.statekit.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deployed stack's resource names, logical id to physical name, read from the text the AWS CLI
 * prints for {@code describe-stack-resources --query
 * 'StackResources[].[LogicalResourceId,PhysicalResourceId]' --output text}: SAM names a stack's
 * resources itself, so the console cannot find them by a prefix.
 */
final class ResourceNames {
  private ResourceNames() {}

  /**
   * The names in {@code file}: one logical id and its physical name per line, separated by tabs or
   * spaces; blank lines and lines starting with {@code #} are skipped.
   *
   * @throws IllegalArgumentException if a line holds not exactly two words, or a logical id twice
   */
  static Map<String, String> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Map<String, String> names = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] words = line.split("\\s+");
      if (words.length != 2) {
        throw new IllegalArgumentException(
            file
                + " line "
                + (i + 1)
                + ": expected a logical id and a physical name, got \""
                + line
                + "\" (write the file with aws cloudformation describe-stack-resources ... --output"
                + " text, see console --help)");
      }
      if (names.put(words[0], words[1]) != null) {
        throw new IllegalArgumentException(
            file + " line " + (i + 1) + ": " + words[0] + " is named twice");
      }
    }
    return names;
  }
}
