package dev.statekit.local;

import dev.statekit.stream.Record;
import dev.statekit.stream.Source;
import dev.statekit.stream.SourceReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The lines of a file as a replayable source, one record per non-blank line, positions by line
 * number, reporting how far it got.
 */
final class LineSource implements Source<byte[]> {
  private static final String SPLIT = "file";
  private static final int BATCH = 256;

  private final String name;
  private final List<String> lines;
  private final LongConsumer progress;

  LineSource(String name, List<String> lines, LongConsumer progress) {
    this.name = name;
    this.lines = List.copyOf(lines);
    this.progress = progress;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public SourceReader<byte[]> open(Map<String, String> positions) {
    String at = positions.get(SPLIT);
    int start = at == null ? 0 : Integer.parseInt(at) + 1;
    return new SourceReader<>() {
      private int next = start;

      @Override
      public boolean poll(Consumer<Record<byte[]>> out) {
        int end = Math.min(lines.size(), next + BATCH);
        for (; next < end; next++) {
          String line = lines.get(next);
          if (!line.isBlank()) {
            out.accept(
                Record.at(
                    SPLIT, next, null, line.getBytes(StandardCharsets.UTF_8), Record.NO_TIMESTAMP));
          }
        }
        progress.accept(next);
        return next < lines.size();
      }

      @Override
      public Map<String, String> positions() {
        return next == 0 ? Map.of() : Map.of(SPLIT, Integer.toString(next - 1));
      }
    };
  }
}
