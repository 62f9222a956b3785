package dev.statekit.stream.state.internal;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.StateSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes all of one key's states as one byte array: for each non-empty state its name, its
 * namespace (absent for none) and its value. States are found by name on reading, so an operator
 * may add states between versions; states no longer registered are dropped.
 */
final class EntryCodec {
  private final List<StateSpec<?>> specs;
  private final Serde<Object> namespaceSerde;

  /**
   * Each spec's name as {@link DataOutputStream#writeUTF} writes it, once: an entry writes the name
   * before every state of every window, and encoding it each time was a fortieth of a batch's CPU.
   */
  private final byte[][] names;

  EntryCodec(List<StateSpec<?>> specs, Serde<Object> namespaceSerde) {
    this.specs = specs;
    this.namespaceSerde = namespaceSerde;
    this.names = new byte[specs.size()][];
    for (int i = 0; i < specs.size(); i++) {
      ByteArrayOutputStream name = new ByteArrayOutputStream();
      try {
        new DataOutputStream(name).writeUTF(specs.get(i).name());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      names[i] = name.toByteArray();
    }
  }

  /** The entry's bytes, or null if it holds no state. */
  byte[] encode(KeyEntry entry) {
    entry.compact();
    if (entry.isEmpty()) {
      return null;
    }
    try {
      // About the size it had: growing the buffer, copy after copy, was a twentieth of a batch's
      // CPU.
      int expected = entry.validBytes == null ? 64 : entry.validBytes.length + 32;
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(expected);
      DataOutputStream out = new DataOutputStream(bytes);
      writeSpace(out, null, entry.slots);
      if (entry.spaces != null) {
        for (var space : entry.spaces.entrySet()) {
          writeSpace(out, namespaceSerde.encode(space.getKey()), space.getValue());
        }
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeSpace(DataOutputStream out, byte[] namespace, Object[] values)
      throws IOException {
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        out.write(names[i]);
        writeBytes(out, namespace);
        writeBytes(out, encodeState(specs.get(i), values[i]));
      }
    }
  }

  private static byte[] encodeState(StateSpec<?> spec, Object value) throws IOException {
    if (spec.kind() == StateSpec.Kind.VALUE) {
      return spec.serde().encode(value);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    DataOutputStream out = new DataOutputStream(bytes);
    if (spec.kind() == StateSpec.Kind.LIST) {
      List<?> list = (List<?>) value;
      out.writeInt(list.size());
      for (Object element : list) {
        writeBytes(out, spec.serde().encode(element));
      }
    } else {
      Map<?, ?> map = (Map<?, ?>) value;
      out.writeInt(map.size());
      for (var e : map.entrySet()) {
        writeBytes(out, spec.mapKeySerde().encode(e.getKey()));
        writeBytes(out, spec.serde().encode(e.getValue()));
      }
    }
    return bytes.toByteArray();
  }

  /** Fills a fresh entry from bytes written by {@link #encode}. */
  void decode(byte[] data, KeyEntry entry) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < specs.size(); i++) {
      index.put(specs.get(i).name(), i);
    }
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      while (in.available() > 0) {
        Integer i = index.get(in.readUTF());
        byte[] namespace = readBytes(in);
        byte[] payload = readBytes(in);
        if (i != null) {
          Object[] space =
              namespace == null ? entry.slots : entry.space(namespaceSerde.decode(namespace), true);
          space[i] = decodeState(specs.get(i), payload);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Stored state of key " + entry.key + " is corrupt", e);
    }
  }

  private static Object decodeState(StateSpec<?> spec, byte[] payload) throws IOException {
    if (spec.kind() == StateSpec.Kind.VALUE) {
      return spec.serde().decode(payload);
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    int n = in.readInt();
    if (spec.kind() == StateSpec.Kind.LIST) {
      List<Object> list = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        list.add(spec.serde().decode(readBytes(in)));
      }
      return list;
    }
    Map<Object, Object> map = new HashMap<>();
    for (int k = 0; k < n; k++) {
      Object key = spec.mapKeySerde().decode(readBytes(in));
      map.put(key, spec.serde().decode(readBytes(in)));
    }
    return map;
  }

  private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
    if (bytes == null) {
      out.writeInt(-1);
      return;
    }
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      return null;
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }
}
