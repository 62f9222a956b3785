package dev.statekit.http;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/** One client connection's state, owned by the server's I/O thread. */
final class Connection {
  /** What the connection is doing, and so which deadline holds. */
  enum Phase {
    /** Waiting for the first byte of a request: closed quietly at the deadline. */
    IDLE,
    /** Receiving a request: answered 408 at the deadline. */
    READING,
    /** A worker is answering: no deadline, nothing is read meanwhile. */
    WORKING,
    /** Sending the answer: closed at the deadline. */
    WRITING,
    /**
     * The answer sent and the sending side shut: what the client still sends is read and dropped
     * for a moment, so that closing does not reset the connection before the client read the
     * answer.
     */
    DRAINING
  }

  final SocketChannel channel;
  final SelectionKey key;

  Phase phase = Phase.IDLE;
  long deadline;
  long requestStart;
  RequestParser parser;
  boolean prechecked;
  int bufferedBytes;
  ByteBuffer out;
  boolean closeAfterWrite;
  boolean head;

  /** Bytes that arrived after the current request: the start of the next one. */
  byte[] leftover;

  /**
   * Whether a request was answered on it and it was kept alive: only such a connection may be
   * closed while idle to make room (a new one's client is owed an answer to its first request).
   */
  boolean keptAlive;

  Connection(SocketChannel channel, SelectionKey key, RequestParser parser, long deadline) {
    this.channel = channel;
    this.key = key;
    this.parser = parser;
    this.deadline = deadline;
  }
}
