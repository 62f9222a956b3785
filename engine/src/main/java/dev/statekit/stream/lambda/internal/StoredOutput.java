package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressRecord;
import dev.statekit.stream.lambda.internal.SourceOutcome.Routed;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An output kept in a key's outbox until it is known delivered: enough to rebuild its {@link
 * EgressRecord} with the output it goes to.
 *
 * @param route the name of the pipeline's output (main, late records, dead letters), {@link
 *     Routes#name}: a later deployment may have its outputs in another order
 * @param id the record's id
 * @param source the id of its source address (the key)
 * @param key its record key, or null
 * @param value its value's bytes
 */
record StoredOutput(String route, String id, String source, String key, byte[] value) {
  /** What {@link #write} writes where an item written before names were kept has an index. */
  private static final short NAMED = -1;

  /** In a list, the route of the output before ({@link #writeAll}): most lists have one route. */
  private static final short AS_BEFORE = -2;

  /** The count that marks a long list ({@link #writeAll}). */
  private static final int LONG_LIST = Integer.MAX_VALUE;

  /**
   * What follows {@link #LONG_LIST}: as an output's route, one that no version names (earlier ones
   * refuse it as corrupt).
   */
  private static final short LONG_LIST_ROUTE = -3;

  /** The most {@link DataOutputStream#writeUTF} writes. */
  private static final int MAX_SHORT_BYTES = 65_535;

  /** More than any item holds: a longer string is a corrupt one, refused before it is allocated. */
  private static final int MAX_LONG_BYTES = 16 << 20;

  static StoredOutput of(String route, String source, EgressRecord record) {
    return new StoredOutput(route, record.id(), source, record.key().orElse(null), record.value());
  }

  /** The output as its pipeline output's record again, the same id. */
  Routed routed(Routes routes, String pipeline) {
    int index = routes.route(route);
    return new Routed(index, routes.get(index).record(id, pipeline, source, key, value));
  }

  /**
   * The outputs as their pipeline outputs' records again, all or none.
   *
   * @throws MissingOutputException if one names an output this deployment lacks
   */
  static List<Routed> routedAll(List<StoredOutput> outputs, Routes routes, String pipeline) {
    List<Routed> routed = new ArrayList<>(outputs.size());
    for (StoredOutput output : outputs) {
      routed.add(output.routed(routes, pipeline));
    }
    return routed;
  }

  /**
   * The bytes {@link #writeAll} writes for this output after {@code before} in a list (exactly, for
   * ASCII strings): the route's name only where it changes.
   *
   * @param before the output before it in its list, or null for the first
   */
  int size(StoredOutput before) {
    return 2
        + (before != null && route.equals(before.route) || Routes.legacyIndex(route) >= 0
            ? 0
            : 2 + route.length())
        + textSize(id)
        + textSize(source)
        + 1
        + (key == null ? 0 : textSize(key))
        + 4
        + value.length;
  }

  /** A string's bytes as written (for ASCII), in the list's format its own length asks for. */
  private static int textSize(String text) {
    return (isLong(text) ? 4 : 2) + text.length();
  }

  /**
   * Whether {@code text} is past what {@link DataOutputStream#writeUTF} writes (65,535 bytes): a
   * record key or id built from a long key. A list holding one is written in the long format.
   */
  private static boolean isLong(String text) {
    if (text.length() <= MAX_SHORT_BYTES / 3) {
      return false;
    }
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      bytes += c >= 1 && c <= 0x7F ? 1 : c <= 0x7FF ? 2 : 3;
    }
    return bytes > MAX_SHORT_BYTES;
  }

  private boolean hasLongText() {
    return isLong(route) || isLong(id) || isLong(source) || (key != null && isLong(key));
  }

  /** The bytes {@link #writeAll} writes for {@code outputs} but their count. */
  static int sizeAll(List<StoredOutput> outputs) {
    int bytes = 0;
    StoredOutput before = null;
    for (StoredOutput output : outputs) {
      bytes += output.size(before);
      before = output;
    }
    return bytes;
  }

  /**
   * Writes the outputs, their count first. A list with a string past 65,535 bytes is written in the
   * long format ({@link #LONG_LIST}, then the count, then every string as an int length and UTF-8);
   * any other list as before, so that a process of an earlier version reads it. An earlier version
   * reads a long list's mark as a count and then a route it does not know, and refuses the list as
   * corrupt: its batch fails and comes again, rather than reading no outputs.
   */
  static void writeAll(DataOutputStream out, List<StoredOutput> outputs) throws IOException {
    boolean longFormat = outputs.stream().anyMatch(StoredOutput::hasLongText);
    if (longFormat) {
      out.writeInt(LONG_LIST);
      out.writeShort(LONG_LIST_ROUTE);
    }
    out.writeInt(outputs.size());
    String before = null;
    for (StoredOutput output : outputs) {
      output.write(out, before, longFormat);
      before = output.route;
    }
  }

  /** Reads what {@link #writeAll} wrote. */
  static List<StoredOutput> readAll(DataInputStream in) throws IOException {
    List<StoredOutput> outputs = new ArrayList<>();
    String before = null;
    int count = in.readInt();
    boolean longFormat = count == LONG_LIST;
    if (longFormat) {
      short mark = in.readShort();
      if (mark != LONG_LIST_ROUTE) {
        throw new IOException("a long output list marked " + mark);
      }
      count = in.readInt();
    }
    if (count < 0) {
      throw new IOException("an output list of " + count);
    }
    for (int n = count; n > 0; n--) {
      StoredOutput output = read(in, before, longFormat);
      outputs.add(output);
      before = output.route;
    }
    return outputs;
  }

  private void write(DataOutputStream out, String before, boolean longFormat) throws IOException {
    int legacy = Routes.legacyIndex(route);
    if (route.equals(before)) {
      out.writeShort(AS_BEFORE);
    } else if (legacy >= 0) {
      // As the item it came from had it, in as many bytes: its meaning is that item's plan's.
      out.writeShort(legacy);
    } else {
      out.writeShort(NAMED);
      writeText(out, route, longFormat);
    }
    writeText(out, id, longFormat);
    writeText(out, source, longFormat);
    out.writeBoolean(key != null);
    if (key != null) {
      writeText(out, key, longFormat);
    }
    out.writeInt(value.length);
    out.write(value);
  }

  private static void writeText(DataOutputStream out, String text, boolean longFormat)
      throws IOException {
    if (longFormat) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      out.writeInt(bytes.length);
      out.write(bytes);
    } else {
      out.writeUTF(text);
    }
  }

  private static String readText(DataInputStream in, boolean longFormat) throws IOException {
    if (!longFormat) {
      return in.readUTF();
    }
    int length = in.readInt();
    if (length < 0 || length > MAX_LONG_BYTES) {
      throw new IOException("an output's string of " + length + " bytes");
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static StoredOutput read(DataInputStream in, String before, boolean longFormat)
      throws IOException {
    short index = in.readShort();
    String route;
    if (index == NAMED) {
      route = readText(in, longFormat);
    } else if (index == AS_BEFORE) {
      if (before == null) {
        throw new IOException("an output names the route of none before it");
      }
      route = before;
    } else if (index >= 0) {
      route = Routes.legacy(index);
    } else {
      throw new IOException("an output's route is " + index);
    }
    String id = readText(in, longFormat);
    String source = readText(in, longFormat);
    String key = in.readBoolean() ? readText(in, longFormat) : null;
    byte[] value = new byte[in.readInt()];
    in.readFully(value);
    return new StoredOutput(route, id, source, key, value);
  }
}
