package dev.statekit.http;

/**
 * A request the parser refused: the status to answer and a message that says what was wrong with
 * it. The connection is closed after the answer, as the request's framing can't be trusted.
 *
 * @param status 400, 405, 408, 413, 414, 431, 501 or 505
 * @param message what was wrong and what to send instead
 */
record HttpProblem(int status, String message) {}
