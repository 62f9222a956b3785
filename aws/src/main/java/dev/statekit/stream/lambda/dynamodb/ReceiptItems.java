package dev.statekit.stream.lambda.dynamodb;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.stream.state.StateStoreException;
import dev.statekit.stream.state.dynamodb.Items;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A message's receipt as items: one, or for outputs past what an item holds (a message fanned out
 * over many keys), the first part in the receipt's own item ({@code done}, with the count of parts)
 * and the others beside it ({@code done#<hash>#1}, {@code done#<hash>#2}, ...). The parts are
 * written before the item that names them, so a receipt is read whole or not at all; each write of
 * a receipt with other bytes or another expiry writes parts of its own, so a part never expires
 * before the item that names it (an earlier write's parts are left to their own expiry).
 */
final class ReceiptItems {
  /** The outputs one item holds, well under DynamoDB's 400 KB with its key and attributes. */
  static final int PART_BYTES = 350_000;

  private static final String OUTPUTS = "o";
  private static final String PARTS = "np";

  /**
   * A hash of the outputs and the expiry, in the parts' sort keys: two copies of a batch writing a
   * message's receipt with other bytes (outputs in another order) write other parts, so a reader
   * never takes one's first part with the other's rest; and two writers of the same bytes with
   * other expiries (a deferral keeping it 14 days past the retention, a drain giving it the
   * retention again) write other parts too, so the parts the own item names always carry its
   * expiry. Sharing them, the writes could interleave to leave the own item with the long expiry
   * and its parts with the short one: once TTL deleted those, the receipt could not be read.
   */
  private static final String PARTS_OF = "pv";

  private ReceiptItems() {}

  /** A receipt's items: its other parts, to write first, and its own item, which names them. */
  record Written(List<Map<String, AttributeValue>> parts, Map<String, AttributeValue> own) {}

  /** The items of the receipt whose own item has {@code key}. */
  static Written items(
      Map<String, AttributeValue> key, String skAttribute, byte[] outputs, long expiresAt) {
    int parts = Math.max(1, (outputs.length + PART_BYTES - 1) / PART_BYTES);
    String of = parts > 1 ? hashOf(outputs, expiresAt) : null;
    List<Map<String, AttributeValue>> rest = new ArrayList<>();
    Map<String, AttributeValue> own = null;
    for (int part = 0; part < parts; part++) {
      Map<String, AttributeValue> item = new HashMap<>(key);
      if (part > 0) {
        item.put(
            skAttribute, AttributeValue.fromS(partSortKey(key.get(skAttribute).s(), of, part)));
      } else if (parts > 1) {
        item.put(PARTS, Items.number(parts));
        item.put(PARTS_OF, AttributeValue.fromS(of));
      }
      int from = part * PART_BYTES;
      byte[] bytes =
          java.util.Arrays.copyOfRange(outputs, from, Math.min(outputs.length, from + PART_BYTES));
      item.put(OUTPUTS, Items.bytes(bytes));
      if (expiresAt > 0) {
        item.put(ApplicationTable.TTL_ATTRIBUTE, Items.number(expiresAt));
      }
      if (part == 0) {
        own = item;
      } else {
        rest.add(item);
      }
    }
    return new Written(rest, own);
  }

  private static String hashOf(byte[] bytes, long expiresAt) {
    try {
      var sha = java.security.MessageDigest.getInstance("SHA-256");
      sha.update(bytes);
      sha.update(java.nio.ByteBuffer.allocate(Long.BYTES).putLong(expiresAt).array());
      byte[] digest = sha.digest();
      return java.util.HexFormat.of().formatHex(digest, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /** The sort key of part {@code part} of the receipt whose own item is {@code main}. */
  static String partSortKey(String sortKey, Map<String, AttributeValue> main, int part) {
    return partSortKey(sortKey, main.get(PARTS_OF).s(), part);
  }

  private static String partSortKey(String sortKey, String of, int part) {
    return sortKey + "#" + of + "#" + part;
  }

  /** How many parts the receipt whose own item is {@code main} has. */
  static int parts(Map<String, AttributeValue> main) {
    var parts = main.get(PARTS);
    return parts == null ? 1 : Integer.parseInt(parts.n());
  }

  /**
   * The outputs of a receipt from its own item and its other parts, in order; null for a receipt
   * past its expiry whose parts DynamoDB's TTL has begun to delete (in no order, and days late): it
   * is no receipt any more.
   *
   * @param nowSeconds the wall clock, epoch seconds
   * @throws StateStoreException if a part is missing while the receipt has not expired
   */
  static byte[] outputs(
      Map<String, AttributeValue> main,
      List<Map<String, AttributeValue>> rest,
      String receipt,
      long nowSeconds) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes(Items.bytes(main.get(OUTPUTS)));
    for (int part = 1; part < parts(main); part++) {
      if (part - 1 >= rest.size() || rest.get(part - 1) == null) {
        AttributeValue expiry = main.get(ApplicationTable.TTL_ATTRIBUTE);
        if (expiry != null && Long.parseLong(expiry.n()) <= nowSeconds) {
          return null;
        }
        throw new StateStoreException(
            dev.statekit.StateKitException.Reason.INVALID_REQUEST,
            "Part "
                + part
                + " of the receipt of "
                + receipt
                + " is missing; its parts are written before the receipt, so the table was"
                + " changed by something else (a partial restore?)");
      }
      bytes.writeBytes(Items.bytes(rest.get(part - 1).get(OUTPUTS)));
    }
    return bytes.toByteArray();
  }
}
