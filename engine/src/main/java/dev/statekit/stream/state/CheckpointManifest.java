package dev.statekit.stream.state;

import dev.statekit.StateKitException.Reason;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one complete checkpoint covers.
 *
 * @param id the checkpoint id
 * @param positions the source offsets of the last record the checkpoint includes, by split
 * @param watermark the event time a restore resumes at: the least watermark of the source's readers
 *     at the barrier, or the keyed workers' least event time there if that is later
 * @param parts the names of the parts written for it
 * @param lineage the checkpoints whose state this one builds on (with this one complete)
 */
public record CheckpointManifest(
    long id,
    Map<String, String> positions,
    long watermark,
    Set<String> parts,
    CheckpointLineage lineage) {
  /** Copies the collections. */
  public CheckpointManifest {
    positions = Map.copyOf(positions);
    parts = Set.copyOf(parts);
  }

  /** The manifest as bytes, as the DynamoDB store keeps it. */
  public byte[] toBytes() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeLong(id);
      out.writeLong(watermark);
      out.writeInt(positions.size());
      for (var e : positions.entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue());
      }
      out.writeInt(parts.size());
      for (String part : new TreeSet<>(parts)) {
        out.writeUTF(part);
      }
      out.writeLong(lineage.latestComplete());
      out.writeInt(lineage.abandoned().size());
      for (long[] range : lineage.abandoned()) {
        out.writeLong(range[0]);
        out.writeLong(range[1]);
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads bytes written by {@link #toBytes}. */
  public static CheckpointManifest fromBytes(byte[] data) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      long id = in.readLong();
      long watermark = in.readLong();
      Map<String, String> positions = new LinkedHashMap<>();
      for (int n = in.readInt(); n > 0; n--) {
        positions.put(in.readUTF(), in.readUTF());
      }
      Set<String> parts = new TreeSet<>();
      for (int n = in.readInt(); n > 0; n--) {
        parts.add(in.readUTF());
      }
      long latest = in.readLong();
      List<long[]> abandoned = new ArrayList<>();
      for (int n = in.readInt(); n > 0; n--) {
        abandoned.add(new long[] {in.readLong(), in.readLong()});
      }
      return new CheckpointManifest(
          id, positions, watermark, parts, new CheckpointLineage(latest, abandoned));
    } catch (IOException e) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST, "A stored checkpoint manifest is corrupt: " + e, e);
    }
  }
}
