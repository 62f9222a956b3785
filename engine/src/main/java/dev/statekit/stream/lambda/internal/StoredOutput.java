package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressRecord;
import dev.statekit.stream.lambda.internal.SourceOutcome.Routed;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
        + 2
        + id.length()
        + 2
        + source.length()
        + 1
        + (key == null ? 0 : 2 + key.length())
        + 4
        + value.length;
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

  /** Writes the outputs, their count first. */
  static void writeAll(DataOutputStream out, List<StoredOutput> outputs) throws IOException {
    out.writeInt(outputs.size());
    String before = null;
    for (StoredOutput output : outputs) {
      output.write(out, before);
      before = output.route;
    }
  }

  /** Reads what {@link #writeAll} wrote. */
  static List<StoredOutput> readAll(DataInputStream in) throws IOException {
    List<StoredOutput> outputs = new ArrayList<>();
    String before = null;
    for (int n = in.readInt(); n > 0; n--) {
      StoredOutput output = read(in, before);
      outputs.add(output);
      before = output.route;
    }
    return outputs;
  }

  private void write(DataOutputStream out, String before) throws IOException {
    int legacy = Routes.legacyIndex(route);
    if (route.equals(before)) {
      out.writeShort(AS_BEFORE);
    } else if (legacy >= 0) {
      // As the item it came from had it, in as many bytes: its meaning is that item's plan's.
      out.writeShort(legacy);
    } else {
      out.writeShort(NAMED);
      out.writeUTF(route);
    }
    out.writeUTF(id);
    out.writeUTF(source);
    out.writeBoolean(key != null);
    if (key != null) {
      out.writeUTF(key);
    }
    out.writeInt(value.length);
    out.write(value);
  }

  private static StoredOutput read(DataInputStream in, String before) throws IOException {
    short index = in.readShort();
    String route;
    if (index == NAMED) {
      route = in.readUTF();
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
    String id = in.readUTF();
    String source = in.readUTF();
    String key = in.readBoolean() ? in.readUTF() : null;
    byte[] value = new byte[in.readInt()];
    in.readFully(value);
    return new StoredOutput(route, id, source, key, value);
  }
}
